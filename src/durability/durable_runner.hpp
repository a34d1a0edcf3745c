// The durable paths of a run: started in the background (persisted with its
// job in one commit), executed by a worker from a delivered job, or executed
// synchronously by its caller — in each case holding the run's fenced lease
// and committing every step through the backend.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>

#include "durability/lease_keeper.hpp"
#include "execution/execute.hpp"
#include "reactor/backend.hpp"
#include "reactor/durability.hpp"
#include "reactor/registry.hpp"
#include "reactor/run_result.hpp"

namespace reactor {

struct DurableEnv {
  Registry& registry;
  Backend& backend;
  Clock& clock;
  const DurabilityOptions& options;
  LeaseKeeper& keeper;
  // Runs the executor on a run tree with the given hooks; a new run (not
  // stored yet) is written whole by its first commit.
  std::function<ExecuteOutcome(Run&, const Definition&, ExecuteHooks, bool run_is_new)> execute;
  // Jitter for snoozes: uniform in [0, max].
  std::function<Duration(Duration max)> jitter;
  // Commits that recorded step progress (a step's result, failure, retry or
  // compensation), by every execution of this engine: what a worker reports
  // its store requests against.
  std::atomic<std::uint64_t> durable_steps{0};

  std::string queue_for(const std::string& reactor) const {
    return options.queue_for ? options.queue_for(reactor) : reactor;
  }
  std::int64_t now_ms() const { return to_unix_ms(clock.now()); }
  std::int64_t expiry_ms() const { return to_unix_ms(clock.now() + options.context_ttl); }
};

// What became of one delivered job.
enum class DeliveryOutcome {
  kFinished,      // the run reached a terminal status here
  kYielded,       // handed back to the queue until a retry is due
  kSnoozed,       // the run's lease was held: put off
  kHandedBack,    // this process does not serve the reactor
  kAcknowledged,  // nothing to do (run gone or already terminal)
  kFailedRun,     // the run could not be read or resumed: marked failed
  kLeaseLost,     // a newer writer took the run: stopped, nothing written
  kBackendError,  // the store failed; the job will be redelivered
};
const char* to_string(DeliveryOutcome o);

// Persists `run` as `enqueued` together with its start job, in one commit.
Status persist_background_run(DurableEnv& env, const Run& run);

// Executes `run` in this thread, durably: it holds the run's lease (so the
// sweeper leaves it alone while this process lives, and hands it to a worker
// if this process dies), and commits every step.
RunResult run_synchronously(DurableEnv& env, const Definition& def, Run run);

// A worker's next job, asked for with the commit that ends the current run
// (Backend::commit_then_fetch): `delivery` holds it, when one was due.
struct NextDelivery {
  FetchRequest request;
  std::optional<Delivery> delivery;
  // The run's last commit was applied with its fetch: `delivery` is what it
  // found, and empty means nothing was due (or the fetch's reply could not be
  // read), so the worker's next try may wait for an enqueue first.
  bool fetched = false;
};

// Executes one delivered job. A retry that is not yet due hands the run back
// to the queue (`yield_on_retry_wait`), or waits for it on the clock (inline
// jobs, which run in their caller). With `next`, the commit that ends the run
// also fetches the next job.
DeliveryOutcome process_delivery(DurableEnv& env, const Delivery& delivery,
                                 const std::string& owner, bool yield_on_retry_wait = true,
                                 NextDelivery* next = nullptr);

// Gives back a delivered job this process will not execute (a worker that
// stops with a job it fetched ahead): its run is released as it was found and
// the job is due again after `delay`.
void hand_back(DurableEnv& env, const Delivery& delivery, const std::string& owner, Duration delay);

// Loads a run as a RunResult. NotFound, or Corruption for unreadable records.
Status load_result(DurableEnv& env, const std::string& run_id, RunResult& out);

// Persists each of `runs` as `enqueued` with its start job, in input order,
// kBackgroundRunsPerCommit runs per commit. `persisted` counts the runs of
// the commits that succeeded before the first error (all of them when ok).
Status persist_background_runs(DurableEnv& env, const std::vector<Run>& runs,
                               std::size_t& persisted);

}  // namespace reactor
