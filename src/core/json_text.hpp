// Writing JSON text straight into a string, for the records written on every
// step: building a Value first copies every field (the step's result
// included) and allocates per key. The text is what Value::dump() gives for
// the same object — compact, keys in the order written — so callers that
// want byte-for-byte the Value form write keys in sorted order (nlohmann's
// objects are sorted maps), as tests/unit/test_json_text.cpp checks.
#pragma once

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>

#include "reactor/value.hpp"

namespace reactor::json_text {

// `text` as a JSON string literal, quotes included, escaped as Value::dump()
// escapes it. Bytes from 0x80 up pass through: the text is UTF-8 already.
void append_string(std::string& out, std::string_view text);

// `value` as JSON text, byte for byte what value.dump() gives (numbers with a
// fraction are nlohmann's to write; they go through dump()). Throws as dump()
// does for a string that is not UTF-8.
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

// Reading such records back, member by member, without building a Value of
// the whole record (nlohmann's objects allocate per key, and a fetched run is
// a dozen records): each member's value is taken from the text as it stands,
// and only one that is JSON itself (a step's result) is parsed, into a Value
// of its own, when it is not null.
//
// Malformed text throws std::invalid_argument (Value::parse throws its
// parse_error for the members parsed whole); callers report both as
// Corruption. Members the caller does not name are checked for balanced
// brackets and well-formed strings, numbers and literals, not parsed.

// What to do with a member's value (JSON text).
using ValueReader = std::function<void(std::string_view)>;
// One member the caller reads: its key, and its reader.
using MemberReader = std::pair<std::string_view, ValueReader>;

// Calls each reader with the value of its member, in the text's order. Throws
// when `text` is not exactly one JSON object, or when a named member is missing.
void read_object(std::string_view text, std::initializer_list<MemberReader> members);

// A member's value as the type the record gives it; each throws on any other.
std::string read_string(std::string_view json);
std::int64_t read_int64(std::string_view json);
std::uint64_t read_uint64(std::string_view json);
bool read_bool(std::string_view json);
bool is_null(std::string_view json);
// The value parsed whole: null without parsing.
Value read_value(std::string_view json);

// Readers that store a member's value in `out`, read as above; `out` must
// outlive the read_object call.
ValueReader into(std::string& out);
ValueReader into(std::int64_t& out);
ValueReader into(std::uint64_t& out);
ValueReader into(int& out);
ValueReader into(bool& out);
ValueReader into(Value& out);
// A member whose string names an enumerator, mapped by `parse` (which throws
// on a name it does not know), e.g. into(status, run_status_from_string).
template <typename Enum>
ValueReader into(Enum& out, Enum (*parse)(const std::string&)) {
  return [&out, parse](std::string_view v) { out = parse(read_string(v)); };
}

}  // namespace reactor::json_text
