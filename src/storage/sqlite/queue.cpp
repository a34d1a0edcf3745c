#include <algorithm>
#include <chrono>
#include <limits>

#include "storage/sqlite/backend.hpp"
#include "storage/sqlite/row_fields.hpp"
#include "storage/sqlite/rows.hpp"
#include "storage/sqlite/transact.hpp"
#include "storage/sqlite/wake.hpp"
#include "storage/storage_time.hpp"

namespace reactor {

using sqlite::Connection;
using sqlite::kJobFields;
using sqlite::read_run;
using sqlite::SqliteError;
using sqlite::Statement;
using sqlite::try_acquire;

namespace {

// How long a wait_for_jobs without an inotify watch sleeps before the worker fetches again.
constexpr Duration kUnwatchedPoll = std::chrono::milliseconds(50);

// "queue IN (?2, ?3, …)" for `queues`, their parameters numbered from 2 (?1 is the caller's).
std::string queue_in(const std::vector<std::string>& queues) {
  std::string sql = "queue IN (";
  for (std::size_t i = 0; i < queues.size(); ++i) {
    sql += (i ? ", ?" : "?") + std::to_string(i + 2);
  }
  return sql + ")";
}

// `sql` (a statement of queue_in's) prepared, `first` bound to ?1 and the queues to theirs.
Statement prepare_on_queues(Connection& db, const std::string& sql, std::int64_t first,
                            const std::vector<std::string>& queues) {
  Statement st = db.prepare(sql);
  st.bind_at(1, first);
  for (std::size_t i = 0; i < queues.size(); ++i) {
    st.bind_at(static_cast<int>(i + 2), queues[i]);
  }
  return st;
}

// The oldest due job of `queues` whose delivery is free or expired.
Statement select_due(Connection& db, const std::vector<std::string>& queues, std::int64_t now) {
  const std::string sql = "SELECT " + sqlite::columns_of<Job>(kJobFields) + " FROM jobs WHERE " +
                          queue_in(queues) +
                          " AND run_at <= ?1 AND (lease_owner IS NULL OR lease_expires <= ?1) "
                          "ORDER BY run_at, id LIMIT 1";
  return prepare_on_queues(db, sql, now, queues);
}

}  // namespace

Result<std::optional<Delivery>> SqliteBackend::fetch(const FetchRequest& f) {
  if (f.owner.empty()) return Status::InvalidArgument("fetch: owner must not be empty");
  if (f.queues.empty()) return std::nullopt;
  const std::int64_t now = now_ms();

  // An idle poll looks in a read transaction first, so workers waiting for work never queue
  // for the write lock that committing workers need.
  bool any_due = false;
  Status probe = transact(Mode::kRead, "fetch", [&](Connection& db) -> Status {
    any_due = select_due(db, f.queues, now).step();
    return Status::Ok();
  });
  if (!probe.ok()) return probe;
  if (!any_due) return std::nullopt;

  std::optional<Delivery> delivery;
  Status unreadable;  // a job row whose kind this build cannot read
  Status s = transact(Mode::kLeaseWrite, "fetch", [&](Connection& db) -> Status {
    take_due_job(db, f, now, delivery, unreadable);
    return Status::Ok();
  });
  if (!s.ok()) return s;
  if (!unreadable.ok()) return unreadable;
  return delivery;
}

// The oldest due job of f.queues, leased to f.owner in `db`'s write transaction, with its run's
// lease and rows when free (Delivery). `delivery` stays empty when none is due; `unreadable` says
// why a job row leased all the same cannot be read.
void SqliteBackend::take_due_job(Connection& db, const FetchRequest& f, std::int64_t now,
                                 std::optional<Delivery>& delivery, Status& unreadable) {
  delivery.reset();
  unreadable = Status::Ok();
  Delivery d;
  std::string bad_kind;  // why the job row cannot be read, if it cannot
  {
    Statement st = select_due(db, f.queues, now);
    if (!st.step()) return;  // other workers took them since the probe
    try {
      sqlite::FieldColumns columns(st, 0);  // the id comes first, whatever fails after it
      kJobFields(d.job, columns);
    } catch (const std::invalid_argument& e) {
      bad_kind = e.what();
    }
  }
  ++d.job.deliveries;
  d.job.lease_owner = f.owner;
  d.job.lease_expires_ms = now + storage::to_ms(f.visibility);
  db.prepare(
        "UPDATE jobs SET lease_owner = ?, lease_expires = ?, deliveries = deliveries + 1 "
        "WHERE id = ?")
      .bind(f.owner, d.job.lease_expires_ms, d.job.id)
      .run();
  if (!bad_kind.empty()) {
    // Leased all the same, so an unreadable job steps aside for its visibility timeout
    // instead of blocking the head of the queue on every fetch.
    unreadable = Status::Corruption("job " + std::to_string(d.job.id) + ": " + bad_kind);
    return;
  }
  d.run_leased = try_acquire(db, run_lease_key(d.job.spec.run_id), f.owner,
                             storage::to_ms(f.run_lease_ttl), now, d.run_lease);
  if (d.run_leased) {
    // The run comes with its lease; an enqueued root is filed as running
    // by this delivery (Delivery::run_started). A run that cannot be read
    // here is left to the worker, which loads it and meets that itself.
    StoredRun run;
    if (read_run(db, d.job.spec.run_id, run).ok()) {
      // Who executes it from now on, and one more delivery since its last progress.
      d.run_started = run.headers.front().status == RunStatus::kEnqueued;
      Statement st = db.prepare(
          "UPDATE runs SET status = CASE WHEN ?1 THEN ?2 ELSE status END, "
          "updated_at = CASE WHEN ?1 THEN ?3 ELSE updated_at END, exec_token = ?4, "
          "exec_worker = ?5, deliveries = deliveries + 1 WHERE id = ?6 RETURNING deliveries");
      st.bind(d.run_started ? 1 : 0, std::string(to_string(RunStatus::kRunning)), now,
              d.run_lease.token, f.worker, d.job.spec.run_id);
      if (st.step()) d.run_deliveries = static_cast<int>(st.int64(0));
      d.run = std::move(run);
    }
  }
  delivery = std::move(d);
}

Status SqliteBackend::release_job(std::int64_t job_id, const std::string& owner, Duration delay) {
  if (owner.empty()) return Status::Ok();
  Status s = transact(Mode::kWrite, "release_job", [&](Connection& db) -> Status {
    db.prepare(
          "UPDATE jobs SET lease_owner = NULL, lease_expires = 0, run_at = ? "
          "WHERE id = ? AND lease_owner = ?")
        .bind(now_ms() + storage::to_ms(delay), job_id, owner)
        .run();
    return Status::Ok();
  });
  // A job handed back due at once is for a worker that stays: wake one that waits.
  if (s.ok()) sqlite::touch_wake_file(wake_path_);
  return s;
}

Result<std::int64_t> SqliteBackend::next_due_ms(const std::vector<std::string>& queues) {
  // A free job is due at its run_at; one in a delivery when that delivery lapses, if later.
  // Reads the queues' pending jobs, never the stored runs: its cost does not grow with history.
  // ?1, INT64_MAX, stands for "none" so the query returns it when the queues hold no job.
  constexpr std::int64_t kNone = std::numeric_limits<std::int64_t>::max();
  const std::string sql =
      "SELECT COALESCE(MIN(CASE WHEN lease_owner IS NULL THEN run_at "
      "ELSE max(run_at, lease_expires) END), ?1) FROM jobs WHERE " +
      queue_in(queues);
  std::int64_t due = kNone;
  Status s = transact(Mode::kRead, "wait_for_jobs", [&](Connection& db) -> Status {
    Statement st = prepare_on_queues(db, sql, kNone, queues);
    due = st.step() ? st.int64(0) : kNone;
    return Status::Ok();
  });
  if (!s.ok()) return s;
  return due;
}

Status SqliteBackend::wait_for_jobs(const std::vector<std::string>& queues, Duration max_wait) {
  if (!wakes_waiters_ || queues.empty()) return Backend::wait_for_jobs(queues, max_wait);
  using std::chrono::steady_clock;
  const steady_clock::time_point deadline = storage::wait_deadline(max_wait);
  const std::uint64_t interrupts = interrupts_.load();
  sqlite::WakeWatch watch;
  if (!watch.arm(wake_path_).ok()) {
    // No watch (the host's inotify instances used up): poll as a backend without wake-ups.
    return Backend::wait_for_jobs(queues, std::min<Duration>(max_wait, kUnwatchedPoll));
  }
  // Every read comes after the watch is armed: a commit this read misses touches the file
  // after, so its event is never lost. A touch for other queues only costs one more read.
  while (interrupts_.load() == interrupts) {
    Result<std::int64_t> due = next_due_ms(queues);
    if (!due.ok()) return due.status();
    const std::int64_t wait_ms = *due - now_ms();
    if (wait_ms <= 0) return Status::Ok();
    const steady_clock::time_point now = steady_clock::now();
    if (now >= deadline) return Status::Ok();
    // Compared in milliseconds: a job due in years (none due: INT64_MAX) overflows nanoseconds.
    steady_clock::time_point until = deadline;
    if (wait_ms < std::chrono::ceil<std::chrono::milliseconds>(deadline - now).count()) {
      until = now + std::chrono::milliseconds(wait_ms);
    }
    if (Status s = watch.wait_until(until); !s.ok()) return s;
  }
  return Status::Ok();
}

void SqliteBackend::interrupt_waits() {
  ++interrupts_;  // before the touch: a wait woken by it must see the count moved
  sqlite::touch_wake_file(wake_path_);
}

Result<bool> SqliteBackend::has_job(const std::string& run_id) {
  bool out = false;
  Status s = transact(Mode::kRead, "has_job", [&](Connection& db) -> Status {
    Statement st = db.prepare("SELECT 1 FROM jobs WHERE run_id = ? LIMIT 1");
    st.bind(run_id);
    out = st.step();
    return Status::Ok();
  });
  if (!s.ok()) return s;
  return out;
}

}  // namespace reactor

