// RunDriver: moves one run (a root, a composed child or a map element) from
// where its records say it is to a terminal status. All progress is written
// into the Run as it happens; the driver's own fields are a cache rebuilt from
// the records on every drive(), which is what makes any snapshot resumable.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <optional>
#include <queue>
#include <set>
#include <string>
#include <vector>

#include "execution/argument_resolver.hpp"
#include "execution/execution.hpp"
#include "reactor/definition.hpp"
#include "reactor/run.hpp"

namespace reactor {

class RunDriver {
 public:
  RunDriver(Execution& ex, const DefinitionData& def, Run& run);

  // Runs to completed, failed or halted, or returns early once the execution
  // is stopped (a refused checkpoint). Caller must not hold the mutex.
  void drive();

  // Undoes every completed step of the run, newest first (composed children
  // and map elements recursively), appending failures to `failures`. Used by
  // the run's own rollback and when a parent rolls back a finished child.
  // Caller holds the mutex; it is released around user code.
  void undo_completed(std::unique_lock<RunMutex>& lock, std::vector<RollbackFailure>& failures);

 private:
  using Lock = std::unique_lock<RunMutex>;

  // What one attempt of a step came to, before it is recorded.
  struct Attempt {
    StepResult result = Success();
    ErrorKind kind = ErrorKind::kStepFailed;
    bool body_started = true;
    std::vector<FieldError> validation_errors;
    // Set when a composed child or map element failed (already rolled back):
    // its error becomes the run's, and the step is neither retried nor
    // compensated.
    std::optional<RunError> child_error;
    // What the attempt came to, besides its result, one of:
    enum class Came {
      kOutcome,      // the step's outcome, recorded as such
      kCutShort,     // the tree stopped mid-child (or a store read failed): record nothing
      kDispatched,   // a fan-out map's elements (an async unit) went out: the step waits for them
      kUnitOutcome,  // an async unit's own outcome (settled, or run inline), recorded by
                     // record_unit: a failure is no failure of the run unless a step reads it
    };
    Came came = Came::kOutcome;
    bool cut_short() const { return came == Came::kCutShort; }
    // What a transform threw, when an argument could not be resolved.
    std::string exception_type;

    // An argument (or a map's source) could not be resolved: the body never
    // started, so the step is neither retried nor compensated.
    static Attempt unresolved(ArgumentError error) {
      Attempt a;
      a.result = Failure(std::move(error.message), false);
      a.kind = ErrorKind::kArgumentResolution;
      a.body_started = false;
      a.exception_type = std::move(error.exception_type);
      return a;
    }
  };

  // A step about to start: its arguments resolved, its attempt counted and
  // marked as started under this execution.
  struct Launch {
    std::size_t i = 0;
    std::optional<StepSpec> mocked;  // a test's override of the step, when it has one
    Args args;
    Value items;  // a map's
    int attempt_no = 0;
    const StepSpec& spec(const DefinitionData& def) const {
      return mocked ? *mocked : def.steps[i];
    }
  };

  // run_driver.cpp — lifecycle and scheduling.
  bool start(Lock& lock);
  void forward(Lock& lock);
  void rebuild_schedule();
  void restart_unrecorded(const std::vector<std::size_t>& started);
  void check_first_steps_lost();
  void record_lost(const LostAttempt& l, bool stored_as_started);
  void save_before_next_step();
  bool run_next(Lock& lock);
  bool prepare_burst(Lock& lock);
  bool retry_beside_siblings(Lock& lock);
  void help();
  void wait_settled(Lock& lock);
  void notify_settled();
  void launch_after_retry_wait(std::size_t i, Lock& lock);
  void sleep_until_next_retry(Lock& lock);
  void wait_for_maps();
  void finish_completed(Lock& lock);
  void finish_halted(Lock& lock);
  bool stop_launching() const;
  bool hands_off(std::size_t i, HandOff::Kind kind);

  // step_attempt.cpp — one attempt of one step, and recording it.
  std::optional<Launch> prepare(std::size_t i, Lock& lock);
  void execute(Launch& l, Lock& lock);
  void mock_if_overridden(std::size_t i, Launch& l) const;
  std::optional<ArgumentError> resolve_map_source(const StepSpec& spec, Launch& l);
  Attempt run_plain(const StepSpec& spec, const Args& args, int attempt_no);
  Attempt run_compose(const StepSpec& spec, const Args& args);
  Attempt run_map(std::size_t i, Launch& l);
  Attempt run_map_inline(std::size_t i, const Value& items);
  void collect_inline(const StepSpec& spec, const std::vector<ElementOutcome>& outcomes,
                      Attempt& a);
  void undo_inline_elements(std::size_t i, Attempt& a);
  void validate_output(const StepSpec& spec, Attempt& a);
  void check_value_limits(const StepSpec& spec, Attempt& a) const;
  void record(std::size_t i, int attempt_no, Attempt a, Lock& lock);
  void record_failure(std::size_t i, int attempt_no, Attempt a, Lock& lock);
  void schedule_retry(std::size_t i, int attempt_no, const std::string& message, Lock& lock);
  void fail_at(std::size_t i, int attempt_no, Attempt a);
  // Which dependents of a finished step to release: an async unit releases the steps that do
  // not read it when it is dispatched, and its readers when it finishes.
  enum class Unblock { kAll, kNonReaders, kReaders };
  void mark_done(std::size_t i, Unblock which = Unblock::kAll);
  bool dependency_met(std::size_t step, std::size_t dep) const;

