#include "core/json_text.hpp"

#include <charconv>
#include <cstdint>
#include <cstring>
#include <stdexcept>

namespace reactor::json_text {

namespace {

constexpr std::uint64_t kHighBits = 0x8080808080808080ULL;  // the top bit of each byte

// The eight bytes of `text` from `k` on as one word; the caller checks they are there.
std::uint64_t word_at(std::string_view text, std::size_t k) {
  std::uint64_t word;
  std::memcpy(&word, text.data() + k, sizeof word);
  return word;
}

// Whether any of the 8 bytes in `w` needs escaping: a quote, a backslash or a
// control character. Records are mostly plain text, so the scan goes a word
// at a time and looks at single bytes only in a word that has one of these.
bool needs_escape(std::uint64_t w) {
  constexpr std::uint64_t kOnes = 0x0101010101010101ULL;
  const auto has_zero_byte = [&](std::uint64_t v) { return (v - kOnes) & ~v & kHighBits; };
  const std::uint64_t below_space = (w - kOnes * 0x20) & ~w & kHighBits;
  return (below_space | has_zero_byte(w ^ (kOnes * '"')) | has_zero_byte(w ^ (kOnes * '\\'))) != 0;
}

bool plain(unsigned char c) { return c >= 0x20 && c != '"' && c != '\\'; }

template <typename Int>
void append_integer(std::string& out, Int value) {
  char digits[24];
  auto [end, ec] = std::to_chars(digits, digits + sizeof digits, value);
  out.append(digits, end);
}

void append_escape(std::string& out, unsigned char c) {
  static constexpr char kHex[] = "0123456789abcdef";
  switch (c) {
    case '"':
      out += "\\\"";
      break;
    case '\\':
      out += "\\\\";
      break;
    case '\b':
      out += "\\b";
      break;
    case '\f':
      out += "\\f";
      break;
    case '\n':
      out += "\\n";
      break;
    case '\r':
      out += "\\r";
      break;
    case '\t':
      out += "\\t";
      break;
    default:
      out += "\\u00";
      out += kHex[c >> 4];
      out += kHex[c & 0xf];
  }
}

}  // namespace

void append_string(std::string& out, std::string_view text) {
  out += '"';
  std::size_t plain_from = 0;  // start of the bytes not yet copied
  const auto look_at = [&](std::size_t k) {
    const auto c = static_cast<unsigned char>(text[k]);
    if (plain(c)) return;
    out.append(text.data() + plain_from, k - plain_from);
    plain_from = k + 1;
    append_escape(out, c);
  };
  std::size_t k = 0;
  for (; k + 8 <= text.size(); k += 8) {
    if (!needs_escape(word_at(text, k))) continue;
    for (std::size_t b = k; b < k + 8; ++b) look_at(b);
  }
  for (; k < text.size(); ++k) look_at(k);
  out.append(text.data() + plain_from, text.size() - plain_from);
  out += '"';
}

void ObjectWriter::key(std::string_view k) {
  // Keys are the record's own member names: nothing in them needs escaping.
  out_ += first_ ? "\"" : ",\"";
  first_ = false;
  out_.append(k);
  out_ += "\":";
}

ObjectWriter& ObjectWriter::field(std::string_view k, std::string_view value) {
  key(k);
  append_string(out_, value);
  return *this;
}

ObjectWriter& ObjectWriter::field(std::string_view k, std::int64_t value) {
  key(k);
  append_integer(out_, value);
  return *this;
}

ObjectWriter& ObjectWriter::field(std::string_view k, std::uint64_t value) {
  key(k);
  append_integer(out_, value);
  return *this;
}

ObjectWriter& ObjectWriter::field(std::string_view k, bool value) {
  return raw(k, value ? "true" : "false");
}

namespace {

// Whether the eight bytes of `text` from `k` on are there and all ASCII.
bool ascii_word_at(std::string_view text, std::size_t k) {
  return k + 8 <= text.size() && (word_at(text, k) & kHighBits) == 0;
}

// Well-formed UTF-8 as Value::dump() requires it: no stray continuation bytes,
// no overlong forms, no surrogates, nothing past U+10FFFF. ASCII, most of any
// record, is passed over a word at a time.
bool valid_utf8(std::string_view text) {
  std::size_t k = 0;
  while (k < text.size()) {
    if (ascii_word_at(text, k)) {
      k += 8;
      continue;
    }
    const auto c = static_cast<unsigned char>(text[k]);
    std::size_t extra = 0;
    std::uint32_t lowest = 0, point = 0;
    if (c < 0x80) {
      ++k;
      continue;
    } else if ((c & 0xe0) == 0xc0) {
      extra = 1, lowest = 0x80, point = c & 0x1f;
    } else if ((c & 0xf0) == 0xe0) {
      extra = 2, lowest = 0x800, point = c & 0x0f;
    } else if ((c & 0xf8) == 0xf0) {
      extra = 3, lowest = 0x10000, point = c & 0x07;
    } else {
      return false;
    }
    if (k + extra >= text.size()) return false;
    for (std::size_t b = 1; b <= extra; ++b) {
      const auto cont = static_cast<unsigned char>(text[k + b]);
      if ((cont & 0xc0) != 0x80) return false;
      point = (point << 6) | (cont & 0x3f);
    }
    if (point < lowest || point > 0x10ffff || (point >= 0xd800 && point <= 0xdfff)) return false;
    k += extra + 1;
  }
  return true;
}

}  // namespace

void append_value(std::string& out, const Value& value) {
  switch (value.type()) {
    case Value::value_t::null:
      out += "null";
      return;
    case Value::value_t::boolean:
      out += value.get<bool>() ? "true" : "false";
      return;
    case Value::value_t::number_integer:
      append_integer(out, value.get<std::int64_t>());
      return;
    case Value::value_t::number_unsigned:
      append_integer(out, value.get<std::uint64_t>());
      return;
    case Value::value_t::string: {
      const auto& text = value.get_ref<const std::string&>();
      // Invalid UTF-8 is refused as Value::dump() refuses it (it throws).
      if (!valid_utf8(text)) break;
      append_string(out, text);
      return;
    }
    case Value::value_t::array: {
      out += '[';
      bool first = true;
      for (const auto& element : value) {
        if (!first) out += ',';
        first = false;
        append_value(out, element);
      }
      out += ']';
      return;
    }
    case Value::value_t::object: {
      out += '{';
      bool first = true;
      for (const auto& [k, element] : value.items()) {
        if (!first) out += ',';
        first = false;
        append_string(out, k);
        out += ':';
        append_value(out, element);
      }
      out += '}';
      return;
    }
    default:  // floating point (its shortest form is nlohmann's to give), binary, discarded
      break;
  }
  out += value.dump();
}

ObjectWriter& ObjectWriter::value(std::string_view k, const Value& value) {
  key(k);
  append_value(out_, value);
  return *this;
}

ObjectWriter& ObjectWriter::raw(std::string_view k, std::string_view json) {
  key(k);
  out_ += json;
  return *this;
}

namespace {

[[noreturn]] void malformed(const std::string& what, std::size_t at) {
  throw std::invalid_argument("malformed JSON: " + what + " at offset " + std::to_string(at));
}

// A member's value that is well-formed JSON of another type than the record's.
[[noreturn]] void wrong_type(const std::string& expected, std::string_view json) {
  throw std::invalid_argument("expected " + expected + ", got '" + std::string(json) + "'");
}

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Whether `t` is a JSON number: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
bool is_number(std::string_view t) {
  std::size_t k = 0;
  const auto digits = [&] {
    const std::size_t from = k;
    while (k < t.size() && is_digit(t[k])) ++k;
    return k > from;
  };
  if (k < t.size() && t[k] == '-') ++k;
  if (k < t.size() && t[k] == '0') {
    ++k;
  } else if (!digits()) {
    return false;
  }
  if (k < t.size() && t[k] == '.' && (++k, !digits())) return false;
  if (k < t.size() && (t[k] == 'e' || t[k] == 'E')) {
    ++k;
    if (k < t.size() && (t[k] == '+' || t[k] == '-')) ++k;
    if (!digits()) return false;
  }
  return k == t.size();
}

// A cursor over JSON text that finds where values end. Strings, numbers and
// literals are checked as it passes them; a nested object or array only for
// balanced brackets (the members read as a Value are parsed whole anyway).
class Scanner {
 public:
  explicit Scanner(std::string_view text) : text_(text) {}

