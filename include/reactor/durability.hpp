// DurabilityOptions: how an Engine with a backend persists and recovers runs;
// DeliveryOutcome: what became of one job a worker was handed.
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <string>

#include "reactor/limits.hpp"
#include "reactor/value.hpp"

namespace reactor {

// Runs per commit of Engine::run_many_in_background: enough that a batch pays
// one store round trip (one fsync on SQLite) per few hundred runs, few enough
// that one commit holds SQLite's write lock only briefly, so workers can
// commit the first runs' steps while the rest are still being enqueued.
inline constexpr std::size_t kBackgroundRunsPerCommit = 256;

struct DurabilityOptions {
  // Retention: every write re-stamps a run's expiry to now + context_ttl;
  // the sweeper purges terminal runs past it (never a running one).
  Duration context_ttl = std::chrono::hours(24);
  // The run's liveness lease (context_lock_ttl): extended every ttl/3 while
  // the run executes. A worker that dies loses it after at most this long,
  // and the sweeper then hands the run to another worker.
  Duration lease_ttl = std::chrono::seconds(10);
  // A step body (and a compensate or undo) starts only while at least this
  // much of the run's lease is surely left, counted on this process's clock
  // from before the request that granted or last extended it; with less, the
  // lease is extended first (fenced), and a lease that is someone else's now
  // stops the run there, the body not started. 0: lease_ttl / 3.
  Duration lease_margin{0};
  // Mid-run checkpoints closer together than this are coalesced (0: every
  // step). Terminal states and hand-offs are always written at once. A crash
  // may then re-run every step since the last written checkpoint.
  Duration checkpoint_min_interval{0};
  // A step whose executions are lost with their worker this many times (a
  // poison pill: the step kills the process that runs it, or freezes it past
  // its lease) fails its run with ErrorKind::kInterrupted, instead of
  // killing workers for ever. Each lost execution is in the trace.
  int max_interrupted_executions = 3;
  // A run whose deliveries end this many times in a row without progress — a worker that dies
  // or is frozen anywhere in a delivery: in a step, but also decoding the run, collecting a
  // map, settling, encoding — is failed by its next delivery with ErrorKind::kPoisonDelivery,
  // reading nothing but its header, instead of taking down every worker in turn. If even that
  // delivery ends without progress, the one after sets the run aside as
  // RunStatus::kQuarantined, its records unread and its job removed. The store counts
  // deliveries in the fetch's own write (Delivery::run_deliveries); a commit of progress clears
  // the count (docs/durability.md, "Crash loops"). 0: no limit.
  int max_deliveries_without_progress = 3;
  // A caller (Engine::run) whose step reads an async unit still running waits
  // for it this long, woken by the store; then the reader fails with
  // ErrorKind::kAsyncWaitTimeout (docs/async.md). A caller waiting for units
  // nobody reads hands the run to the workers instead. Zero: a caller never
  // waits; the run is handed to the workers at once (a reader parks there).
  Duration async_wait_timeout = std::chrono::seconds(30);
  // A caller waits for async units only while a live worker serves their queue (each worker
  // keeps a lease "serving:<queue>"); with nobody serving it, the run is handed to the workers
  // at once instead, as with async_wait_timeout 0, rather than wait for nobody and fail.
  // True: wait async_wait_timeout all the same (`reactor start --wait`).
  bool wait_without_workers = false;
  // In a worker, a run whose step reads an async unit still running is
  // parked (suspended, its thread freed) until the unit finishes; its reader
  // fails with ErrorKind::kAsyncParkTimeout this long after the dispatch.
  Duration async_park_timeout = std::chrono::hours(1);
  // A delivery that finds its run's lease held by a live execution (a
  // duplicate) is put off by base + uniform(0, jitter), as often as needed,
  // without spending any retry budget.
  Duration lock_snooze_base_delay = std::chrono::seconds(1);
  Duration lock_snooze_jitter = std::chrono::seconds(1);
  // Cap on snoozes for any other contention — today a store that is busy or
  // unreachable when a delivery loads its run. Past it the run fails with
  // ErrorKind::kContention instead of bouncing for ever. Negative: no cap.
  int lock_snooze_max_attempts = 20;
  // A step still running this long after its timeout fired is deemed hung:
  // the heartbeat of its run stops so another worker can take over.
  Duration hung_step_grace = std::chrono::seconds(30);
  // Inline jobs (for tests and scripts): run_in_background executes the jobs
  // it enqueues in the caller before it returns, as a worker would (same
  // leases, commits and records), waiting out retry delays on the engine's
  // clock. With the memory backend this is the inline mode: no worker needed.
  bool inline_jobs = false;
  // The largest value, as JSON text, a run may take as its inputs or a step
  // may return (its result, a Failure's details, a Halt's reason); values
  // also nest at most kMaxValueDepth levels (reactor/limits.hpp). Larger
  // inputs are refused with InvalidArgument (a failed RunResult from run());
  // a step returning a larger value fails with ErrorKind::kValueTooLarge, not
  // retried, compensated. A stored run holding a value past either limit is
  // corrupt, so raise this freely but never lower it below values already
  // stored: a worker fails such runs with corrupt_record.
  std::size_t max_value_bytes = kDefaultMaxValueBytes;
  // The queue a reactor's jobs go to (default: its name), so services that
  // share one store never take each other's runs.
  std::function<std::string(const std::string& reactor)> queue_for;
};

// What became of one delivered job (Worker's on_delivery, and its stats).
enum class DeliveryOutcome {
  kFinished,   // the run reached a terminal status here
  kSuspended,  // the run is waiting (a retry's backoff, …): handed back, lease released
  kSnoozed,    // the run's lease was held by a live execution: put off
  kNotServed,  // this process does not serve the reactor: put back untouched
  // Its worker is stopping: the steps in flight finished, and the run was released unfinished,
  // its job due again for another worker.
  kReleased,
  kAcknowledged,  // nothing to do (the run is gone or ended)
  kFailedRun,     // the run could not be read or resumed: marked failed
  kLeaseLost,     // a newer writer took the run: stopped, nothing written
  kBackendError,  // the store failed; the job will be delivered again
};

// "finished", "suspended", "snoozed", … as logs write them.
const char* to_string(DeliveryOutcome o);

}  // namespace reactor
