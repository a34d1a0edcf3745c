// execute_run: the one entry point that drives a run tree, used by the
// in-process Engine and by the durable paths (worker deliveries, synchronous
// durable runs) alike.
#pragma once

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <vector>

#include "execution/checkpoint_delta.hpp"
#include "execution/fan_out_port.hpp"
#include "execution/thread_pool.hpp"
#include "reactor/clock.hpp"
#include "reactor/definition.hpp"
#include "reactor/logger.hpp"
#include "reactor/observer.hpp"
#include "reactor/run.hpp"
#include "reactor/status.hpp"

namespace reactor {

// How the durable layer plugs into one execution.
struct ExecuteHooks {
  // Writes what changed. Called under the run's lock after every recorded
  // step (coalesced by checkpoint_min_interval) and always for terminal
  // states. A non-ok status stops the whole tree where it is.
  std::function<Status(const Run& root, const CheckpointDelta& delta)> commit;
  // Instead of sleeping until a retry is due when nothing else can run,
  // suspend the root until then: it ends `waiting`, its suspension set, in a
  // commit the hook sees (ExecuteOutcome::suspended).
  bool yield_on_retry_wait = false;
  // The store already records the run as running (the fetch that delivered
  // it said so): starting it writes nothing before the first step.
  bool start_is_stored = false;
  Duration checkpoint_min_interval{0};
  // Called once when a step keeps running hung_step_grace past its timeout.
  std::function<void()> on_hung_step;
  // Who executes the run: its lease's fencing token and the worker's id,
  // written into every trace event and into the record of every step it
  // starts (0 and "" in process).
  std::uint64_t token = 0;
  std::string worker;
  // Who wrote the root's header last before this execution (Run::exec_token,
  // exec_worker as stored): an execution under another token that left a
  // step started, or (having written nothing since its fetch) the steps it
  // was about to start, lost them; they are recorded as interrupted.
  std::uint64_t previous_token = 0;
  std::string previous_worker;
  // A step whose executions were lost this many times fails the run
  // (ErrorKind::kInterrupted) instead of killing workers for ever.
  int max_interrupted_executions = 3;
  // While set (a worker shutting down): no further step starts; once the
  // steps in flight are recorded, the run is handed back unfinished in one
  // commit (CheckpointDelta::release_unfinished) and ExecuteOutcome::released_unfinished set.
  const std::atomic<bool>* release_requested = nullptr;
  // The caller of a durable run (Engine::run): at the reactor's hand-off point
  // (DefinitionData::hand_off) the run is handed back the same way, for a
  // worker to go on with, and ExecuteOutcome::handed_off is set. A worker
  // never sets it: a run hands off at most once.
  bool hand_off = false;
  // Called before every step body, compensate and undo starts (under the run's
  // lock): a non-ok status (the run's lease can no longer be proven ours)
  // stops the tree there, the body not started.
  std::function<Status()> before_body;
  Duration hung_step_grace{0};
  // A caller (Engine::run) waits this long, woken by the store, for an async unit a step reads
  // (DurabilityOptions::async_wait_timeout); unset: the run is handed back (a worker parks it)
  // instead.
  std::optional<Duration> async_wait;
  // A parked run's reader of an async unit fails this long after the unit's dispatch.
  Duration async_park_timeout = std::chrono::hours(1);
  // Where fan-out maps send their elements (durability/durable_fan_out.hpp); nullptr:
  // a fan-out map runs inline.
  FanOut* fan_out = nullptr;
};

struct ExecuteEnv {
  Clock& clock;
  std::vector<std::shared_ptr<Observer>> observers;
  Logger& logger;  // where an observer's exception is told
  const std::map<std::string, RunFn>* overrides = nullptr;
  ThreadPool& pool;
  std::uint64_t jitter_seed = 0;
  // What a step may return (DurabilityOptions::max_value_bytes); 0: no byte limit.
  std::size_t max_value_bytes = 0;
};

// How an execution of a run ended: one answer.
struct ExecuteOutcome {
  enum class End {
    kReturned,   // it went as far as it could here: its status says where (terminal, or left
                 // for its caller)
    kSuspended,  // the root is `waiting` (Run::suspension says until what: a retry's due time,
                 // its fan-out maps and async units)
    kReleased,   // released unfinished on a stop request (ExecuteHooks::release_requested)
    kHandedOff,  // released at its hand-off point (ExecuteHooks::hand_off): a worker goes on
    kStopped,    // a commit was refused: stopped where its last commit left it (stop_reason)
  };
  End end = End::kReturned;
  Status stop_reason;  // kStopped's

  bool stopped() const { return end == End::kStopped; }
};

// Drives `root` (pending, running, waiting or rolling back) until it is
// terminal, it is suspended, or a commit is refused. With `root_is_new`, the first commit
// writes the whole tree.
ExecuteOutcome execute_run(Run& root, const Definition& def, const ExecuteEnv& env,
                           const ExecuteHooks& hooks, bool root_is_new);

// Undoes the completed steps of `root` (a stored run; its status stays), newest first, each
// committed before the next starts, and appends the failures of its undos to `failures`. Used
// to roll back an element of a fan-out map.
ExecuteOutcome execute_undo(Run& root, const Definition& def, const ExecuteEnv& env,
                            const ExecuteHooks& hooks, std::vector<RollbackFailure>& failures);

}  // namespace reactor
