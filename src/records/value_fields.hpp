// ValueWriter and ValueReader: the visitors that turn a record's field list
// (records/fields.hpp) into a Value object and back, for the JSON forms users
// hold (run snapshots, run results) rather than what the stores keep.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "reactor/error.hpp"
#include "reactor/value.hpp"
#include "records/codec.hpp"
#include "records/names.hpp"
#include "records/traits.hpp"

namespace reactor::records {

class ValueWriter {
 public:
  explicit ValueWriter(Value& out) : out_(out) {
    if (!out_.is_object()) out_ = Value::object();
  }

  template <typename T>
  void operator()(std::string_view key, const T& value) {
    out_[std::string(key)] = to(value);
  }
  // A member added in a later version is left out while it holds its default,
  // so the JSON users keep reads as the versions before it wrote it.
  template <typename T>
  void optional(std::string_view key, const T& value) {
    if (!(value == T{})) (*this)(key, value);
  }
  void raw_json(std::string_view key, const std::string& json) {
    out_[std::string(key)] = decode_value(json);  // stored text: the bounded reader
  }

  template <typename T>
  static Value to(const T& value) {
    if constexpr (std::is_enum_v<T>) {
      return to_string(value);
    } else if constexpr (is_optional_v<T>) {
      return value ? to(*value) : Value(nullptr);
    } else if constexpr (std::is_same_v<T, Value> || std::is_same_v<T, std::string> ||
                         std::is_arithmetic_v<T> || std::is_same_v<T, RunError> ||
                         std::is_same_v<T, std::vector<std::string>>) {
      return Value(value);
    } else {
      Value nested = Value::object();
      ValueWriter writer(nested);
      fields(value, writer);
      return nested;
    }
  }

 private:
  Value& out_;
};

// Throws std::invalid_argument naming the member for a missing member or a
// value of the wrong type.
class ValueReader {
 public:
  explicit ValueReader(const Value& in) : in_(in) {
    if (!in_.is_object()) throw std::invalid_argument("record is not an object");
  }

  template <typename T>
  void operator()(std::string_view key, T& out) {
    auto it = in_.find(key);
    if (it == in_.end()) throw std::invalid_argument("no member '" + std::string(key) + "'");
    from(*it, key, out);
  }
  template <typename T>
  void optional(std::string_view key, T& out) {
    auto it = in_.find(key);
    if (it != in_.end()) from(*it, key, out);
  }
  void raw_json(std::string_view key, std::string& out) {
    auto it = in_.find(key);
    if (it == in_.end()) throw std::invalid_argument("no member '" + std::string(key) + "'");
    out = it->is_string() ? it->get<std::string>() : it->dump();
  }

  template <typename T>
  static void from(const Value& j, std::string_view key, T& out) {
    try {
      if constexpr (std::is_enum_v<T>) {
        from_name(j.get<std::string>(), out);
      } else if constexpr (is_optional_v<T>) {
        if (j.is_null()) {
          out.reset();
        } else {
          typename T::value_type inner{};
          from(j, key, inner);
          out = std::move(inner);
        }
      } else if constexpr (std::is_same_v<T, Value>) {
        out = j;
      } else if constexpr (std::is_same_v<T, std::string> || std::is_arithmetic_v<T> ||
                           std::is_same_v<T, RunError> ||
                           std::is_same_v<T, std::vector<std::string>>) {
        // Numbers must be numbers of the member's kind: 1.5 is no attempt count.
        if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
          if (!j.is_number_integer()) throw std::invalid_argument("not an integer");
          if (std::is_unsigned_v<T> && !j.is_number_unsigned()) {
            throw std::invalid_argument("not a non-negative integer");
          }
          // In the member's range, not converted modulo its size.
          bool fits = true;
          if (j.is_number_unsigned()) {
            fits = j.template get<std::uint64_t>() <=
                   static_cast<std::uint64_t>(std::numeric_limits<T>::max());
          } else if constexpr (std::is_signed_v<T>) {  // an unsigned T took only unsigned j
            const auto v = j.template get<std::int64_t>();
            fits = v >= std::int64_t{std::numeric_limits<T>::min()} &&
                   v <= std::int64_t{std::numeric_limits<T>::max()};
          }
          if (!fits) throw std::invalid_argument("out of range");
        }
        j.get_to(out);
      } else {
        ValueReader nested(j);
        fields(out, nested);
      }
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument("member '" + std::string(key) + "': " + e.what());
    } catch (const Value::exception& e) {
      throw std::invalid_argument("member '" + std::string(key) + "': " + e.what());
    }
  }

 private:
  const Value& in_;
};

}  // namespace reactor::records
