// Writing JSON text straight into a string, for the records written on every
// step. Hand-written on purpose: building a Value first (nlohmann) copies every
// field, the step's result included, and allocates per key, which doubled a
// step row's cost; no Debian package writes into a caller's buffer this way.
// The text is compact, keys in the order written.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "reactor/value.hpp"

namespace reactor::records {

// Whether `text` is well-formed UTF-8 (what Value::dump() and simdjson accept).
bool valid_utf8(std::string_view text);

// `text` as a JSON string literal, quotes included, escaped as Value::dump()
// escapes it. Well-formed UTF-8 passes through; text that is not UTF-8 is
// written as dump() with error_handler_t::replace writes it (each bad
// sequence becomes U+FFFD). Never throws (but bad_alloc).
void append_string(std::string& out, std::string_view text);

// `value` as JSON text, what value.dump() gives (numbers with a fraction are
// nlohmann's to write; they go through dump()); strings as append_string
// writes them. Never throws (but bad_alloc), and never recurses: a value of
// any depth is written with a heap stack.
void append_value(std::string& out, const Value& value);

// One JSON object: {"k":v,...}, in the order the fields are added. Keys are
// written as given: they must be plain member names (no quote, backslash or
// control character), as every record's are.
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

}  // namespace reactor::records
