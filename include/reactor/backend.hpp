// Backend: the storage, job queue and leases a durable engine runs on, and
// the one atomic operation where they meet: commit.
//
// Implementations: memory (tests, inline mode), SQLite (embedded default),
// Redis (distributed). All are held to tests/conformance. No engine code
// branches on which backend it talks to.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "reactor/clock.hpp"
#include "reactor/records.hpp"
#include "reactor/status.hpp"

namespace reactor {

// Everything one durable step writes, applied all or nothing.
struct CommitRequest {
  // The run whose lease fences this commit. With fencing_token 0 the commit
  // is unfenced (creating a run that nobody can hold yet).
  std::string root_id;
  std::uint64_t fencing_token = 0;

  std::vector<RunHeaderRow> headers;  // upserted
  std::vector<RunInputsRow> inputs;   // inserted once; ignored if present
  std::vector<StepRow> steps;         // upserted
  std::vector<TraceRow> trace;        // appended (idempotent per seq)
  std::vector<JobSpec> enqueue;       // follow-up jobs
  // Acknowledge (delete) this delivered job, if its lease is still ours.
  std::optional<std::int64_t> ack_job;
  std::string ack_owner;
  // Release the run's lease (the run ended or was handed back).
  bool release_lease = false;
  std::string lease_owner;
};

// A job handed to a worker, with the lease of its run when it was free.
struct Delivery {
  Job job;
  bool run_leased = false;
  Lease run_lease;  // ours when run_leased; otherwise the current holder's
  // The leased run's rows as load_run would return them, read in the same
  // operation, when the backend can do that cheaply (memory, Redis: it saves
  // the worker a round trip). Empty otherwise, also when the run is not
  // found or could not be read: the worker then calls load_run.
  std::optional<StoredRun> run;
  // The fetch itself filed the run, found enqueued, as running (the backend
  // rewrote its stored header: status and updated_at). `run` still holds the
  // rows as they were, so the engine starts the run as new, but it need not
  // commit the start before the first step. Backends that cannot do this
  // cheaply leave it false, and the engine commits the start itself.
  bool run_started = false;
};

// What a worker asks Backend::fetch for (see there): a due job of one of
// `queues`, its delivery leased to `owner` for `visibility`, and the lease of
// its run for `run_lease_ttl`.
struct FetchRequest {
  std::vector<std::string> queues;
  std::string owner;
  Duration visibility{0};
  Duration run_lease_ttl{0};
};

// The lease key of a root run.
inline std::string run_lease_key(const std::string& root_id) { return "run:" + root_id; }

class Backend {
 public:
  virtual ~Backend() = default;

  // The URL this backend was opened with, password masked.
  virtual std::string describe() const = 0;

  // Applies `c` atomically. If c.fencing_token is set and is not the newest
  // token of the run's lease, nothing is written and LeaseLost is returned.
  // Durable when it returns ok (as the backend's durability settings allow).
  virtual Status commit(const CommitRequest& c) = 0;

  // Reads a root run and all its children. NotFound if absent.
  virtual Status load_run(const std::string& root_id, StoredRun& out) = 0;
  // One header only (a root or child). NotFound if absent.
  virtual Status load_header(const std::string& run_id, RunHeaderRow& out) = 0;
  virtual Status list_runs(const RunFilter& filter, std::vector<RunHeaderRow>& out) = 0;

  // Fetch-and-lease in one operation: the oldest due job of f.queues (FIFO by
  // run_at, then enqueue order) whose delivery lease is free or expired is
  // leased to f.owner until now + f.visibility, and the lease of its run
  // ("run:<run id>") is taken for f.owner too when free (ttl
  // f.run_lease_ttl); then the run itself may come with it (Delivery::run).
  // nullopt when no job is due. InvalidArgument when f.owner is empty.
  virtual Status fetch(const FetchRequest& f, std::optional<Delivery>& out) = 0;
  // commit(c), then, only if it was applied, fetch(f) into `next`: what a
  // worker does when a run ends, as one operation where the backend can make
  // it one (Redis: one script, one round trip). Returns the commit's status;
  // a fetch that fails leaves `next` empty (the worker's own next fetch meets
  // the error). The default makes the two calls.
  virtual Status commit_then_fetch(const CommitRequest& c, const FetchRequest& f,
                                   std::optional<Delivery>& next);
  // Blocks until a job of `queues` may have become due, or `max_wait` has
  // passed, whichever comes first; then the caller fetches again. Backends
  // that an enqueue can wake (Redis) block on the store; the default just
  // sleeps `max_wait` (the caller's idle back-off). A spurious early return
  // is allowed. Errors only say the wait could not block.
  virtual Status wait_for_jobs(const std::vector<std::string>& queues, Duration max_wait);
  // wait_for_jobs(f.queues, max_wait), then fetch: an idle worker's next
  // try, as one operation where the backend can (Redis: the blocking wait and
  // the fetch script in one pipeline, so the fetch runs the moment an enqueue
  // ends the wait). An error of the wait is returned as it is.
  virtual Status wait_then_fetch(const FetchRequest& f, Duration max_wait,
                                 std::optional<Delivery>& out);
  // True when wait_for_jobs blocks on the store and an enqueue (or a job
  // falling due) ends it at once: an idle worker then blocks for its whole
  // WorkerOptions::idle_wait in one call instead of polling with a back-off
  // from 1 ms.
  // False (the default) when it only sleeps.
  virtual bool wakes_waiters() const { return false; }
  // Puts a delivered job back, due after `delay`, without counting it as done
  // (a worker that cannot serve it, a graceful shutdown).
  virtual Status release_job(std::int64_t job_id, const std::string& owner, Duration delay) = 0;
  // Whether a job for `run_id` exists (queued or in delivery).
  virtual Status has_job(const std::string& run_id, bool& out) = 0;

  // Takes the lease on `key` for `owner` when it is free or expired, with a
  // token greater than every earlier one. A lease held by someone else is not
  // an error: `granted` is false and `out` describes the holder.
  virtual Status acquire_lease(const std::string& key, const std::string& owner, Duration ttl,
                               bool& granted, Lease& out) = 0;
  // Extends a lease still held by (owner, token). LeaseLost otherwise.
  virtual Status extend_lease(const std::string& key, const std::string& owner, std::uint64_t token,
                              Duration ttl) = 0;
  // Releases it if still held by (owner, token); a no-op otherwise.
  virtual Status release_lease(const std::string& key, const std::string& owner,
                               std::uint64_t token) = 0;

  // Recovery: root runs that are running or rolling back with no live lease,
  // and enqueued root runs with no job; at most `limit`.
  virtual Status find_orphans(std::size_t limit, std::vector<RunHeaderRow>& out) = 0;
  // Deletes terminal runs (with their children, steps, trace) whose expiry
  // passed; never a running one. Returns how many roots were purged.
  virtual Status purge_expired(std::size_t limit, std::size_t& purged) = 0;

  // Request/response exchanges with a store server so far (every call of
  // every thread, heartbeats, sweeps and retries included), for reporting
  // the cost of a durable step. 0 for stores inside the process.
  // Thread-safe.
  virtual std::uint64_t round_trips() const { return 0; }
};

// Opens a backend by URL: "memory:", "sqlite:///path/to/file.db"
// (options: ?synchronous=normal), "redis://[:password@]host:port/db"
// (options in docs/redis.md; the Redis backend judges expiry by the server's
// clock, not by `clock`). Unavailable with a message naming the URL, password
// masked, when it cannot be opened.
Status open_backend(const std::string& url, std::shared_ptr<Clock> clock,
                    std::unique_ptr<Backend>& out);

}  // namespace reactor
