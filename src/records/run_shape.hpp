// Whether a decoded run fits the definition it names, checked before the
// executor indexes anything by it: a record can decode cleanly and still not
// be a run of its graph (fewer steps than the graph under the right
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

// Names the steps of `run` (and of its child runs) that the record left
// unnamed — from header version 4 on, a step still as it was created has no
// row, and the header counts steps without naming them — after `def`, the
// definition the run was started on (same fingerprint). A step named by its
// row keeps that name (run_shape_error compares it); a run with more steps
// than `def` keeps the extra ones unnamed.
void name_steps(Run& run, const DefinitionData& def);

// The times of one run (not its children) that the engine waits on — a
// retry's due time, a suspension's end — past ±kMaxTimeMs (the year 9999):
// turned into a Duration (nanoseconds) they would overflow. decode_run checks
// this of every run, before a delivery looks at its suspension.
std::optional<std::string> run_times_error(const Run& run);

}  // namespace reactor::records
