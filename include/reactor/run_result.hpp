// RunResult: what a finished (or stopped) run looks like to its caller.
#pragma once

#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "reactor/error.hpp"
#include "reactor/run_status.hpp"
#include "reactor/trace.hpp"
#include "reactor/value.hpp"

namespace reactor {

struct Run;

// One step's record as seen from outside, composed children and map elements
// included under their paths ("payment/charge", "items[2]/charge").
struct StepOutcome {
  std::string step;
  StepStatus status = StepStatus::kPending;
  Value result;
  int attempts = 0;
  // Executions of the step lost with their worker (each in the trace): a
  // step with any was executed again.
  int interrupted = 0;

  friend bool operator==(const StepOutcome&, const StepOutcome&) = default;
};

struct RunResult {
  static constexpr int kSchemaVersion = 1;

  std::string run_id;
  std::string reactor;
  RunStatus status = RunStatus::kPending;
  // Completed: the `returns` step's value, or an object of every step's
  // result. Halted: the Halt reason.
  Value value;
  std::optional<RunError> error;
  std::vector<TraceEvent> trace;
  std::vector<StepOutcome> steps;
  // Engine::retry: the run this one retries (empty: none); the retries of this one, oldest first.
  std::string retried_from;
  std::vector<std::string> retries;

  bool ok() const { return status == RunStatus::kCompleted; }
  // nullptr when the step has no record.
  const StepOutcome* step(const std::string& path) const;
  std::string trace_summary() const { return summarize(trace); }

  friend bool operator==(const RunResult&, const RunResult&) = default;
};

RunResult make_run_result(const Run& run);
// The same, taking the run's values instead of copying them.
RunResult make_run_result(Run&& run);

// {"schema_version": 1, "run_id": …, "status": …, "value": …, "error": …,
//  "trace": […], "steps": […]}. from_json throws std::invalid_argument on an
// unknown schema version.
Value to_json(const RunResult& r);
RunResult run_result_from_json(const Value& j);

// How GoogleTest prints a RunResult in failure messages (found by ADL): one line, "RunResult{
// <reactor> run <id>, status <s>, error <kind> at '<step>': <message> | value <json>, trace
// "<summary>"}", instead of a byte dump. Declared beside the type, so that every translation unit
// that prints one sees it.
void PrintTo(const RunResult& r, std::ostream* os);

}  // namespace reactor
