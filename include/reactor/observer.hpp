// Observer: middleware hooks on the life of a run. Observers only watch: an
// exception thrown by one is logged and never changes the run.
//
// Thread safety: one observer is shared by every run of its engine (or of its
// reactor), and is called from the thread that runs the step — the caller's,
// a worker thread, or a thread of the pool that runs parallel branches — so
// from several threads at once. Implementations synchronise their own state.
// Calls for one step arrive in order (start, then complete, fail or retry).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "reactor/error.hpp"
#include "reactor/run_status.hpp"
#include "reactor/step_result.hpp"
#include "reactor/value.hpp"

namespace reactor {

// Identifies where an event happened.
struct EventContext {
  const std::string& run_id;   // root run id
  const std::string& reactor;  // reactor owning the step (or the run)
  const std::string& step;     // step path; empty for run events
  int attempt = 0;             // step events: 1-based attempt
  // For tracing (reactor/otlp_exporter.hpp); valid for the call only. The run's stored W3C
  // traceparent (empty: none), when the run was created, and the worker and fencing token of the
  // execution that wrote the root's header last (empty, 0: an in-process run).
  std::string_view trace_parent{};
  std::int64_t run_created_at_ms = 0;
  std::string_view worker{};
  std::uint64_t fencing_token = 0;
};

// A coordination event (reactor/coordination.hpp): `what` is "acquired" (the holds of a
// reactor's run or a step were taken), "contended" (a key held by another run, a full rate
// window, an earlier run of an ordered chain: the run snoozes or its caller waits), or
// "released" (given back with the commit that ends the step or the run). `level` is "reactor"
// or "step"; `key` names the lock, semaphore, rate limit or chain (for "acquired" and
// "released": every key taken, comma-separated); `holder` the other run, when contended.
struct CoordinationEvent {
  const std::string& what;
  const std::string& level;
  const std::string& key;
  const std::string& holder;
};

class Observer {
 public:
  virtual ~Observer() = default;

  virtual void on_run_start(const EventContext&, const Value& /*redacted_inputs*/) {}
  // status is kCompleted or kHalted.
  virtual void on_run_complete(const EventContext&, RunStatus /*status*/) {}
  virtual void on_run_fail(const EventContext&, const RunError& /*error*/) {}

  virtual void on_step_start(const EventContext&) {}
  // outcome is kSuccess, kSkipped or kHalt (a Failure is on_step_fail).
  virtual void on_step_complete(const EventContext&, Outcome /*outcome*/) {}
  virtual void on_step_fail(const EventContext&, const std::string& /*message*/) {}
  virtual void on_step_retry(const EventContext&, Duration /*delay*/,
                             const std::string& /*message*/) {}

  virtual void on_compensate_start(const EventContext&) {}
  virtual void on_compensate_complete(const EventContext&) {}
  virtual void on_compensate_fail(const EventContext&, const std::string& /*message*/) {}

  virtual void on_undo_start(const EventContext&) {}
  virtual void on_undo_complete(const EventContext&) {}
  virtual void on_undo_fail(const EventContext&, const std::string& /*message*/) {}
  // The caller handed the run to a worker at its hand-off point, `where` ("after" or "before")
  // the step of the context; called once the hand-off is committed.
  virtual void on_hand_off(const EventContext&, const std::string& /*where*/) {}
  // The step of the context, an async unit, was sent off as run `unit_run` (docs/async.md);
  // called once its dispatch is committed, before its outcome is known.
  virtual void on_async_dispatch(const EventContext&, const std::string& /*unit_run*/) {}
  // Coordination: acquired, contended, released (CoordinationEvent). Called from the thread
  // that takes or gives back, around the store call; "released" as its commit is sent.
  virtual void on_coordination(const EventContext&, const CoordinationEvent&) {}
  // The step of the context was found in flight, its execution lost with its worker: this
  // execution records the lost attempt and runs the step again (a re-execution after a crash).
  virtual void on_step_interrupted(const EventContext&) {}
  // A worker's execution took the run over from an earlier execution that did not hand it back
  // (its lease lapsed: its worker died or stalled). Run event; called before the run resumes.
  virtual void on_lease_takeover(const EventContext&) {}
};

}  // namespace reactor
