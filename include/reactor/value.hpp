// Values that flow between steps, and the time types used throughout Reactor.
#pragma once

#include <chrono>
#include <cstdint>

#include <nlohmann/json.hpp>

namespace reactor {

// Every input, step result and error detail is a JSON value: it serialises to
// storage unchanged, so a run can stop in one process and resume in another.
// Typed access goes through nlohmann's to_json/from_json.
using Value = nlohmann::json;

using Duration = std::chrono::nanoseconds;
using TimePoint = std::chrono::time_point<std::chrono::system_clock, Duration>;

// Milliseconds since the Unix epoch: how times are written in run records.
inline std::int64_t to_unix_ms(TimePoint t) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(t.time_since_epoch()).count();
}
inline TimePoint from_unix_ms(std::int64_t ms) {
  return TimePoint(std::chrono::milliseconds(ms));
}

}  // namespace reactor
