// JobQueue: the queue of jobs workers fetch — one facet of a Backend
// (backend.hpp). Jobs carry identity only (records.hpp); they are enqueued
// and acknowledged by Backend::commit, in the same atomic write as the
// records they go with. Delivery is at least once: a fetched job is leased to
// its worker for a visibility timeout, and delivered again if not
// acknowledged by then.
//
// Thread safety: safe to call from any number of threads at once.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "reactor/records.hpp"
#include "reactor/result.hpp"
#include "reactor/status.hpp"
#include "reactor/value.hpp"

namespace reactor {

// A job handed to a worker, with the lease of its run when it was free.
struct Delivery {
  Job job;
  bool run_leased = false;
  Lease run_lease;  // ours when run_leased; otherwise the current holder's
  // The leased run's rows as load_run would return them, read in the same
  // operation, when the backend can do that cheaply (it saves the worker a
  // round trip). Empty otherwise, also when the run is not found or could not
  // be read: the worker then calls load_run.
  std::optional<StoredRun> run;
  // The fetch itself filed the run, found enqueued, as running (the backend
  // rewrote its stored header: status and updated_at). `run` still holds the
  // rows as they were, so the engine starts the run as new, but it need not
  // commit the start before the first step. Backends that cannot do this
  // cheaply leave it false, and the engine commits the start itself.
  bool run_started = false;
  // Deliveries of the run since it last made progress, this one included, when run_leased: the
  // fetch that leases the run counts it in the same write. A fenced commit of the run that
  // carries a step row of its tree, acknowledges a job or releases the lease is progress, and
  // sets the count back to zero (docs/durability.md, "Crash loops"). 0 when not leased.
  int run_deliveries = 0;
  // With `run`, when the job is the resume that a one-element map's settle queued (an async
  // unit's: its outcome), that map's slot read in the same operation, when the backend can do
  // that cheaply: it saves the resumed owner the round trip of reading it. The slot of a settled
  // unit is not written again, so it is what the owner would read. Empty otherwise: the owner
  // reads the slot itself.
  std::optional<MapSlotRow> settled_slot;
};

// What a worker asks JobQueue::fetch for: a due job of one of `queues`, its
// delivery leased to `owner` for `visibility`, and the lease of its run for
// `run_lease_ttl`. The fetch that leases a run records in its root header
// who executes it: the lease's token and `worker` (RunHeaderRow::exec_token,
// exec_worker; a worker id holds no quote or backslash).
struct FetchRequest {
  std::vector<std::string> queues;
  std::string owner;
  Duration visibility{0};
  Duration run_lease_ttl{0};
  std::string worker{};  // who fetched it, recorded as the run's executing worker
};

// One queue's jobs as JobQueue::queue_stats counts them, by the store's clock.
struct QueueStats {
  std::string queue;
  std::size_t ready = 0;      // due and not in a live delivery (a lapsed delivery counts here)
  std::size_t delayed = 0;    // not due yet (retries, snoozes, scheduled starts)
  std::size_t in_flight = 0;  // in a live delivery to a worker
  std::int64_t oldest_due_at_ms = 0;  // the run_at (unix ms) of the oldest ready job; 0: none
  std::int64_t now_ms = 0;            // the store's clock when it counted
};

class JobQueue {
 public:
  virtual ~JobQueue() = default;

  // Fetch-and-lease in one operation: the oldest due job of f.queues (FIFO by
  // run_at, then enqueue order) whose delivery lease is free or expired is
  // leased to f.owner until now + f.visibility, and the lease of its run
  // ("run:<run id>") is taken for f.owner too when free (ttl
  // f.run_lease_ttl); then the run itself may come with it (Delivery::run).
  // nullopt when no job is due. InvalidArgument when f.owner is empty.
  virtual Result<std::optional<Delivery>> fetch(const FetchRequest& f) = 0;
  // Blocks until a job of `queues` may have become due, or `max_wait` has
  // passed, whichever comes first; then the caller fetches again. Backends
  // that an enqueue can wake (Redis; SQLite through its wake file on one
  // host) block on the store; the default just
  // sleeps `max_wait` (the caller's idle back-off). A spurious early return
  // is allowed. Errors only say the wait could not block.
  virtual Status wait_for_jobs(const std::vector<std::string>& queues, Duration max_wait);
  // wait_for_jobs(f.queues, max_wait), then fetch: an idle worker's next
  // try, as one operation where the backend can (Redis: the blocking wait and
  // the fetch script in one pipeline, so the fetch runs the moment an enqueue
  // ends the wait). An error of the wait is returned as it is.
  virtual Result<std::optional<Delivery>> wait_then_fetch(const FetchRequest& f, Duration max_wait);
  // True when wait_for_jobs blocks on the store and an enqueue (or a job
  // falling due) ends it at once: an idle worker then blocks for its whole
  // WorkerOptions::idle_wait in one call instead of polling with a back-off
  // from 1 ms. False (the default) when it only sleeps.
  virtual bool wakes_waiters() const { return false; }
  // Ends the wait_for_jobs calls on this backend blocked now, so a stopping worker need not sit
  // out its idle_wait. Best effort; the default does nothing and those waits end at their
  // max_wait. Thread-safe.
  virtual void interrupt_waits() {}
  // Puts a delivered job back, due after `delay`, without counting it as done
  // (a worker that cannot serve it, a graceful shutdown, a suspension not
  // over yet). A no-op unless `owner` still holds its delivery.
  virtual Status release_job(std::int64_t job_id, const std::string& owner, Duration delay) = 0;
  // Whether a job for `run_id` exists (queued or in delivery).
  virtual Result<bool> has_job(const std::string& run_id) = 0;
  // How many jobs each of `queues` holds, ready, delayed and in flight, in the order asked (a
  // queue without jobs: zeros). Read only; for dashboards and metrics, not for scheduling.
  virtual Result<std::vector<QueueStats>> queue_stats(const std::vector<std::string>& queues) = 0;
};

}  // namespace reactor
