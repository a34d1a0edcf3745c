// Reading records with simdjson's On-Demand parser (Debian's libsimdjson-dev):
// a record's members are found where they stand in the text, and only a
// member that is a JSON value of its own (a step's result, inputs) becomes a
// Value. bench/records.cpp measures it against the alternatives on the real
// record mix. Include this only from the codec's .cpp files: simdjson.h is a
// large header.
#pragma once

#include <simdjson.h>

#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "reactor/error.hpp"
#include "reactor/limits.hpp"
#include "reactor/value.hpp"
#include "records/names.hpp"
#include "records/record_error.hpp"
#include "records/traits.hpp"

namespace reactor::records {

// A JSON value as a Value. Throws RecordError for one nested deeper than
// kMaxValueDepth (reactor/limits.hpp).
Value to_value(simdjson::ondemand::value v);

// The visitor that reads a record's fields (records/fields.hpp) out of one
// parsed JSON object. Members are looked up in the order the field list names
// them, which is the order they are written in, so each lookup is the next
// member; a record written in another order reads as well.
class FieldReader {
 public:
  explicit FieldReader(simdjson::ondemand::object& object) : object_(object) {}

  // A member every version of the record has.
  template <typename T>
  void operator()(std::string_view key, T& out) {
    read(member(key), key, out);
  }
  // A member added in a later version: absent, `out` keeps its default. Any
  // other error (a record cut short, bad JSON on the way) is the record's: the
  // parser cannot be asked again after it.
  template <typename T>
  void optional(std::string_view key, T& out) {
    simdjson::ondemand::value v;
    const simdjson::error_code e = object_.find_field_unordered(key).get(v);
    if (e == simdjson::SUCCESS) {
      read(v, key, out);
    } else if (e != simdjson::NO_SUCH_FIELD) {
      wrong(key, e);
    }
  }
  // A member whose value is JSON text kept as text: an object, copied as it
  // stands, or a string (how earlier layouts escaped it), unescaped.
  void raw_json(std::string_view key, std::string& out);

 private:
  simdjson::ondemand::value member(std::string_view key);
  [[noreturn]] static void wrong(std::string_view key, simdjson::error_code e);
  // Throws RecordError unless `text` is one JSON object and nothing else.
  static void check_object(std::string_view key, std::string_view text);

  template <typename T>
  static void read(simdjson::ondemand::value v, std::string_view key, T& out);

  simdjson::ondemand::object& object_;
};

// Parses `text` as one JSON object and hands it to read(FieldReader&).
// Throws RecordError naming `what` when it is not one.
template <typename Read>
void read_record(std::string_view text, const char* what, Read&& read);

// `text` (any JSON value) as a Value. Throws RecordError.
Value parse_value(std::string_view text);

// ---------------------------------------------------------------------------------------------
// Implementation

namespace detail {

// A parser and a padded copy of the text per thread (simdjson reads up to 64
// bytes past the end). A record read inside another one's reader gets its own.
class ParseBuffer {
 public:
  ParseBuffer();
  ~ParseBuffer();
  ParseBuffer(const ParseBuffer&) = delete;
  ParseBuffer& operator=(const ParseBuffer&) = delete;
  simdjson::ondemand::document& parse(std::string_view text, const char* what);

  struct Slot;

 private:
  Slot* slot_;
  bool owned_;
};

}  // namespace detail

template <typename T>
void FieldReader::read(simdjson::ondemand::value v, std::string_view key, T& out) {
  using simdjson::ondemand::json_type;
  if constexpr (is_optional_v<T>) {
    bool null = false;
    if (auto e = v.is_null().get(null); e) wrong(key, e);
    if (null) {
      out.reset();
    } else {
      typename T::value_type inner{};
      read(v, key, inner);
      out = std::move(inner);
    }
  } else if constexpr (std::is_same_v<T, std::string>) {
    std::string_view s;
    if (auto e = v.get_string().get(s); e) wrong(key, e);
    out.assign(s);
  } else if constexpr (std::is_same_v<T, bool>) {
    if (auto e = v.get_bool().get(out); e) wrong(key, e);
  } else if constexpr (std::is_integral_v<T> && std::is_signed_v<T>) {
    std::int64_t n = 0;
    if (auto e = v.get_int64().get(n); e) wrong(key, e);
    if (n < std::numeric_limits<T>::min() || n > std::numeric_limits<T>::max()) {
      wrong(key, simdjson::NUMBER_OUT_OF_RANGE);
    }
    out = static_cast<T>(n);
  } else if constexpr (std::is_integral_v<T>) {
    std::uint64_t n = 0;
    if (auto e = v.get_uint64().get(n); e) wrong(key, e);
    if (n > std::numeric_limits<T>::max()) wrong(key, simdjson::NUMBER_OUT_OF_RANGE);
    out = static_cast<T>(n);
  } else if constexpr (std::is_same_v<T, Value>) {
    out = to_value(v);
  } else if constexpr (std::is_enum_v<T>) {
    std::string name;
    read(v, key, name);
    try {
      from_name(name, out);
    } catch (const std::invalid_argument& e) {
      throw RecordError("member '" + std::string(key) + "': " + e.what());
    }
  } else if constexpr (std::is_same_v<T, RunError> || std::is_same_v<T, std::vector<std::string>>) {
    try {
      out = to_value(v).get<T>();
    } catch (const std::exception& e) {
      throw RecordError("member '" + std::string(key) + "': " + e.what());
    }
  } else {
    // A record of its own, nested: its field list (records/fields.hpp).
    simdjson::ondemand::object object;
    if (auto e = v.get_object().get(object); e) wrong(key, e);
    FieldReader nested(object);
    fields(out, nested);
  }
}

template <typename Read>
void read_record(std::string_view text, const char* what, Read&& read) {
  detail::ParseBuffer buffer;
  simdjson::ondemand::document& doc = buffer.parse(text, what);
  simdjson::ondemand::object object;
  if (auto e = doc.get_object().get(object); e) {
    throw RecordError(std::string(what) + " is not a JSON object: " + simdjson::error_message(e));
  }
  FieldReader reader(object);
  try {
    read(reader);
  } catch (const RecordError& e) {
    throw RecordError(std::string(what) + ": " + e.what());
  }
}

}  // namespace reactor::records
