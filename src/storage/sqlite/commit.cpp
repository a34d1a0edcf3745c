#include "storage/commit_check.hpp"
#include "storage/commit_groups.hpp"
#include "storage/commit_refusals.hpp"
#include "storage/sqlite/backend.hpp"
#include "storage/sqlite/hold_rows.hpp"
#include "storage/sqlite/row_fields.hpp"
#include "storage/sqlite/rows.hpp"
#include "storage/sqlite/transact.hpp"
#include "storage/sqlite/wake.hpp"
#include "storage/storage_time.hpp"

namespace reactor {

using sqlite::Connection;
using sqlite::count_columns;
using sqlite::header_columns;
using sqlite::kHeaderFields;
using sqlite::kJobSpecFields;
using sqlite::parameters;
using sqlite::SqliteError;
using sqlite::Statement;

namespace {

// The upsert of a header row: every column replaced.
const std::string& upsert_header_sql() {
  static const std::string sql = [] {
    std::string set;
    std::string rest = header_columns();
    for (std::size_t at = 0; at <= rest.size();) {
      std::size_t end = rest.find(", ", at);
      if (end == std::string::npos) end = rest.size();
      const std::string col = rest.substr(at, end - at);
      if (col != "id") set += (set.empty() ? "" : ", ") + col + " = excluded." + col;
      at = end + 2;
    }
    return "INSERT INTO runs(" + header_columns() + ") VALUES (" +
           parameters(count_columns(header_columns())) + ") ON CONFLICT(id) DO UPDATE SET " + set;
  }();
  return sql;
}

// The columns that place a run in its tree: they never change, and SQLite indexes one (root_id).
// The status, indexed too, changes seldom.
bool identity(std::string_view column) {
  return column == "id" || column == "root_id" || column == "parent_id";
}
bool identity_or_status(std::string_view column) { return identity(column) || column == "status"; }

// "UPDATE runs SET <every column but those `skip` names> = ? WHERE <where>".
std::string update_header_sql(bool (*skip)(std::string_view), const std::string& where) {
  std::string set;
  for (const std::string& column : records::field_names<RunHeaderRow>(kHeaderFields)) {
    if (!skip(column)) set += (set.empty() ? "" : ", ") + column + " = ?";
  }
  return "UPDATE runs SET " + set + " WHERE " + where;
}

// Rewrites the stored row of `h` (UPDATE `sql`, its columns those `skip` leaves, then `h.id`
// and, when `with_status`, `h.status`). Whether a row was rewritten.
bool update_header(Connection& db, const RunHeaderRow& h, const std::string& sql,
                   bool (*skip)(std::string_view), bool with_status) {
  Statement st = db.prepare(sql);
  sqlite::FieldBinder bind(st, 1);
  sqlite::Without<sqlite::FieldBinder> columns(bind, skip);
  kHeaderFields(h, columns);
  const int next = bind.next();
  st.bind_at(next, h.id);
  if (with_status) st.bind_at(next + 1, std::string_view(to_string(h.status)));
  st.run();
  return db.changes() > 0;
}

// Writes a header row, touching no index it need not: most writes are a checkpoint of a
// running run, whose row is rewritten in place with its status as it was (one page of `runs`,
// no index entry moved); a new status moves its entry in one index only (`runs_roots_status` for
// a root, `runs_children_status` for a run with a parent); a new run is inserted.
void write_header(Connection& db, const RunHeaderRow& h, bool is_new) {
  static const std::string keeping_status =
      update_header_sql(&identity_or_status, "id = ? AND status = ?");
  static const std::string with_status = update_header_sql(&identity, "id = ?");
  if (!is_new) {
    if (update_header(db, h, keeping_status, &identity_or_status, true)) return;
    if (update_header(db, h, with_status, &identity, false)) return;
  }
  Statement st = db.prepare(upsert_header_sql());
  sqlite::FieldBinder bind(st, 1);
  kHeaderFields(h, bind);
  st.run();
}

const std::string& insert_job_sql() {
  static const std::string sql = [] {
    const std::string columns = sqlite::columns_of<JobSpec>(kJobSpecFields);
    return "INSERT INTO jobs(" + columns + ") VALUES (" + parameters(count_columns(columns)) + ")";
  }();
  return sql;
}

// The commit contract's refusals past the shape check, in their order (docs/durability.md): the
// fence, in the same transaction as the writes — a writer whose token is no longer the newest
// writes nothing, so a paused zombie can never overwrite its successor's state —, then a
// start's collision — a start never overwrites a run.
Status refusal(Connection& db, const CommitRequest& c) {
  if (c.fencing_token != 0) {
    if (Status s = sqlite::check_fence(db, c.root_id, c.fencing_token); !s.ok()) return s;
  }
  if (c.create) {
    for (const auto& h : c.headers) {
      if (!h.parent_id.empty()) continue;
      Statement st = db.prepare("SELECT 1 FROM runs WHERE id = ?");
      st.bind(h.id);
      if (st.step()) return storage::run_exists(h.id);
    }
  }
  return Status::Ok();
}

// The key of a step's or a trace event's row: its run's key, its kind, then its index (rows.hpp;
// the commit's check kept the index under the run's limits, and so under the key's bits). The runs
// of one commit are few and its rows come run by run, so the last run's key is kept.
class RowKeys {
 public:
  explicit RowKeys(Connection& db) : db_(db) {}

