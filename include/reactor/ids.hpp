// Ids: how runs, executions and owners are named.
#pragma once

#include <cstddef>
#include <string>

namespace reactor {

// A fresh time-ordered (version 7, RFC 9562) UUID: "019af3c2-…": the wall
// clock's Unix milliseconds (48 bits) and the millisecond's fraction (12 bits),
// then 62 random bits. Ids made later sort later (to the clock's resolution),
// so a store keyed by them writes near the end of its index rather than at a
// random place; nothing reads the time back. Thread-safe; each thread draws
// from its own generator, seeded once from std::random_device.
std::string new_run_id();

// The longest run id a caller may choose.
inline constexpr std::size_t kMaxRunIdLength = 128;

// Why `id` cannot name a run a caller starts (RunOptions::run_id,
// BackgroundOptions::run_id, `reactor start --id`), or empty when it can: it
// must be 1 to kMaxRunIdLength printable ASCII characters, none of them a
// space or one of : [ ] { } " \ — those build the ids of a run's fan-out
// elements ("<run id>:<map path>[i]") and its store keys.
std::string run_id_error(const std::string& id);

}  // namespace reactor