  // async_unit.cpp — async units (docs/async.md).
  Attempt run_async(std::size_t i, const Launch& l);
  std::optional<Attempt> collect_unit(std::size_t i);
  void record_dispatch(std::size_t i, int attempt_no, Lock& lock);
  void record_unit(std::size_t i, int attempt_no, Attempt a, Lock& lock);
  std::optional<Attempt> failed_unit_read_by(std::size_t i) const;
  bool readers_waiting(std::size_t unit) const;
  bool awaits_children() const;
  std::optional<std::int64_t> read_deadline(std::size_t unit) const;
  bool fail_overdue_readers(Lock& lock);
  bool wait_for_units(Lock& lock);
  FanOut::UnitWait unit_wait() const;
  bool caller_waits() const;

  // fan_out_map.cpp — a fan-out map's elements as runs of their own (docs/maps.md).
  std::string map_id_of(std::size_t i) const;
  Status map_items(const StepSpec& spec, const Launch& l, std::uint32_t first, std::uint32_t limit,
                   Value& out) const;
  Attempt dispatch_map(std::size_t i, const Launch& l);
  bool collect_settled(Lock& lock);
  Attempt collect_map(std::size_t i, const MapRow& map);
  Attempt collect_slots(std::size_t i, const MapRow& map);
  MapResults outcomes(const MapRow& map, bool completed_only);
  bool fanned_out(std::size_t i);
  bool cancel_maps(Lock& lock);
  void trace_lost_elements(std::size_t i, const std::vector<MapSlotRow>& page);
  void roll_back_elements(std::size_t i, Lock& lock, std::vector<RollbackFailure>& failures);

  // rollback.cpp — compensation of failed steps, undo of completed ones.
  void rollback(Lock& lock);
  void compensate(std::size_t i, Lock& lock);
  StepResult call_compensate(std::size_t i, const std::string& error);
  void step_hung() const {
    if (ex_.port() != nullptr) ex_.port()->step_hung();
  }
  void undo(std::size_t i, Lock& lock, std::vector<RollbackFailure>& failures);

  // Shared helpers.
  const std::string& path_of(std::size_t i) const;
  EventContext event(std::size_t i, int attempt) const;
  EventContext run_event() const;
  Run& child_run(std::size_t i, std::size_t k, const Value& inputs, const std::string& path,
                 Lock& lock, const DefinitionData& child);

  Execution& ex_;
  const DefinitionData& def_;
  Run& run_;
  std::vector<std::string> paths_;  // only when run_.path is not empty

  // Schedule cache, rebuilt from the records by rebuild_schedule().
  std::vector<std::size_t> waiting_on_;  // unfinished dependencies per step
  std::priority_queue<std::size_t, std::vector<std::size_t>, std::greater<>> ready_;
  std::set<std::size_t> retry_waiting_;
  std::set<std::size_t> dispatched_;  // fan-out maps and async units waiting for their runs
  std::set<std::size_t> cancelled_;   // fan-out maps this execution stopped (cancel_maps)
  std::set<std::size_t> relaunched_;  // async units started before, by an execution since lost
  std::optional<std::int64_t> caller_wait_until_;  // when a caller stops waiting for units
  int in_flight_ = 0;                              // steps prepared and not yet recorded
  std::vector<Launch> burst_;                      // steps being prepared to start together
  bool bursting_ = false;                          // a thread is preparing burst_
  std::deque<Launch> launched_;  // steps of committed bursts no thread has taken yet
  int helpers_ = 0;              // pool threads running this driver's steps
  bool halting_ = false;
  bool failing_ = false;
  // Signalled when a step is recorded or a helper leaves (wait_settled, notify_settled).
  std::condition_variable_any settled_;
  int settled_waiters_ = 0;
  std::atomic<std::uint64_t> settled_epoch_{0};  // counts notify_settled() calls
  static constexpr int kSettleSpins = 1024;
};

// The inputs a composed child or an async unit is started with: the step's arguments, or
// without any, the run's inputs the child declares.
Value child_inputs(const StepSpec& spec, const Args& args);

// One element's entry in the value of a map without collect(): its value (an atomic map), or
// {"index", "ok": true, "value"} / {"index", "ok": false, "error"}.
Value element_entry(const ElementOutcome& o, bool atomic);

// A new, pending child run of `parent`.
Run make_child_run(const DefinitionData& def, const Run& parent, std::string path, Value inputs,
                   std::int64_t now_ms);

}  // namespace reactor