  Result<std::int64_t> of(const std::string& run_id, sqlite::RowKind kind, std::uint64_t index) {
    if (run_id != run_id_) {
      std::optional<std::int64_t> key = sqlite::run_key(db_, run_id);
      if (!key) return Status::InvalidArgument("run " + run_id + ": rows of a run not stored");
      run_id_ = run_id;
      key_ = *key;
    }
    return sqlite::row_key(key_, kind, index);
  }

 private:
  Connection& db_;
  std::string run_id_;
  std::int64_t key_ = 0;
};

// Headers upserted, inputs inserted once, steps upserted, trace rows appended once per seq.
Status write_rows(Connection& db, const CommitRequest& c) {
  for (const auto& h : c.headers) write_header(db, h, c.create);
  for (const auto& i : c.inputs) {
    db.prepare("INSERT OR IGNORE INTO run_inputs(run_id, inputs) VALUES (?, ?)")
        .bind(i.run_id, i.inputs)
        .run();
  }
  RowKeys keys(db);
  for (const auto& s : c.steps) {
    Result<std::int64_t> key = keys.of(s.run_id, sqlite::RowKind::kStep, s.index);
    if (!key.ok()) return key.status();
    db.prepare(
          "INSERT INTO run_rows(key, body) VALUES (?, ?) "
          "ON CONFLICT(key) DO UPDATE SET body = excluded.body")
        .bind(*key, s.body)
        .run();
  }
  for (const auto& t : c.trace) {
    Result<std::int64_t> key = keys.of(t.root_id, sqlite::RowKind::kTrace, t.seq);
    if (!key.ok()) return key.status();
    db.prepare("INSERT OR IGNORE INTO run_rows(key, body) VALUES (?, ?)").bind(*key, t.body).run();
  }
  return Status::Ok();
}

void insert_job(Connection& db, const JobSpec& j) {
  Statement st = db.prepare(insert_job_sql());
  sqlite::FieldBinder bind(st, 1);
  kJobSpecFields(j, bind);
  st.run();
}

// The jobs enqueued; each redelivery's run made deliverable, or given its job.
void write_jobs(Connection& db, const CommitRequest& c, std::int64_t now) {
  for (const auto& j : c.enqueue) insert_job(db, j);
  for (const auto& j : c.redeliver) {
    db.prepare(
          "UPDATE jobs SET lease_owner = NULL, lease_expires = 0, run_at = min(run_at, ?) "
          "WHERE run_id = ? AND lease_owner IS NOT NULL")
        .bind(now, j.run_id)
        .run();
    Statement any = db.prepare("SELECT 1 FROM jobs WHERE run_id = ? LIMIT 1");
    any.bind(j.run_id);
    if (!any.step()) insert_job(db, j);
  }
}

// The ack of the job, if its delivery is the acker's or none; the release of the run lease, if
// the commit's fenced holder releases it.
void ack_and_release(Connection& db, const CommitRequest& c, std::int64_t now) {
  if (c.ack_job) {
    db.prepare("DELETE FROM jobs WHERE id = ? AND (lease_owner IS NULL OR lease_owner = ?)")
        .bind(*c.ack_job, c.ack_owner)
        .run();
  }
  if (c.release_lease && c.fencing_token != 0) {
    db.prepare(
          "UPDATE leases SET owner = NULL, expires_at = ? "
          "WHERE key = ? AND owner = ? AND token = ?")
        .bind(now, run_lease_key(c.root_id), c.lease_owner, c.fencing_token)
        .run();
  }
}

}  // namespace

Status SqliteBackend::commit(const CommitRequest& c) {
  if (Status s = storage::check_commit(c); !s.ok()) return s;
  storage::GroupedCommit mine(&c);
  groups_.write(mine);
  return mine.status;
}

// A run's last commit and the worker's next fetch share one write lock and one fsync. The
// commit's status is returned; the fetch only fills the delivery (an unreadable job is leased all
// the same, as fetch() leases it, and nothing delivered).
Result<std::optional<Delivery>> SqliteBackend::commit_then_fetch(const CommitRequest& c,
                                                                 const FetchRequest& f) {
  if (f.owner.empty()) {
    if (Status s = commit(c); !s.ok()) return s;
    return std::nullopt;
  }
  if (Status s = storage::check_commit(c); !s.ok()) return s;
  storage::GroupedCommit mine(&c, &f);
  groups_.write(mine);
  if (!mine.status.ok()) return mine.status;
  return std::move(mine.fetched);
}

// One transaction for the whole group. Several commits each go in a savepoint of their own: one
// refused (or failing in SQLite) is rolled back alone, and the others are written.
void SqliteBackend::write_group(std::span<storage::GroupedCommit* const> group) {
  const bool alone = group.size() == 1;
  bool wakes = false;
  Status s = transact(Mode::kWrite, "commit", [&](Connection& db) -> Status {
    wakes = false;  // this attempt's: a transaction retried whole starts again
    for (storage::GroupedCommit* g : group) {
      bool woke = false;
      g->status = alone ? apply_grouped(db, *g, woke) : apply_in_savepoint(db, *g, woke);
      wakes = wakes || woke;
    }
    return alone ? group[0]->status : Status::Ok();
  });
  if (!s.ok()) {
    for (storage::GroupedCommit* g : group) g->status = s;
  }
  // After the transaction, never inside it: a waiter woken before the job or the settle is
  // visible would read the old rows and sleep on.
  if (s.ok() && wakes) sqlite::touch_wake_file(wake_path_);
}

Status SqliteBackend::apply_in_savepoint(Connection& db, storage::GroupedCommit& g, bool& wakes) {
  db.exec("SAVEPOINT grouped_commit");
  Status s;
  try {
    s = apply_grouped(db, g, wakes);
  } catch (const SqliteError& e) {
    if (e.busy()) throw;  // the whole transaction is tried again
    s = sqlite::error_status(e, url_, "commit", 1);
  }
  if (!s.ok()) {
    db.exec("ROLLBACK TO grouped_commit");
    g.fetched.reset();
    wakes = false;
  }
  db.exec("RELEASE grouped_commit");
  return s;
}

Status SqliteBackend::apply_grouped(Connection& db, storage::GroupedCommit& g, bool& wakes) {
  g.fetched.reset();
  if (Status s = apply(db, *g.commit, wakes); !s.ok()) return s;
  if (g.fetch == nullptr) return Status::Ok();
  Status unreadable;
  take_due_job(db, *g.fetch, now_ms(), g.fetched, unreadable);
  if (!unreadable.ok()) g.fetched.reset();
  return Status::Ok();
}

Status SqliteBackend::apply(Connection& db, const CommitRequest& c, bool& wakes) {
  // This attempt's: a transaction retried whole starts again.
  wakes = !c.enqueue.empty() || !c.redeliver.empty();
  const std::int64_t now = now_ms();
  if (Status s = refusal(db, c); !s.ok()) return s;
  if (storage::is_progress(c)) {
    db.prepare("UPDATE runs SET deliveries = 0 WHERE id = ? AND deliveries <> 0")
        .bind(c.root_id)
        .run();
  }
  if (Status s = write_rows(db, c); !s.ok()) return s;
  write_jobs(db, c, now);
  if (Status s = write_maps(db, c, now, wakes); !s.ok()) return s;
  // Only a commit that coordinates reads the hold rows: a step's usual commit costs nothing more.
  if (c.coordinates()) sqlite::write_commit_holds(db, c);
  ack_and_release(db, c, now);
  return Status::Ok();
}

}  // namespace reactor
