// Limits on what a run's records may hold. A value past them is refused
// with a clear error when it is written, and a stored record past them is
// corrupt: no worker ever exhausts its stack or its memory on one
// (docs/storage.md, "Limits").
#pragma once

#include <cstddef>
#include <cstdint>

namespace reactor {

// How deep a value (inputs, a step's result, a failure's details) may nest:
// [[…]] is 2 levels. Deep enough for any document a saga passes on; shallow
// enough that reading or writing one never exhausts a thread's stack.
inline constexpr int kMaxValueDepth = 512;

// The default of DurabilityOptions::max_value_bytes: the largest value (as
// JSON text) a caller may pass as a run's inputs or a step may return.
inline constexpr std::size_t kDefaultMaxValueBytes = std::size_t{8} << 20;  // 8 MiB

// Steps of one definition (Builder refuses more), and so of one stored run.
inline constexpr std::size_t kMaxRunSteps = 10000;

// Runs inside runs: a root is level 1, its composed child or map element
// level 2, … (Builder refuses a composition deeper than this).
inline constexpr int kMaxRunNesting = 64;

// Elements of one map step (a map over a longer list fails, not retried).
inline constexpr std::size_t kMaxMapElements = 100000;

// The latest (and, negated, the earliest) time a record may name that the
// engine waits on, in Unix milliseconds: the end of the year 9999.
inline constexpr std::int64_t kMaxTimeMs = 253402300799999;

// Events of one root's trace as stored.
inline constexpr std::size_t kMaxTraceEvents = 1000000;

}  // namespace reactor