namespace reactor {

Result<std::vector<QueueStats>> SqliteBackend::queue_stats(const std::vector<std::string>& queues) {
  const std::int64_t now = now_ms();
  std::vector<QueueStats> out;
  Status s = transact(Mode::kRead, "queue_stats", [&](Connection& db) -> Status {
    out.clear();
    for (const std::string& q : queues) {
      Statement st = db.prepare(
          "SELECT "
          "COALESCE(SUM(lease_owner IS NOT NULL AND lease_expires > ?1), 0), "
          "COALESCE(SUM((lease_owner IS NULL OR lease_expires <= ?1) AND run_at > ?1), 0), "
          "COALESCE(SUM((lease_owner IS NULL OR lease_expires <= ?1) AND run_at <= ?1), 0), "
          "MIN(CASE WHEN (lease_owner IS NULL OR lease_expires <= ?1) AND run_at <= ?1 "
          "THEN run_at END) FROM jobs WHERE queue = ?2");
      st.bind_at(1, now);
      st.bind_at(2, q);
      QueueStats stats{q, 0, 0, 0, 0, now};
      if (st.step()) {
        stats.in_flight = static_cast<std::size_t>(st.int64(0));
        stats.delayed = static_cast<std::size_t>(st.int64(1));
        stats.ready = static_cast<std::size_t>(st.int64(2));
        stats.oldest_due_at_ms = st.is_null(3) ? 0 : st.int64(3);  // NULL: none due
      }
      out.push_back(std::move(stats));
    }
    return Status::Ok();
  });
  if (!s.ok()) return s;
  return out;
}

}  // namespace reactor
