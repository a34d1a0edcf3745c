// FieldWriter: the visitor that writes a record's field list
// (records/fields.hpp) as one JSON object, straight into a string.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "reactor/error.hpp"
#include "reactor/value.hpp"
#include "records/json_writer.hpp"
#include "records/traits.hpp"

namespace reactor::records {

class FieldWriter {
 public:
  explicit FieldWriter(std::string& out) : object_(out) {}

  template <typename T>
  void operator()(std::string_view key, const T& value) {
    if constexpr (std::is_same_v<T, std::string>) {
      object_.field(key, std::string_view(value));
    } else if constexpr (std::is_same_v<T, bool>) {
      object_.field(key, value);
    } else if constexpr (std::is_integral_v<T> && std::is_signed_v<T>) {
      object_.field(key, static_cast<std::int64_t>(value));
    } else if constexpr (std::is_integral_v<T>) {
      object_.field(key, static_cast<std::uint64_t>(value));
    } else if constexpr (std::is_same_v<T, Value>) {
      object_.value(key, value);
    } else if constexpr (std::is_enum_v<T>) {
      object_.field(key, to_string(value));
    } else if constexpr (std::is_same_v<T, RunError> ||
                         std::is_same_v<T, std::vector<std::string>>) {
      object_.value(key, Value(value));
    } else if constexpr (is_optional_v<T>) {
      if (value) {
        (*this)(key, *value);
      } else {
        object_.null(key);
      }
    } else {
      std::string nested;
      FieldWriter writer(nested);
      fields(value, writer);
      writer.close();
      object_.raw(key, nested);
    }
  }
  // A member added in a later version is left out while it holds its default: rows
  // stay as small as the versions before it wrote them, and read back the same.
  template <typename T>
  void optional(std::string_view key, const T& value) {
    if (!(value == T{})) (*this)(key, value);
  }
  void raw_json(std::string_view key, const std::string& json) { object_.raw(key, json); }

  void close() { object_.close(); }

 private:
  ObjectWriter object_;
};

// `record` written through its field list, as one JSON object.
template <typename Record, typename Fields>
std::string write_record(const Record& record, Fields&& list) {
  std::string out;
  out.reserve(256);
  FieldWriter writer(out);
  list(record, writer);
  writer.close();
  return out;
}

}  // namespace reactor::records
