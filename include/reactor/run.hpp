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

// Why a `waiting` run is suspended, and what ends it. A suspended run holds
// no lease and no thread; the commit that suspends it releases its lease and
// enqueues the job that will wake it when that time is known (kUntil, or a
// deadline), and the commit that delivers its event, finishes its last child
// or frees its permit enqueues its job otherwise. Retries suspend until they
// are due; the other kinds are for the capabilities that need them (map
// fan-out, async units, signals, locks).
enum class SuspensionKind {
  kUntil,     // a time: `until_ms`
  kEvent,     // an event named `on`
  kChildren,  // `children` child runs finishing
  kPermit,    // a permit of the lock or semaphore named `on`
};

const char* to_string(SuspensionKind k);
// Throws std::invalid_argument for an unknown name.
SuspensionKind suspension_kind_from_string(const std::string& s);

struct Suspension {
  SuspensionKind kind = SuspensionKind::kUntil;
  // kUntil: when it ends. The other kinds: their deadline (0: none), after
  // which the run is woken to give up waiting.
  std::int64_t until_ms = 0;
  std::string on;              // kEvent: the event; kPermit: the lock
  std::uint32_t children = 0;  // kChildren: how many must finish

  // When a job must exist to wake the run; 0 when only what it waits for can.
  std::int64_t wake_at_ms() const { return until_ms; }

  friend bool operator==(const Suspension&, const Suspension&) = default;
};

// The map slot an element run of a fan-out map fills (docs/maps.md). Such a
// run is a root of its own (its id "<map id>[index]" is its root_id: its own
// lease, records and trace), under the run tree of `origin`, the root whose
// id begins its map id.
struct ElementOf {
  std::string map_id;  // "<origin>:<path of the map step>"
  std::uint32_t index = 0;

  std::string origin() const { return map_id.substr(0, map_id.find(':')); }
  friend bool operator==(const ElementOf&, const ElementOf&) = default;
};

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
  // While kRunning: the fencing token and the worker its attempt started
  // under, stored with the commit that launched it. A worker that finds the
  // step so under another token records that execution as interrupted.
  std::uint64_t token = 0;
  std::string worker;
  // Executions of the step lost with their worker; past
  // DurabilityOptions::max_interrupted_executions the run fails.
  int interrupted = 0;
  // An interrupt (Builder::interrupt) while kPaused: the correlation id it computed (empty
  // without one) and its deadline (0: none). Its invalid payloads so far count in `attempts`.
  std::string correlation_id;
  std::int64_t deadline_ms = 0;
  // While kHalted: its Halt allows a resume (ResumableHalt).
  bool resumable = false;
  // Composed child (one run) or an inline map's elements (one run per started
  // element, in index order). A fan-out map's elements are runs of their own.
  std::vector<Run> children;
};

struct Run {
  // Of run_to_json. 2: a `waiting` run holds its suspension. 1 (read too).
  static constexpr int kSchemaVersion = 2;

  std::string id;
  std::string reactor;
  std::string root_id;    // == id for a top-level run
  std::string parent_id;  // empty for a top-level run
  std::string path;       // step path of this run inside its root ("" for the root)
  // Set on an element run of a fan-out map: a root of its own, whose steps are
  // named (idempotency keys, trace) under its origin's root id and its path.
  std::optional<ElementOf> element_of;
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
  // Set while the run is `waiting` (a root only).
  std::optional<Suspension> suspension;
  // The execution that wrote the root's header last — the fetch that handed
  // it to a worker, or a commit: its lease's fencing token and its worker.
  std::uint64_t exec_token = 0;
  std::string exec_worker{};
  std::int64_t created_at_ms = 0;
  std::int64_t updated_at_ms = 0;
  // Engine::retry: the run this one retries (empty: none), and the runs started as retries of
  // this one, oldest first.
  std::string retried_from;
  std::vector<std::string> retries;
  // W3C traceparent (reactor/trace_context.hpp) the run's span is a child of: the caller's
  // (RunOptions::traceparent), or for a run started from another (a map element, an async unit,
  // a composed child, a retry) that run's span. Empty: a trace of its own, derived from its id.
  std::string trace_parent;
};

// Versioned JSON form of a run. from_json throws std::invalid_argument for a
// record of an unknown schema version or shape.
Value run_to_json(const Run& run);
Run run_from_json(const Value& j);

}  // namespace reactor