  void skip_space() {
    while (pos_ < text_.size() && is_space(text_[pos_])) ++pos_;
  }
  bool at_end() const { return pos_ >= text_.size(); }
  std::size_t position() const { return pos_; }
  char peek() {
    skip_space();
    return at_end() ? '\0' : text_[pos_];
  }
  void expect(char c) {
    if (peek() != c) malformed(std::string("expected '") + c + "'", pos_);
    ++pos_;
  }

  // A string literal, its quotes included.
  std::string_view string() {
    if (peek() != '"') malformed("expected a string", pos_);
    const std::size_t from = pos_++;
    while (pos_ < text_.size()) {
      const auto c = static_cast<unsigned char>(text_[pos_++]);
      if (c == '"') return text_.substr(from, pos_ - from);
      if (c < 0x20) malformed("control character in a string", pos_ - 1);
      if (c == '\\') skip_escape();
    }
    malformed("unterminated string", from);
  }

  // Any one value.
  std::string_view value() {
    const char c = peek();
    if (c == '"') return string();
    if (c == '{' || c == '[') return nested();
    const std::size_t from = pos_;
    while (pos_ < text_.size() && !is_space(text_[pos_]) && text_[pos_] != ',' &&
           text_[pos_] != '}' && text_[pos_] != ']' && text_[pos_] != ':') {
      ++pos_;
    }
    const std::string_view token = text_.substr(from, pos_ - from);
    if (token != "true" && token != "false" && token != "null" && !is_number(token)) {
      malformed("expected a value", from);
    }
    return token;
  }

