// Whether a decoded run fits the definition it names, checked before the
// executor indexes anything by it: a record can decode cleanly and still not
// be a run of its graph (step_names shorter than the graph under the right
// fingerprint, a failed_step past the last step, a child on a plain step).
#pragma once

#include <cstddef>
#include <optional>
#include <string>

#include "reactor/definition.hpp"
#include "reactor/run.hpp"

namespace reactor::records {

// Empty when `run` (and every child run in it) has the definition's steps by
// name and count, a failed_step among them, children only on composed steps
// (one) and maps, each a run of the child definition and neither enqueued nor
// waiting (only a root is), attempt counts and times in range, and inputs,
// step results and failure details within kMaxValueDepth and
// `max_value_bytes`. Otherwise what does not fit, naming the run.
std::optional<std::string> run_shape_error(const Run& run, const DefinitionData& def,
                                           std::size_t max_value_bytes);

// The times of one run (not its children) that the engine waits on — a
// retry's due time, a suspension's end — past ±kMaxTimeMs (the year 9999):
// turned into a Duration (nanoseconds) they would overflow. decode_run checks
// this of every run, before a delivery looks at its suspension.
std::optional<std::string> run_times_error(const Run& run);

}  // namespace reactor::records
