// Writing JSON text straight into a string, for the records written on every
// step: building a Value first copies every field (the step's result
// included) and allocates per key. The text is what Value::dump() gives for
// the same object — compact, keys in the order written — so callers that
// want byte-for-byte the Value form write keys in sorted order (nlohmann's
// objects are sorted maps), as tests/unit/test_json_text.cpp checks.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "reactor/value.hpp"

namespace reactor::json_text {

// `text` as a JSON string literal, quotes included, escaped as Value::dump()
// escapes it. Bytes from 0x80 up pass through: the text is UTF-8 already.
void append_string(std::string& out, std::string_view text);

// One JSON object: {"k":v,...}, in the order the fields are added.
class ObjectWriter {
 public:
  explicit ObjectWriter(std::string& out) : out_(out) { out_ += '{'; }
  ObjectWriter(const ObjectWriter&) = delete;
  ObjectWriter& operator=(const ObjectWriter&) = delete;

  ObjectWriter& field(std::string_view key, std::string_view value);
  ObjectWriter& field(std::string_view key, const char* value) {
    return field(key, std::string_view(value));
  }
  ObjectWriter& field(std::string_view key, const std::string& value) {
    return field(key, std::string_view(value));
  }
  ObjectWriter& field(std::string_view key, std::int64_t value);
  ObjectWriter& field(std::string_view key, std::uint64_t value);
  ObjectWriter& field(std::string_view key, int value) {
    return field(key, static_cast<std::int64_t>(value));
  }
  ObjectWriter& field(std::string_view key, bool value);
  // A JSON value, dumped in place (no copy of it is made).
  ObjectWriter& value(std::string_view key, const Value& value);
  // JSON text the caller wrote already.
  ObjectWriter& raw(std::string_view key, std::string_view json);
  ObjectWriter& null(std::string_view key) { return raw(key, "null"); }
  // Closes the object; nothing may be added after.
  void close() { out_ += '}'; }

 private:
  void key(std::string_view k);

  std::string& out_;
  bool first_ = true;
};

}  // namespace reactor::json_text
