// SqliteBackend: the Backend contract in one SQLite file (WAL mode), safe for
// several threads and several processes on one host. Every operation is one
// transaction (BEGIN IMMEDIATE when it writes), retried whole a bounded number
// of times when another connection holds the lock past the busy timeout; the
// commits of several threads that wait for one another share one
// (storage/commit_groups.hpp), each in a savepoint of its own.
// Expiry is judged by the injected Clock. Layout: docs/storage.md.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <span>
#include <string>

#include "reactor/backend.hpp"
#include "storage/commit_groups.hpp"
#include "storage/sqlite/connection.hpp"

namespace reactor {

namespace storage {
struct OrderedEntry;  // storage/hold_rules.hpp
}

struct SqliteOptions {
  std::string path;  // the database file; its directory must exist
  sqlite::Synchronous synchronous = sqlite::Synchronous::kFull;
  int busy_timeout_ms = 5000;
  int max_attempts = 10;  // whole-transaction attempts on SQLITE_BUSY / SQLITE_LOCKED
  bool create = true;     // false: a file that does not exist is NotFound, not made
};

class SqliteBackend final : public Backend {
 public:
  // Opens the file (creating it if missing, unless options.create is false:
  // then NotFound naming it), switches it to WAL and migrates the schema.
  // Unavailable naming `url` when any of that fails.
  static Status open(const std::string& url, const SqliteOptions& options,
                     std::shared_ptr<Clock> clock, std::unique_ptr<Backend>& out);

  std::string describe() const override;
  Status commit(const CommitRequest& c) override;
  Result<std::optional<Delivery>> commit_then_fetch(const CommitRequest& c,
                                                    const FetchRequest& f) override;
  Result<StoredRun> load_run(const std::string& root_id) override;
  Result<RunHeaderRow> load_header(const std::string& run_id) override;
  Result<std::vector<RunHeaderRow>> list_runs(const RunFilter& filter) override;
  Result<std::size_t> count_runs(const RunFilter& filter) override;
  Result<std::optional<Delivery>> fetch(const FetchRequest& f) override;
  // Watches the wake file (wake.hpp) that a commit making a job deliverable touches, and sleeps
  // no later than the next job of `queues` falls due (a delayed job, a lapsing delivery).
  Status wait_for_jobs(const std::vector<std::string>& queues, Duration max_wait) override;
  // True on the system clock once the wake file exists: an injected clock's due times are not
  // the host's, so a worker on one polls as before.
  bool wakes_waiters() const override { return wakes_waiters_; }
  // Ends this backend's waits: counts an interrupt and touches the wake file (other processes'
  // waits read again and go on waiting).
  void interrupt_waits() override;
  Status release_job(std::int64_t job_id, const std::string& owner, Duration delay) override;
  Result<bool> has_job(const std::string& run_id) override;
  Result<std::vector<QueueStats>> queue_stats(const std::vector<std::string>& queues) override;
  Result<LeaseGrant> acquire_lease(const std::string& key, const std::string& owner,
                                   Duration ttl) override;
  Status extend_lease(const std::string& key, const std::string& owner, std::uint64_t token,
                      Duration ttl) override;
  Status release_lease(const std::string& key, const std::string& owner,
                       std::uint64_t token) override;
  Result<Lease> peek_lease(const std::string& key) override;
  Result<Lease> seize_lease(const std::string& key, const std::string& owner,
                            Duration ttl) override;
  Result<std::vector<RunHeaderRow>> find_orphans(std::size_t limit) override;
  Result<std::size_t> purge_expired(std::size_t limit) override;
  Result<MapRow> load_map(const std::string& map_id) override;
  Result<std::vector<MapSlotRow>> load_map_slots(const std::string& map_id, std::uint32_t first,
                                                 std::uint32_t limit) override;
  // Watches the wake file (wake.hpp) that a settling commit touches, then
  // reads the map row again after every change of it. Any process on the host
  // may settle the map.
  Result<bool> wait_for_settle(const std::string& map_id, Duration max_wait) override;
  Status upsert_schedule(const ScheduleRow& row) override;
  Result<std::vector<ScheduleRow>> list_schedules() override;
  Status mark_schedule_fired(const std::string& name, std::int64_t period_ms) override;
  Result<TakeResult> take_holds(const TakeRequest& r) override;
  Result<CoordinationView> coordination() override;
  Result<OrderedChainRow> ordered_peek(const std::string& key) override;
  Result<OrderedChainRow> ordered_skip(const std::string& key) override;
  Result<OrderedChainRow> ordered_reset(const std::string& key) override;

