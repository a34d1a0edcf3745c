// Run: the whole state of one execution of a reactor. The executor keeps
// nothing on its own call stack: stop a run after any step, serialise it,
// and resume it in a fresh executor (in another process) from this alone.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "reactor/error.hpp"
#include "reactor/run_status.hpp"
#include "reactor/trace.hpp"
#include "reactor/value.hpp"

namespace reactor {

struct Run;

// The durable record of one step of a run.
struct StepRecord {
  std::string name;
  StepStatus status = StepStatus::kPending;
  // Success/Skipped value, or Halt reason.
  Value result;
  // Attempts of the body started so far; persists across resumes.
  int attempts = 0;
  // Order of completion within the run (1-based); 0 until completed. The undo
  // stack is the completed steps by descending completion_seq.
  std::uint64_t completion_seq = 0;
  std::int64_t started_at_ms = 0;
  std::int64_t finished_at_ms = 0;
  // When kRetryScheduled: when the next attempt is due.
  std::int64_t retry_at_ms = 0;
  // Last failure, kept for compensation after a resume.
  std::string error;
  // Whether the body started in the attempt that failed last: only then is
  // the step compensated.
  bool body_started = false;
  // Composed child (one run) or map elements (one run per started element,
  // in index order).
  std::vector<Run> children;
};

struct Run {
  static constexpr int kSchemaVersion = 1;

  std::string id;
  std::string reactor;
  std::string root_id;    // == id for a top-level run
  std::string parent_id;  // empty for a top-level run
  std::string path;       // step path of this run inside its root ("" for the root)
  std::string fingerprint;
  RunStatus status = RunStatus::kPending;
  Value inputs;
  std::vector<StepRecord> steps;  // one per step, in definition order
  std::uint64_t next_completion_seq = 1;
  // The root's trace holds the events of the whole tree, in order.
  std::vector<TraceEvent> trace;
  // The run's value once completed (or the Halt reason once halted).
  Value value;
  std::optional<RunError> error;
  // Index of the step whose failure started the rollback.
  std::optional<std::size_t> failed_step;
  std::int64_t created_at_ms = 0;
  std::int64_t updated_at_ms = 0;
};

// Versioned JSON form of a run. from_json throws std::invalid_argument for a
// record of an unknown schema version or shape.
Value run_to_json(const Run& run);
Run run_from_json(const Value& j);

}  // namespace reactor
