// RunDriver: moves one run (a root, a composed child or a map element) from
// where its records say it is to a terminal status. It schedules; its parts (StepAttempts,
// ChildRuns, AsyncUnits, FanOutMaps, Rollback, Interrupts) each do one thing to the run. All
// progress is written into the Run as it happens; the driver's own fields are a cache rebuilt from
// the records on every drive(), which is what makes any snapshot resumable.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <functional>
#include <mutex>
#include <optional>
#include <queue>
#include <set>
#include <stop_token>
#include <string>
#include <vector>

#include "execution/argument_resolver.hpp"
#include "execution/async_unit.hpp"
#include "execution/attempt.hpp"
#include "execution/child_runs.hpp"
#include "execution/execution.hpp"
#include "execution/fan_out_map.hpp"
#include "execution/interrupts.hpp"
#include "execution/rollback.hpp"
#include "execution/step_attempt.hpp"
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
  using Lock = RunLock;

  // run_driver.cpp — lifecycle and scheduling; schedule_rebuild.cpp — the schedule from the
  // records, and the attempts an earlier execution lost.
  bool start(Lock& lock);
  void forward(Lock& lock);
  void rebuild_schedule();
  void restart_unrecorded(const std::vector<std::size_t>& started);
  void check_first_steps_lost();
  void record_lost(const LostAttempt& l, bool stored_as_started);
  void save_before_next_step(std::optional<std::int64_t> at_ms = std::nullopt);
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

  // Shared by the parts.
  const std::string& path_of(std::size_t i) const;
  EventContext event(std::size_t i, int attempt) const;
  EventContext run_event() const;

  friend class DriverPart;
  friend class StepAttempts;
  friend class ChildRuns;
  friend class AsyncUnits;
  friend class FanOutMaps;
  friend class Rollback;
  friend class Interrupts;

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
  // The last committed burst; launched_[next_launch_…] no thread has taken yet. A vector swapped
  // with burst_, not a queue: a Launch is large, and a deque would allocate a block per step.
  std::vector<Launch> launched_;
  std::size_t next_launch_ = 0;
  Args spare_args_;  // a finished step's, emptied: its storage serves the next step's arguments
  int helpers_ = 0;  // pool threads running this driver's steps
  bool halting_ = false;
  bool failing_ = false;
  // Signalled when a step is recorded or a helper leaves (wait_settled, notify_settled).
  std::condition_variable_any settled_;
  int settled_waiters_ = 0;
  std::atomic<std::uint64_t> settled_epoch_{0};  // counts notify_settled() calls
  // Wakes the retries waiting beside siblings once no step may start (made with the first).
  std::stop_source retry_waits_{std::nostopstate};
  static constexpr int kSettleSpins = 1024;

  // The parts, by concept; each reads and writes the run and the schedule above.
  StepAttempts attempts_{*this};
  ChildRuns children_{*this};
  AsyncUnits units_{*this};
  FanOutMaps maps_{*this};
  Rollback rollback_{*this};
  Interrupts interrupts_{*this};
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
