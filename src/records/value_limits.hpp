// The write-time limits on values (reactor/limits.hpp): how deep a value
// nests and how long its JSON text is, measured without recursion, so a
// value of any depth can be checked (and refused) before anything copies or
// writes it recursively.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "reactor/limits.hpp"
#include "reactor/value.hpp"

namespace reactor::records {

struct ValueSize {
  int depth = 0;           // a scalar is 1, [] and [1] are 1 and 2
  std::size_t bytes = 0;   // of its JSON text, as records/json_writer.hpp writes it
  bool too_deep = false;   // deeper than the depth limit (`depth` is then where it stopped)
  bool too_large = false;  // over the byte limit (`bytes` is then where it stopped)
  bool within_limits() const { return !too_deep && !too_large; }
};

// Walks `value` without recursion (its first eight levels with no heap allocation); stops as
// soon as it is deeper than `max_depth` or longer than `max_bytes`, so measuring costs at most
// what the limits allow.
ValueSize measure_value(const Value& value, std::size_t max_bytes, int max_depth = kMaxValueDepth);

// Why a value measured as `size` cannot be stored; `size` is not within its limits.
std::string limit_error(const ValueSize& size, std::size_t max_bytes, std::string_view what);

// Why `value` cannot be stored ("<what>: nested deeper than 512 levels",
// "<what>: over 8388608 bytes as JSON (max_value_bytes)"), or nothing.
std::optional<std::string> value_limit_error(const Value& value, std::size_t max_bytes,
                                             std::string_view what);

}  // namespace reactor::records