 private:
  void skip_escape() {
    if (pos_ >= text_.size()) malformed("unterminated string", pos_);
    const char e = text_[pos_++];
    if (e == 'u') {
      for (int k = 0; k < 4; ++k, ++pos_) {
        if (pos_ >= text_.size() || hex_digit(text_[pos_]) < 0) malformed("bad \\u escape", pos_);
      }
    } else if (std::string_view("\"\\/bfnrt").find(e) == std::string_view::npos) {
      malformed("bad escape", pos_ - 1);
    }
  }

  // An object or array, by its brackets: iterative, so no nesting depth can
  // exhaust the stack.
  std::string_view nested() {
    const std::size_t from = pos_;
    std::string open;  // the brackets still open, innermost last
    do {
      const char c = peek();
      if (c == '{' || c == '[') {
        open += c;
        ++pos_;
      } else if (c == '}' || c == ']') {
        if (open.back() != (c == '}' ? '{' : '[')) malformed("mismatched bracket", pos_);
        open.pop_back();
        ++pos_;
      } else if (c == ',' || c == ':') {
        ++pos_;
      } else if (c == '\0') {
        malformed("unterminated object or array", from);
      } else {
        value();
      }
    } while (!open.empty());
    return text_.substr(from, pos_ - from);
  }

  std::string_view text_;
  std::size_t pos_ = 0;
};

void append_utf8(std::string& out, std::uint32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xc0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3f));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xe0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3f));
    out += static_cast<char>(0x80 | (cp & 0x3f));
  } else {
    out += static_cast<char>(0xf0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3f));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3f));
    out += static_cast<char>(0x80 | (cp & 0x3f));
  }
}

// The four hex digits at `at` (checked by the scanner or here).
std::uint32_t hex4(std::string_view s, std::size_t at) {
  std::uint32_t v = 0;
  for (std::size_t k = at; k < at + 4; ++k) {
    const int d = k < s.size() ? hex_digit(s[k]) : -1;
    if (d < 0) malformed("bad \\u escape", k);
    v = v * 16 + static_cast<std::uint32_t>(d);
  }
  return v;
}

template <typename Int>
Int read_integer(std::string_view json) {
  Int value{};
  auto [end, ec] = std::from_chars(json.data(), json.data() + json.size(), value);
  if (ec != std::errc() || end != json.data() + json.size() || json.empty()) {
    wrong_type("an integer", json);
  }
  return value;
}

// Where the member named `key` is in `members` (members.size() if nowhere).
// Records list their members in the order written, so the search starts
// after the member found last.
std::size_t find_member(std::initializer_list<MemberReader> members, std::string_view key,
                        std::size_t from) {
  for (std::size_t tried = 0; tried < members.size(); ++tried) {
    const std::size_t k = (from + tried) % members.size();
    if (members.begin()[k].first == key) return k;
  }
  return members.size();
}

}  // namespace