 private:
  // kLeaseWrite: a write that only takes leases (a fetch), committed without its own fsync on a
  // kFull file. A power cut may lose it, never a commit after it (the WAL is synced in order, so
  // the next synced commit carries it), and a power cut also ends the workers it leased to (one
  // host): its loss only delivers the job again. docs/storage.md "Durability".
  enum class Mode { kRead, kWrite, kLeaseWrite };

  SqliteBackend(std::string url, const SqliteOptions& options, std::shared_ptr<Clock> clock);

  // Runs `body` in one transaction, retrying it whole on SQLITE_BUSY/LOCKED.
  // A non-ok Status from `body` rolls back and is returned as is; a SQLite
  // error becomes Unavailable / Corruption / Internal naming `what`.
  template <typename Body>
  Status transact(Mode mode, const char* what, Body&& body);

  std::int64_t now_ms() const;
  // The writes of `c` in `db`'s write transaction (commit.cpp); `wakes` says whether they made a
  // job deliverable or settled a map: the wake file is touched once they are visible.
  Status apply(sqlite::Connection& db, const CommitRequest& c, bool& wakes);
  // The map rows and the settle of `c` (maps.cpp); `wakes` as apply's, for the settle's jobs.
  Status write_maps(sqlite::Connection& db, const CommitRequest& c, std::int64_t now, bool& wakes);
  // When the next job of `queues` can be fetched (store clock, unix ms); INT64_MAX when none.
  Result<std::int64_t> next_due_ms(const std::vector<std::string>& queues);
  // An operator call on the ordered chain `key` (holds.cpp): `change` applied to it and written
  // back (none: read only). NotFound for a chain the store does not know.
  Result<OrderedChainRow> on_chain(const std::string& key, const char* what,
                                   void (*change)(storage::OrderedEntry&));
  // The commits of `group` in one transaction (commit.cpp; storage/commit_groups.hpp).
  void write_group(std::span<storage::GroupedCommit* const> group);
  // apply_grouped in a savepoint: a commit refused is rolled back alone, the others stay.
  Status apply_in_savepoint(sqlite::Connection& db, storage::GroupedCommit& g, bool& wakes);
  // The writes of g's commit, then its fetch when it asks for one and the commit was applied.
  Status apply_grouped(sqlite::Connection& db, storage::GroupedCommit& g, bool& wakes);
  // fetch()'s writes in `db`'s write transaction (queue.cpp).
  void take_due_job(sqlite::Connection& db, const FetchRequest& f, std::int64_t now,
                    std::optional<Delivery>& delivery, Status& unreadable);

  const std::string url_;
  const SqliteOptions options_;
  const std::shared_ptr<Clock> clock_;
  const std::string wake_path_;  // touched after a commit that wakes someone (wake.hpp)
  bool wakes_waiters_ = false;   // set by open(): see wakes_waiters()
  std::atomic<std::uint64_t> interrupts_{0};  // interrupt_waits() calls: a wait seeing it move ends
  sqlite::ConnectionPool pool_;
  std::mutex write_turn_;  // held through each write transaction (transact.hpp)
  // The commits through this backend, written a group a transaction (write_group).
  storage::CommitGroups groups_{
      [this](std::span<storage::GroupedCommit* const> g) { write_group(g); }};
};

}  // namespace reactor
