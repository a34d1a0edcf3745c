// Backend: where a durable engine keeps its runs, its job queue, its leases
// its fan-out maps, its schedules and its holds — six facets (run_store.hpp, job_queue.hpp,
// leases.hpp, map_store.hpp, schedule_store.hpp, hold_store.hpp) — and the
// one atomic operation where they meet: commit = fence check + the run's rows
// + follow-up jobs + the ack of the current job + the release of its lease.
// That is what keeps a durable step at one store round trip.
//
// Implementations: memory (tests, inline mode), SQLite (embedded default),
// Redis (distributed), all held to one conformance suite (tests/conformance).
// No engine code branches on which backend it talks to. BackendWrapper
// (backend_wrapper.hpp) forwards every call to another backend, to observe or
// alter some.
//
// Thread safety: a backend is shared by every thread of its engine and its
// Worker (N fetch threads, the lease heartbeat, the sweeper); every method may
// be called from any of them at once. Several processes (SQLite: on one
// host; Redis: on many) may use one store at once.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "reactor/clock.hpp"
#include "reactor/hold_store.hpp"
#include "reactor/job_queue.hpp"
#include "reactor/leases.hpp"
#include "reactor/map_store.hpp"
#include "reactor/records.hpp"
#include "reactor/result.hpp"
#include "reactor/run_store.hpp"
#include "reactor/schedule_store.hpp"
#include "reactor/status.hpp"

namespace reactor {

// Everything one durable step writes, applied all or nothing. The rows
// (RunRows): headers and steps upserted; inputs inserted once (ignored if
// present); trace rows appended, idempotent per seq.
//
// The commit contract (docs/durability.md, "The commit contract"), the same
// on every backend. A commit checks, in this order, and the first check that
// fails refuses it whole — no row, no job, no ack, no lease release:
//   1. shape: ids present (storage::check_commit) — InvalidArgument
//      "commit: ..." naming the row;
//   2. (Redis) a commit resent under a nonce applied before is Ok, applied
//      once;
//   3. fence: fencing_token != 0 is the newest token of run:<root_id> —
//      LeaseLost "run R: fencing token T is no longer the newest";
//   4. a start (`create`) names no root run that exists — AlreadyExists
//      "run R exists".
// Then it writes the rows, the jobs and redeliveries, the maps and the
// settle; acks ack_job if its delivery is ack_owner's (or it has none), and
// releases the run lease if lease_owner holds it — neither refuses the
// commit when it does not apply. The texts: src/storage/commit_refusals.hpp.
struct CommitRequest : RunRows {
  // The run whose lease fences this commit. With fencing_token 0 the commit
  // is unfenced (creating a run that nobody can hold yet).
  std::string root_id;
  std::uint64_t fencing_token = 0;

  // Every root header of this commit is of a new run (a start): if a run
  // with one of those ids exists already, nothing is written and the commit
  // is AlreadyExists naming it. A start never overwrites a run.
  bool create = false;
  std::vector<JobSpec> enqueue;  // follow-up jobs
  // Recovery (the sweeper, for a run nobody serves): for each, every job of
  // its run that is in delivery — leased to a worker that died — becomes
  // deliverable at once (due now at the latest, its delivery lease cleared),
  // whatever its visibility timeout; a run with no job at all gets this one.
  // A job already waiting in the queue is left as it is.
  std::vector<JobSpec> redeliver;
  // Acknowledge (delete) this delivered job, if its lease is still ours.
  std::optional<std::int64_t> ack_job;
  std::string ack_owner;
  // Release the run's lease (the run ended or was handed back).
  bool release_lease = false;
  std::string lease_owner;
  // Fan-out maps (map_store.hpp): rows upserted whole, by the owner that
  // dispatches them; and the slot an element run's last commit fills, with
  // what the store does then (MapSettle).
  std::vector<MapRow> maps;
  std::optional<MapSettle> settle;
  // Coordination (hold_store.hpp), applied with the rows: holds given back, periods marked done
  // (by the commit that completes the run or the step: never one without the other), runs
  // joining an ordered chain (by their start's commit).
  std::vector<HoldRelease> release_holds;
  std::vector<PeriodMark> period_marks;
  std::vector<OrderedJoin> ordered_joins;
  bool coordinates() const {
    return !release_holds.empty() || !period_marks.empty() || !ordered_joins.empty();
  }
};

class Backend : public RunStore,
                public JobQueue,
                public Leases,
                public MapStore,
                public ScheduleStore,
                public HoldStore {
 public:
  ~Backend() override = default;

  // The URL this backend was opened with, password masked.
  virtual std::string describe() const = 0;

  // Applies `c` atomically. If c.fencing_token is set and is not the newest
  // token of the run's lease, nothing is written and LeaseLost is returned.
  //
  // What is durable when it returns ok:
  //  - memory: nothing outlives the process.
  //  - SQLite (?synchronous=full, the default): the commit survives a
  //    process crash and a machine crash (power loss) alike. With
  //    ?synchronous=normal it survives a process crash; a machine crash may
  //    lose the last commits, never corrupt the file.
  //  - Redis: it survives a crash of this process at once (the server has
  //    applied it); a crash of the Redis server keeps what its AOF holds:
  //    everything with appendfsync always, up to the last second with
  //    everysec (docs/redis.md).
  virtual Status commit(const CommitRequest& c) = 0;
  // commit(c), then, only if it was applied, fetch(f): what a worker does
  // when a run ends, as one operation where the backend can make it one
  // (Redis: one script, one round trip). An error is the commit's; when it
  // was applied, the next delivery or nullopt — also when the fetch failed
  // (the worker's own next fetch meets the error). The default makes the two
  // calls.
  virtual Result<std::optional<Delivery>> commit_then_fetch(const CommitRequest& c,
                                                            const FetchRequest& f);

  // Request/response exchanges with a store server so far (every call of
  // every thread, heartbeats, sweeps and retries included), for reporting
  // the cost of a durable step. 0 for stores inside the process.
  virtual std::uint64_t round_trips() const { return 0; }
};

// How open_backend opens a store.
struct OpenOptions {
  // The clock that memory and SQLite judge expiry by (Redis judges it by the
  // server's). nullptr: the system clock.
  std::shared_ptr<Clock> clock;
  // Whether a store that does not exist yet is made. false is for tools that
  // only look at what is stored (`reactor runs`, `reactor show`): a SQLite
  // file that does not exist is then NotFound, naming its path, and no file
  // is made. memory: and Redis have no file to make and open as usual.
  bool create = true;
};

// Opens a backend by URL: "memory:", "sqlite:///path/to/file.db"
// (options: ?synchronous=full|normal), "redis://[:password@]host:port/db"
// (options in docs/redis.md). InvalidArgument for a URL it cannot read, and
// for a redis:// URL in a build without Redis (CMake option
// REACTOR_WITH_REDIS=OFF), saying so; Unavailable with a message naming the
// URL, password masked, when the store cannot be opened; NotFound as
// OpenOptions::create says.
Result<std::unique_ptr<Backend>> open_backend(const std::string& url, const OpenOptions& options);
// The same with OpenOptions{clock}: a store that does not exist is made.
Result<std::unique_ptr<Backend>> open_backend(const std::string& url, std::shared_ptr<Clock> clock);

}  // namespace reactor
