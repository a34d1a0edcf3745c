// execute_run: the one entry point that drives a run tree, used by the
// in-process Engine and by the durable paths (worker deliveries, synchronous
// durable runs) alike.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <vector>

#include "execution/checkpoint_delta.hpp"
#include "execution/thread_pool.hpp"
#include "reactor/clock.hpp"
#include "reactor/definition.hpp"
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
  Duration hung_step_grace{0};
};

struct ExecuteEnv {
  Clock& clock;
  std::vector<std::shared_ptr<Observer>> observers;
  const std::map<std::string, RunFn>* overrides = nullptr;
  ThreadPool& pool;
  std::uint64_t jitter_seed = 0;
  // What a step may return (DurabilityOptions::max_value_bytes); 0: no byte limit.
  std::size_t max_value_bytes = 0;
};

struct ExecuteOutcome {
  // A commit was refused: the run stopped where its last commit left it.
  bool stopped = false;
  Status stop_reason;
  // The root was suspended (it is `waiting`; Run::suspension says until what).
  bool suspended = false;
};

// Drives `root` (pending, running, waiting or rolling back) until it is
// terminal, it is suspended, or a commit is refused. With `root_is_new`, the first commit
// writes the whole tree.
ExecuteOutcome execute_run(Run& root, const Definition& def, const ExecuteEnv& env,
                           const ExecuteHooks& hooks, bool root_is_new);

}  // namespace reactor