void read_object(std::string_view text, std::initializer_list<MemberReader> members) {
  if (members.size() > 64) throw std::invalid_argument("read_object reads at most 64 members");
  Scanner in(text);
  std::uint64_t seen = 0;  // bit k: members[k] was read
  std::size_t next = 0;    // where the search for the next key starts
  in.expect('{');
  if (in.peek() == '}') {
    in.expect('}');
  } else {
    for (;;) {
      const std::string_view key_json = in.string();
      in.expect(':');
      const std::string_view value = in.value();
      // Record keys are plain names; one with escapes is unescaped first.
      std::string unescaped;
      std::string_view key = key_json.substr(1, key_json.size() - 2);
      if (key.find('\\') != std::string_view::npos) key = unescaped = read_string(key_json);
      const std::size_t k = find_member(members, key, next);
      if (k < members.size()) {
        members.begin()[k].second(value);
        seen |= std::uint64_t{1} << k;
        next = k + 1;
      }
      if (in.peek() == ',') {
        in.expect(',');
        continue;
      }
      in.expect('}');
      break;
    }
  }
  in.skip_space();
  if (!in.at_end()) malformed("text after the object", in.position());
  std::size_t k = 0;
  for (const auto& member : members) {
    if ((seen & (std::uint64_t{1} << k++)) == 0) {
      throw std::invalid_argument("missing member '" + std::string(member.first) + "'");
    }
  }
}

std::string read_string(std::string_view json) {
  if (json.size() < 2 || json.front() != '"' || json.back() != '"') {
    wrong_type("a string", json);
  }
  const std::string_view body = json.substr(1, json.size() - 2);
  if (body.find('\\') == std::string_view::npos) return std::string(body);
  std::string out;
  out.reserve(body.size());
  for (std::size_t k = 0; k < body.size(); ++k) {
    if (body[k] != '\\') {
      out += body[k];
      continue;
    }
    if (++k >= body.size()) malformed("bad escape", k);
    switch (body[k]) {
      case 'b':
        out += '\b';
        break;
      case 'f':
        out += '\f';
        break;
      case 'n':
        out += '\n';
        break;
      case 'r':
        out += '\r';
        break;
      case 't':
        out += '\t';
        break;
      case '"':
      case '\\':
      case '/':
        out += body[k];
        break;
      case 'u': {
        std::uint32_t cp = hex4(body, k + 1);
        k += 4;
        if (cp >= 0xdc00 && cp <= 0xdfff) malformed("lone low surrogate", k);
        if (cp >= 0xd800 && cp <= 0xdbff) {
          // A high surrogate is valid only as the first half of a pair.
          if (k + 6 >= body.size() || body[k + 1] != '\\' || body[k + 2] != 'u') {
            malformed("lone high surrogate", k);
          }
          const std::uint32_t low = hex4(body, k + 3);
          if (low < 0xdc00 || low > 0xdfff) malformed("lone high surrogate", k);
          cp = 0x10000 + ((cp - 0xd800) << 10) + (low - 0xdc00);
          k += 6;
        }
        append_utf8(out, cp);
        break;
      }
      default:
        malformed("bad escape", k);
    }
  }
  return out;
}

std::int64_t read_int64(std::string_view json) { return read_integer<std::int64_t>(json); }
std::uint64_t read_uint64(std::string_view json) { return read_integer<std::uint64_t>(json); }

bool read_bool(std::string_view json) {
  if (json == "true") return true;
  if (json == "false") return false;
  wrong_type("true or false", json);
}

bool is_null(std::string_view json) { return json == "null"; }

Value read_value(std::string_view json) {
  return is_null(json) ? Value(nullptr) : Value::parse(json);
}

ValueReader into(std::string& out) {
  return [&out](std::string_view v) { out = read_string(v); };
}
ValueReader into(std::int64_t& out) {
  return [&out](std::string_view v) { out = read_int64(v); };
}
ValueReader into(std::uint64_t& out) {
  return [&out](std::string_view v) { out = read_uint64(v); };
}
ValueReader into(int& out) {
  return [&out](std::string_view v) { out = static_cast<int>(read_int64(v)); };
}
ValueReader into(bool& out) {
  return [&out](std::string_view v) { out = read_bool(v); };
}
ValueReader into(Value& out) {
  return [&out](std::string_view v) { out = read_value(v); };
}

}  // namespace reactor::json_text
