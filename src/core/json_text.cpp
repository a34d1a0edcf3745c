#include "core/json_text.hpp"

#include <charconv>

namespace reactor::json_text {

void append_string(std::string& out, std::string_view text) {
  static constexpr char kHex[] = "0123456789abcdef";
  out += '"';
  std::size_t plain = 0;  // start of the bytes not yet copied
  for (std::size_t k = 0; k < text.size(); ++k) {
    const auto c = static_cast<unsigned char>(text[k]);
    if (c >= 0x20 && c != '"' && c != '\\') continue;
    out.append(text.data() + plain, k - plain);
    plain = k + 1;
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
  out.append(text.data() + plain, text.size() - plain);
  out += '"';
}

namespace {

template <typename Int>
void append_integer(std::string& out, Int value) {
  char digits[24];
  auto [end, ec] = std::to_chars(digits, digits + sizeof digits, value);
  out.append(digits, end);
}

}  // namespace

void ObjectWriter::key(std::string_view k) {
  if (!first_) out_ += ',';
  first_ = false;
  append_string(out_, k);
  out_ += ':';
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

ObjectWriter& ObjectWriter::value(std::string_view k, const Value& value) {
  key(k);
  out_ += value.dump();
  return *this;
}

ObjectWriter& ObjectWriter::raw(std::string_view k, std::string_view json) {
  key(k);
  out_ += json;
  return *this;
}

}  // namespace reactor::json_text
