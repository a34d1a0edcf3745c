#include "storage/sqlite/sqlite_backend.hpp"

#include <sqlite3.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <random>
#include <stdexcept>
#include <thread>

#include "records/fields.hpp"
#include "storage/commit_check.hpp"
#include "storage/sqlite/row_fields.hpp"
#include "storage/sqlite/sqlite_schema.hpp"
#include "storage/storage_time.hpp"

namespace reactor {

using sqlite::Connection;
using sqlite::SqliteError;
using sqlite::Statement;

namespace {

// A header row's fields and a job's, as the columns of `runs` and `jobs` (row_fields.hpp).
constexpr auto kHeaderFields = [](auto& h, auto& v) { records::header_row_fields(h, v); };
constexpr auto kJobSpecFields = [](auto& j, auto& v) { records::fields(j, v); };
constexpr auto kJobFields = [](auto& j, auto& v) { records::fields(j, v); };

const std::string& header_columns() {
  static const std::string columns = sqlite::columns_of<RunHeaderRow>(kHeaderFields);
  return columns;
}

// "?, ?, …" for n parameters.
std::string parameters(std::size_t n) {
  std::string out;
  for (std::size_t i = 0; i < n; ++i) out += i ? ", ?" : "?";
  return out;
}

std::size_t count_columns(const std::string& list) {
  return static_cast<std::size_t>(std::count(list.begin(), list.end(), ',')) + 1;
}

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

const std::string& insert_job_sql() {
  static const std::string sql = [] {
    const std::string columns = sqlite::columns_of<JobSpec>(kJobSpecFields);
    return "INSERT INTO jobs(" + columns + ") VALUES (" + parameters(count_columns(columns)) + ")";
  }();
  return sql;
}

// SQL list of the statuses that end a run, for purge_expired.
std::string terminal_status_list() {
  std::string out;
  for (RunStatus s : all_run_statuses()) {
    if (!is_terminal(s)) continue;
    if (!out.empty()) out += ", ";
    out += '\'';
    out += to_string(s);
    out += '\'';
  }
  return out;
}

// Reads the columns of header_columns(). Corruption for a status this build does not know.
Status read_header(const Statement& st, RunHeaderRow& h) {
  try {
    sqlite::FieldColumns columns(st, 0);
    kHeaderFields(h, columns);
  } catch (const std::invalid_argument& e) {
    return Status::Corruption("run " + h.id + ": " + e.what());
  }
  return Status::Ok();
}

Status read_headers(Statement& st, std::vector<RunHeaderRow>& out) {
  while (st.step()) {
    RunHeaderRow h;
    if (Status s = read_header(st, h); !s.ok()) return s;
    out.push_back(std::move(h));
  }
  return Status::Ok();
}

std::uint64_t next_fencing_token(Connection& db) {
  Statement st = db.prepare(
      "UPDATE counters SET value = value + 1 WHERE name = 'fencing_token' RETURNING value");
  if (!st.step()) throw SqliteError(SQLITE_CORRUPT, "counters: fencing_token row is missing");
  return static_cast<std::uint64_t>(st.int64(0));
}

// Takes `key` for `owner` when its lease is free (no row, released or expired), with a token
// from the global counter. Otherwise `out` describes the holder.
bool try_acquire(Connection& db, const std::string& key, const std::string& owner,
                 std::int64_t ttl_ms, std::int64_t now, Lease& out) {
  {
    Statement st = db.prepare("SELECT owner, token, expires_at FROM leases WHERE key = ?");
    st.bind(key);
    if (st.step() && !st.is_null(0) && st.int64(2) > now) {
      out = Lease{key, st.text(0), static_cast<std::uint64_t>(st.int64(1)), st.int64(2)};
      return false;
    }
  }
  out = Lease{key, owner, next_fencing_token(db), now + ttl_ms};
  db.prepare(
        "INSERT INTO leases(key, owner, token, expires_at) VALUES (?, ?, ?, ?) "
        "ON CONFLICT(key) DO UPDATE SET owner = excluded.owner, token = excluded.token, "
        "expires_at = excluded.expires_at")
      .bind(key, owner, out.token, out.expires_at_ms)
      .run();
  return true;
}

Status error_status(const SqliteError& e, const std::string& url, const char* what, int attempts) {
  std::string message = url + ": " + what + ": " + e.what();
  switch (e.code() & 0xff) {
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
      return Status::Unavailable(message + " (still locked after " + std::to_string(attempts) +
                                 " attempts)");
    case SQLITE_CORRUPT:
    case SQLITE_NOTADB:
      return Status::Corruption(message);
    case SQLITE_CANTOPEN:
    case SQLITE_IOERR:
    case SQLITE_FULL:
    case SQLITE_READONLY:
    case SQLITE_PERM:
    case SQLITE_NOLFS:
    case SQLITE_PROTOCOL:
    case SQLITE_AUTH:
      return Status::Unavailable(message);
    default:
      return Status::Internal(message);
  }
}

// Between whole-transaction retries: short, growing, jittered, so two processes that collided
// do not collide again in lock step. Real time on purpose: this waits for another process's
// lock, not for anything the injected clock models.
void backoff(int attempt) {
  thread_local std::minstd_rand rng{std::random_device{}()};
  const int cap_ms = std::min(1 << std::min(attempt, 6), 50);
  std::uniform_int_distribution<int> jitter(0, cap_ms * 1000);
  std::this_thread::sleep_for(std::chrono::microseconds(cap_ms * 500 + jitter(rng) / 2));
}

// A root run and all its children, as load_run returns them, inside the
// caller's transaction.
Status read_run(Connection& db, const std::string& root_id, StoredRun& run) {
  run = StoredRun{};
  {
    Statement st =
        db.prepare("SELECT " + header_columns() + " FROM runs WHERE id = ? AND parent_id = ''");
    st.bind(root_id);
    if (Status r = read_headers(st, run.headers); !r.ok()) return r;
  }
  if (run.headers.empty()) return Status::NotFound("run " + root_id + " not found");
  {
    Statement st = db.prepare("SELECT " + header_columns() +
                              " FROM runs WHERE root_id = ?1 AND id <> ?1 ORDER BY id");
    st.bind(root_id);
    if (Status r = read_headers(st, run.headers); !r.ok()) return r;
  }
  // Rows of the root first, then of each child by id: the order of run.headers.
  {
    Statement st = db.prepare(
        "SELECT run_id, inputs FROM run_inputs "
        "WHERE run_id IN (SELECT id FROM runs WHERE root_id = ?1 OR id = ?1) "
        "ORDER BY run_id <> ?1, run_id");
    st.bind(root_id);
    while (st.step()) run.inputs.push_back({st.text(0), st.text(1)});
  }
  {
    Statement st = db.prepare(
        "SELECT run_id, idx, body FROM steps "
        "WHERE run_id IN (SELECT id FROM runs WHERE root_id = ?1 OR id = ?1) "
        "ORDER BY run_id <> ?1, run_id, idx");
    st.bind(root_id);
    while (st.step()) {
      run.steps.push_back({st.text(0), static_cast<std::uint32_t>(st.int64(1)), st.text(2)});
    }
  }
  {
    Statement st = db.prepare("SELECT seq, body FROM trace WHERE root_id = ? ORDER BY seq");
    st.bind(root_id);
    while (st.step()) {
      run.trace.push_back({root_id, static_cast<std::uint64_t>(st.int64(0)), st.text(1)});
    }
  }
  {
    Statement st = db.prepare("SELECT token FROM leases WHERE key = ?");
    st.bind(run_lease_key(root_id));
    if (st.step()) run.fencing_token = static_cast<std::uint64_t>(st.int64(0));
  }
  return Status::Ok();
}

}  // namespace

SqliteBackend::SqliteBackend(std::string url, const SqliteOptions& options,
                             std::shared_ptr<Clock> clock)
    : url_(std::move(url)),
      options_(options),
      clock_(clock ? std::move(clock) : SystemClock::instance()),
      pool_(options.path, options.synchronous, options.busy_timeout_ms) {}

std::int64_t SqliteBackend::now_ms() const { return storage::now_ms(*clock_); }

std::string SqliteBackend::describe() const { return url_; }

template <typename Body>
Status SqliteBackend::transact(Mode mode, const char* what, Body&& body) {
  const int max_attempts = std::max(1, options_.max_attempts);
  for (int attempt = 1;; ++attempt) {
    std::optional<sqlite::ConnectionPool::Handle> conn;
    try {
      conn.emplace(pool_.acquire());
      Connection& db = **conn;
      if (mode == Mode::kWrite) {
        // IMMEDIATE takes the write lock up front (waiting up to busy_timeout), so a writer
        // never fails half way through on a lock upgrade another connection won.
        db.exec("BEGIN IMMEDIATE");
      } else {
        db.exec("BEGIN");
      }
      Status s = body(db);
      if (!s.ok()) {
        db.rollback_quietly();
        return s;
      }
      db.exec("COMMIT");
      return Status::Ok();
    } catch (const SqliteError& e) {
      if (conn) {
        (*conn)->rollback_quietly();
        if (!e.busy()) conn->discard();  // it may be unusable; the next caller opens a fresh one
      }
      if (e.busy() && attempt < max_attempts) {
        conn.reset();
        backoff(attempt);
        continue;
      }
      return error_status(e, url_, what, attempt);
    } catch (const std::exception& e) {
      if (conn) (*conn)->rollback_quietly();
      return Status::Internal(url_ + ": " + what + ": " + e.what());
    }
  }
}

Status SqliteBackend::open(const std::string& url, const SqliteOptions& options,
                           std::shared_ptr<Clock> clock, std::unique_ptr<Backend>& out) {
  namespace fs = std::filesystem;
  if (options.path.empty()) {
    return Status::InvalidArgument("cannot open " + url + ": no database file named");
  }
  const fs::path dir = fs::path(options.path).parent_path();
  std::error_code ec;
  if (!dir.empty() && !fs::is_directory(dir, ec)) {
    return Status::Unavailable("cannot open " + url + ": directory " + dir.string() +
                               " does not exist");
  }

  std::unique_ptr<SqliteBackend> backend(new SqliteBackend(url, options, std::move(clock)));

  // WAL lets readers work while one writer commits, across processes. The mode is stored in the
  // file, so this only changes something on the first open; it must run outside a transaction.
  std::string journal_mode;
  Status s;
  for (int attempt = 1; attempt <= std::max(1, options.max_attempts); ++attempt) {
    try {
      auto conn = backend->pool_.acquire();
      Statement st = conn->prepare("PRAGMA journal_mode=WAL");
      journal_mode = st.step() ? st.text(0) : "";
      s = Status::Ok();
      break;
    } catch (const SqliteError& e) {
      s = error_status(e, url, "journal_mode", attempt);
      if (!e.busy()) break;
      backoff(attempt);
    }
  }
  if (s.ok() && journal_mode != "wal") {
    s = Status::Unavailable(url + ": the file system does not support WAL (journal_mode is '" +
                            journal_mode + "')");
  }
  if (s.ok()) {
    s = backend->transact(Mode::kWrite, "migrate", [&url](Connection& db) -> Status {
      try {
        sqlite::migrate(db);
      } catch (const sqlite::SchemaTooNew& e) {
        return Status::Unavailable(url + ": " + e.what());
      }
      return Status::Ok();
    });
  }
  // Every message above starts with the URL.
  if (!s.ok()) return Status::Unavailable("cannot open " + s.message());
  out = std::move(backend);
  return Status::Ok();
}

Status SqliteBackend::commit(const CommitRequest& c) {
  if (Status s = storage::check_commit(c); !s.ok()) return s;
  return transact(Mode::kWrite, "commit", [&](Connection& db) -> Status {
    const std::int64_t now = now_ms();
    // Fence first, in the same transaction as the writes: a writer whose token is no longer
    // the newest writes nothing, so a paused zombie can never overwrite its successor's state.
    if (c.fencing_token != 0) {
      Statement st = db.prepare("SELECT token FROM leases WHERE key = ?");
      st.bind(run_lease_key(c.root_id));
      if (!st.step() || static_cast<std::uint64_t>(st.int64(0)) != c.fencing_token) {
        return Status::LeaseLost("run " + c.root_id + ": fencing token " +
                                 std::to_string(c.fencing_token) + " is no longer the newest");
      }
    }
    for (const auto& h : c.headers) {
      Statement st = db.prepare(upsert_header_sql());
      sqlite::FieldBinder bind(st, 1);
      kHeaderFields(h, bind);
      st.run();
    }
    for (const auto& i : c.inputs) {
      db.prepare("INSERT OR IGNORE INTO run_inputs(run_id, inputs) VALUES (?, ?)")
          .bind(i.run_id, i.inputs)
          .run();
    }
    for (const auto& s : c.steps) {
      db.prepare(
            "INSERT INTO steps(run_id, idx, body) VALUES (?, ?, ?) "
            "ON CONFLICT(run_id, idx) DO UPDATE SET body = excluded.body")
          .bind(s.run_id, s.index, s.body)
          .run();
    }
    for (const auto& t : c.trace) {
      db.prepare("INSERT OR IGNORE INTO trace(root_id, seq, body) VALUES (?, ?, ?)")
          .bind(t.root_id, t.seq, t.body)
          .run();
    }
    for (const auto& j : c.enqueue) {
      Statement st = db.prepare(insert_job_sql());
      sqlite::FieldBinder bind(st, 1);
      kJobSpecFields(j, bind);
      st.run();
    }
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
    return Status::Ok();
  });
}

Status SqliteBackend::load_run(const std::string& root_id, StoredRun& out) {
  out = StoredRun{};
  StoredRun run;
  Status s =
      transact(Mode::kRead, "load_run", [&](Connection& db) { return read_run(db, root_id, run); });
  if (s.ok()) out = std::move(run);
  return s;
}

Status SqliteBackend::load_header(const std::string& run_id, RunHeaderRow& out) {
  return transact(Mode::kRead, "load_header", [&](Connection& db) -> Status {
    Statement st = db.prepare("SELECT " + header_columns() + " FROM runs WHERE id = ?");
    st.bind(run_id);
    if (!st.step()) return Status::NotFound("run " + run_id + " not found");
    return read_header(st, out);
  });
}

Status SqliteBackend::list_runs(const RunFilter& filter, std::vector<RunHeaderRow>& out) {
  out.clear();
  std::string sql = "SELECT " + header_columns() + " FROM runs WHERE parent_id = ''";
  if (filter.status) sql += " AND status = ?";
  if (filter.reactor) sql += " AND reactor = ?";
  sql += " ORDER BY updated_at DESC, id DESC LIMIT ?";
  std::vector<RunHeaderRow> rows;
  Status s = transact(Mode::kRead, "list_runs", [&](Connection& db) -> Status {
    rows.clear();
    Statement st = db.prepare(sql);
    int index = 0;
    if (filter.status) st.bind_at(++index, to_string(*filter.status));
    if (filter.reactor) st.bind_at(++index, *filter.reactor);
    st.bind_at(++index, static_cast<std::int64_t>(std::min<std::size_t>(filter.limit, INT64_MAX)));
    return read_headers(st, rows);
  });
  if (s.ok()) out = std::move(rows);
  return s;
}

Status SqliteBackend::fetch(const FetchRequest& f, std::optional<Delivery>& out) {
  const auto& [queues, owner, visibility, run_lease_ttl] = f;
  out.reset();
  if (owner.empty()) return Status::InvalidArgument("fetch: owner must not be empty");
  if (queues.empty()) return Status::Ok();

  std::string sql = "SELECT " + sqlite::columns_of<Job>(kJobFields) + " FROM jobs WHERE queue IN (";
  for (std::size_t i = 0; i < queues.size(); ++i) {
    sql += (i ? ", ?" : "?") + std::to_string(i + 2);
  }
  sql +=
      ") AND run_at <= ?1 AND (lease_owner IS NULL OR lease_expires <= ?1) "
      "ORDER BY run_at, id LIMIT 1";

  const std::int64_t now = now_ms();
  auto select_due = [&](Connection& db) {
    Statement st = db.prepare(sql);
    st.bind_at(1, now);
    for (std::size_t i = 0; i < queues.size(); ++i) {
      st.bind_at(static_cast<int>(i + 2), queues[i]);
    }
    return st;
  };

  // An idle poll looks in a read transaction first, so workers waiting for work never queue
  // for the write lock that committing workers need.
  bool any_due = false;
  Status probe = transact(Mode::kRead, "fetch", [&](Connection& db) -> Status {
    any_due = select_due(db).step();
    return Status::Ok();
  });
  if (!probe.ok() || !any_due) return probe;

  std::optional<Delivery> delivery;
  Status unreadable;  // a job row whose kind this build cannot read
  Status s = transact(Mode::kWrite, "fetch", [&](Connection& db) -> Status {
    delivery.reset();
    unreadable = Status::Ok();
    Delivery d;
    std::string bad_kind;  // why the job row cannot be read, if it cannot
    {
      Statement st = select_due(db);
      if (!st.step()) return Status::Ok();  // other workers took them since the probe
      try {
        sqlite::FieldColumns columns(st, 0);  // the id comes first, whatever fails after it
        kJobFields(d.job, columns);
      } catch (const std::invalid_argument& e) {
        bad_kind = e.what();
      }
    }
    ++d.job.deliveries;
    d.job.lease_owner = owner;
    d.job.lease_expires_ms = now + storage::to_ms(visibility);
    db.prepare(
          "UPDATE jobs SET lease_owner = ?, lease_expires = ?, deliveries = deliveries + 1 "
          "WHERE id = ?")
        .bind(owner, d.job.lease_expires_ms, d.job.id)
        .run();
    if (!bad_kind.empty()) {
      // Leased all the same, so an unreadable job steps aside for its visibility timeout
      // instead of blocking the head of the queue on every fetch.
      unreadable = Status::Corruption("job " + std::to_string(d.job.id) + ": " + bad_kind);
      return Status::Ok();
    }
    d.run_leased = try_acquire(db, run_lease_key(d.job.spec.run_id), owner,
                               storage::to_ms(run_lease_ttl), now, d.run_lease);
    if (d.run_leased) {
      // The run comes with its lease; an enqueued root is filed as running
      // by this delivery (Delivery::run_started). A run that cannot be read
      // here is left to the worker, which loads it and meets that itself.
      StoredRun run;
      if (read_run(db, d.job.spec.run_id, run).ok()) {
        if (run.headers.front().status == RunStatus::kEnqueued) {
          db.prepare("UPDATE runs SET status = ?, updated_at = ? WHERE id = ? AND parent_id = ''")
              .bind(std::string(to_string(RunStatus::kRunning)), now, d.job.spec.run_id)
              .run();
          d.run_started = true;
        }
        d.run = std::move(run);
      }
    }
    delivery = std::move(d);
    return Status::Ok();
  });
  if (!s.ok()) return s;
  if (!unreadable.ok()) return unreadable;
  out = std::move(delivery);
  return Status::Ok();
}

Status SqliteBackend::release_job(std::int64_t job_id, const std::string& owner, Duration delay) {
  if (owner.empty()) return Status::Ok();
  return transact(Mode::kWrite, "release_job", [&](Connection& db) -> Status {
    db.prepare(
          "UPDATE jobs SET lease_owner = NULL, lease_expires = 0, run_at = ? "
          "WHERE id = ? AND lease_owner = ?")
        .bind(now_ms() + storage::to_ms(delay), job_id, owner)
        .run();
    return Status::Ok();
  });
}

Status SqliteBackend::has_job(const std::string& run_id, bool& out) {
  return transact(Mode::kRead, "has_job", [&](Connection& db) -> Status {
    Statement st = db.prepare("SELECT 1 FROM jobs WHERE run_id = ? LIMIT 1");
    st.bind(run_id);
    out = st.step();
    return Status::Ok();
  });
}

Status SqliteBackend::acquire_lease(const std::string& key, const std::string& owner, Duration ttl,
                                    bool& granted, Lease& out) {
  if (key.empty() || owner.empty()) {
    return Status::InvalidArgument("acquire_lease: key and owner must not be empty");
  }
  return transact(Mode::kWrite, "acquire_lease", [&](Connection& db) -> Status {
    granted = try_acquire(db, key, owner, storage::to_ms(ttl), now_ms(), out);
    return Status::Ok();
  });
}

Status SqliteBackend::extend_lease(const std::string& key, const std::string& owner,
                                   std::uint64_t token, Duration ttl) {
  return transact(Mode::kWrite, "extend_lease", [&](Connection& db) -> Status {
    db.prepare("UPDATE leases SET expires_at = ? WHERE key = ? AND owner = ? AND token = ?")
        .bind(now_ms() + storage::to_ms(ttl), key, owner, token)
        .run();
    if (db.changes() == 0) {
      return Status::LeaseLost("lease " + key + " is no longer held by " + owner + " (token " +
                               std::to_string(token) + ")");
    }
    return Status::Ok();
  });
}

Status SqliteBackend::release_lease(const std::string& key, const std::string& owner,
                                    std::uint64_t token) {
  return transact(Mode::kWrite, "release_lease", [&](Connection& db) -> Status {
    db.prepare(
          "UPDATE leases SET owner = NULL, expires_at = ? "
          "WHERE key = ? AND owner = ? AND token = ?")
        .bind(now_ms(), key, owner, token)
        .run();
    return Status::Ok();
  });
}

Status SqliteBackend::find_orphans(std::size_t limit, std::vector<RunHeaderRow>& out) {
  out.clear();
  std::vector<RunHeaderRow> rows;
  Status s = transact(Mode::kRead, "find_orphans", [&](Connection& db) -> Status {
    rows.clear();
    Statement st =
        db.prepare("SELECT " + header_columns() +
                   " FROM runs r WHERE r.parent_id = '' AND ("
                   "  (r.status IN ('running', 'rolling_back') AND NOT EXISTS ("
                   "     SELECT 1 FROM leases l WHERE l.key = 'run:' || r.id"
                   "     AND l.owner IS NOT NULL AND l.expires_at > ?1))"
                   "  OR ((r.status = 'enqueued' OR (r.status = 'waiting' AND r.wake_at > 0))"
                   "     AND NOT EXISTS (SELECT 1 FROM jobs j WHERE j.run_id = r.id)))"
                   " ORDER BY r.updated_at, r.id LIMIT ?2");
    st.bind(now_ms(), static_cast<std::int64_t>(std::min<std::size_t>(limit, INT64_MAX)));
    return read_headers(st, rows);
  });
  if (s.ok()) out = std::move(rows);
  return s;
}

Status SqliteBackend::purge_expired(std::size_t limit, std::size_t& purged) {
  purged = 0;
  std::size_t count = 0;
  Status s = transact(Mode::kWrite, "purge_expired", [&](Connection& db) -> Status {
    count = 0;
    const std::int64_t now = now_ms();
    std::vector<std::string> roots;
    {
      Statement st = db.prepare(
          "SELECT id FROM runs WHERE parent_id = '' AND status IN (" + terminal_status_list() +
          ") AND expires_at > 0 AND expires_at <= ? ORDER BY expires_at, id LIMIT ?");
      st.bind(now, static_cast<std::int64_t>(std::min<std::size_t>(limit, INT64_MAX)));
      while (st.step()) roots.push_back(st.text(0));
    }
    for (const auto& root : roots) {
      db.prepare(
            "DELETE FROM steps WHERE run_id IN (SELECT id FROM runs WHERE root_id = ?1 OR id = ?1)")
          .bind(root)
          .run();
      db.prepare(
            "DELETE FROM run_inputs "
            "WHERE run_id IN (SELECT id FROM runs WHERE root_id = ?1 OR id = ?1)")
          .bind(root)
          .run();
      db.prepare("DELETE FROM trace WHERE root_id = ?").bind(root).run();
      db.prepare("DELETE FROM jobs WHERE run_id = ?").bind(root).run();
      db.prepare("DELETE FROM runs WHERE root_id = ?1 OR id = ?1").bind(root).run();
      db.prepare("DELETE FROM leases WHERE key = ? AND (owner IS NULL OR expires_at <= ?)")
          .bind(run_lease_key(root), now)
          .run();
      ++count;
    }
    // Tokens come from one counter, so deleting a dead lease row never lets a token repeat.
    db.prepare(
          "DELETE FROM leases WHERE substr(key, 1, 4) <> 'run:' "
          "AND (owner IS NULL OR expires_at <= ?)")
        .bind(now)
        .run();
    return Status::Ok();
  });
  if (s.ok()) purged = count;
  return s;
}

}  // namespace reactor
