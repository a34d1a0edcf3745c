#include "records/json_writer.hpp"

#include <charconv>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <vector>

namespace reactor::records {

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
  const std::size_t began = out.size();
  out += '"';
  std::size_t plain_from = 0;  // start of the bytes not yet copied
  std::uint64_t high = 0;      // the top bits of every byte seen: non-zero when any is not ASCII
  const auto look_at = [&](std::size_t k) {
    const auto c = static_cast<unsigned char>(text[k]);
    high |= c & 0x80;
    if (plain(c)) return;
    out.append(text.data() + plain_from, k - plain_from);
    plain_from = k + 1;
    append_escape(out, c);
  };
  std::size_t k = 0;
  for (; k + 8 <= text.size(); k += 8) {
    const std::uint64_t word = word_at(text, k);
    high |= word & kHighBits;
    if (!needs_escape(word)) continue;
    for (std::size_t b = k; b < k + 8; ++b) look_at(b);
  }
  for (; k < text.size(); ++k) look_at(k);
  out.append(text.data() + plain_from, text.size() - plain_from);
  out += '"';
  if (high == 0 || valid_utf8(text)) return;
  // Not UTF-8 (a message quoting a record's bytes, a name from a store's column): each bad
  // sequence becomes U+FFFD, as dump() with error_handler_t::replace writes it, so the record
  // written stays readable and writing it never throws.
  out.resize(began);
  out += Value(std::string(text)).dump(-1, ' ', false, Value::error_handler_t::replace);
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

}  // namespace

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

namespace {

// A scalar as dump() writes it; false for an array or an object.
bool append_scalar(std::string& out, const Value& value) {
  switch (value.type()) {
    case Value::value_t::null:
      out += "null";
      return true;
    case Value::value_t::boolean:
      out += value.get<bool>() ? "true" : "false";
      return true;
    case Value::value_t::number_integer:
      append_integer(out, value.get<std::int64_t>());
      return true;
    case Value::value_t::number_unsigned:
      append_integer(out, value.get<std::uint64_t>());
      return true;
    case Value::value_t::string:
      append_string(out, value.get_ref<const std::string&>());
      return true;
    case Value::value_t::array:
    case Value::value_t::object:
      return false;
    default:  // floating point (its shortest form is nlohmann's to give), binary, discarded
      out += value.dump(-1, ' ', false, Value::error_handler_t::replace);
      return true;
  }
}

}  // namespace

void append_value(std::string& out, const Value& value) {
  if (append_scalar(out, value)) return;
  // Arrays and objects with a stack of our own, not the thread's: however deep a value nests,
  // writing it cannot overflow the stack (the limits are checked where values come in).
  struct Open {
    const Value* container;
    Value::const_iterator next;
  };
  // One per thread, kept between calls: a step's result costs no allocation for the stack.
  thread_local std::vector<Open> open;
  open.clear();
  const auto enter = [&](const Value& container) {
    out += container.is_array() ? '[' : '{';
    open.push_back(Open{&container, container.cbegin()});
  };
  enter(value);
  while (!open.empty()) {
    Open& top = open.back();
    if (top.next == top.container->cend()) {
      out += top.container->is_array() ? ']' : '}';
      open.pop_back();
      continue;
    }
    if (top.next != top.container->cbegin()) out += ',';
    if (top.container->is_object()) {
      append_string(out, top.next.key());
      out += ':';
    }
    const Value& element = *top.next;
    ++top.next;
    if (!append_scalar(out, element)) enter(element);  // may move `top`: not used after
  }
  if (open.capacity() > 4096) std::vector<Open>().swap(open);  // a deep one keeps no memory
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

}  // namespace reactor::records
