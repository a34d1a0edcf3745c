#include "storage/sqlite/connection.hpp"

#include <sqlite3.h>

#include <algorithm>
#include <chrono>
#include <thread>
#include <utility>

namespace reactor::sqlite {

SqliteError::SqliteError(int code, const std::string& message)
    : std::runtime_error(message), code_(code) {}

bool SqliteError::busy() const {
  const int primary = code_ & 0xff;
  return primary == SQLITE_BUSY || primary == SQLITE_LOCKED;
}

// ---------------------------------------------------------------------------------------------
// Statement
// ---------------------------------------------------------------------------------------------

Statement::Statement(Connection& conn, sqlite3_stmt* stmt, bool* in_use)
    : conn_(&conn), stmt_(stmt), in_use_(in_use) {}

Statement::Statement(Statement&& other) noexcept
    : conn_(other.conn_), stmt_(std::exchange(other.stmt_, nullptr)), in_use_(other.in_use_) {}

Statement::~Statement() {
  if (!stmt_) return;
  if (!in_use_) {
    sqlite3_finalize(stmt_);
    return;
  }
  sqlite3_reset(stmt_);
  sqlite3_clear_bindings(stmt_);
  *in_use_ = false;
}

void Statement::bind_at(int index, std::int64_t v) {
  conn_->check(sqlite3_bind_int64(stmt_, index, v), "bind");
}

void Statement::bind_at(int index, std::string_view v) {
  // SQLITE_TRANSIENT: SQLite copies, so temporaries passed to bind() are safe.
  conn_->check(sqlite3_bind_text64(stmt_, index, v.data(), v.size(), SQLITE_TRANSIENT, SQLITE_UTF8),
               "bind");
}

void Statement::bind_at(int index, std::nullptr_t) {
  conn_->check(sqlite3_bind_null(stmt_, index), "bind");
}

bool Statement::step() {
  const int rc = sqlite3_step(stmt_);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  // The statement's error is also the connection's; reset so the cached statement is reusable.
  const std::string sql = sqlite3_sql(stmt_) ? sqlite3_sql(stmt_) : "";
  conn_->check(rc, sql);
  return false;
}

void Statement::run() {
  while (step()) {
  }
}

bool Statement::is_null(int col) const { return sqlite3_column_type(stmt_, col) == SQLITE_NULL; }

std::int64_t Statement::int64(int col) const { return sqlite3_column_int64(stmt_, col); }

std::string Statement::text(int col) const {
  const auto* p = sqlite3_column_text(stmt_, col);
  if (!p) return {};
  return std::string(reinterpret_cast<const char*>(p),
                     static_cast<std::size_t>(sqlite3_column_bytes(stmt_, col)));
}

// ---------------------------------------------------------------------------------------------
// Connection
// ---------------------------------------------------------------------------------------------

Connection::Connection(const std::string& path, Synchronous sync, int busy_timeout_ms)
    : sync_(sync) {
  // NOMUTEX: a connection is used by one thread at a time (the pool guarantees it).
  const int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX;
  const int rc = sqlite3_open_v2(path.c_str(), &db_, flags, nullptr);
  if (rc != SQLITE_OK) {
    std::string message = db_ ? sqlite3_errmsg(db_) : sqlite3_errstr(rc);
    sqlite3_close_v2(db_);
    db_ = nullptr;
    throw SqliteError(rc, "open " + path + ": " + message);
  }
  try {
    sqlite3_extended_result_codes(db_, 1);
    // Waits (with SQLite's own backoff) for another connection's write lock before BUSY escapes.
    // Its sleeps (1, 2, 5 … 100 ms) are long beside a commit, and that is what two workers
    // sharing a file want: a worker that finds the lock taken stays out of the way while the
    // other runs several commits (a handler that tried again every 20 µs to 1 ms halved W1).
    check(sqlite3_busy_timeout(db_, busy_timeout_ms), "busy_timeout");
    switch (sync) {
      case Synchronous::kFull:
        exec("PRAGMA synchronous=FULL");
        break;
      case Synchronous::kNormal:
        exec("PRAGMA synchronous=NORMAL");
        break;
      case Synchronous::kOff:
        exec("PRAGMA synchronous=OFF");
        break;
    }
  } catch (...) {
    close();
    throw;
  }
}

Connection::~Connection() { close(); }

void Connection::relax_sync(bool relaxed) {
  if (sync_ != Synchronous::kFull || relaxed == relaxed_) return;
  exec(relaxed ? "PRAGMA synchronous=NORMAL" : "PRAGMA synchronous=FULL");
  relaxed_ = relaxed;
}

void Connection::close() noexcept {
  for (auto& [sql, cached] : cache_) sqlite3_finalize(cached.stmt);
  cache_.clear();
  sqlite3_close_v2(db_);
  db_ = nullptr;
}

void Connection::check(int rc, std::string_view what) const {
  if (rc == SQLITE_OK || rc == SQLITE_ROW || rc == SQLITE_DONE) return;
  std::string message(what);
  message += ": ";
  message += sqlite3_errmsg(db_);
  throw SqliteError(rc, message);
}

void Connection::exec(const std::string& sql) {
  char* err = nullptr;
  const int rc = sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &err);
  if (rc != SQLITE_OK) {
    std::string message = sql + ": " + (err ? err : sqlite3_errstr(rc));
    sqlite3_free(err);
    throw SqliteError(rc, message);
  }
}

Statement Connection::prepare(const std::string& sql) {
  auto [it, inserted] = cache_.try_emplace(sql);
  CachedStatement& cached = it->second;
  if (inserted) {
    const int rc = sqlite3_prepare_v3(db_, sql.c_str(), static_cast<int>(sql.size() + 1),
                                      SQLITE_PREPARE_PERSISTENT, &cached.stmt, nullptr);
    if (rc != SQLITE_OK) {
      cache_.erase(it);
      check(rc, sql);
    }
  }
  if (cached.in_use) {
    // The same SQL is already being stepped on this connection: use a one-off statement.
    sqlite3_stmt* stmt = nullptr;
    check(sqlite3_prepare_v2(db_, sql.c_str(), static_cast<int>(sql.size() + 1), &stmt, nullptr),
          sql);
    return Statement(*this, stmt, /*in_use=*/nullptr);
  }
  cached.in_use = true;
  return Statement(*this, cached.stmt, &cached.in_use);
}

bool Connection::in_transaction() const { return sqlite3_get_autocommit(db_) == 0; }

void Connection::rollback_quietly() noexcept {
  if (in_transaction()) sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
}

std::int64_t Connection::last_insert_rowid() const { return sqlite3_last_insert_rowid(db_); }

int Connection::changes() const { return sqlite3_changes(db_); }

// ---------------------------------------------------------------------------------------------
// ConnectionPool
// ---------------------------------------------------------------------------------------------

ConnectionPool::ConnectionPool(std::string path, Synchronous sync, int busy_timeout_ms)
    : path_(std::move(path)), sync_(sync), busy_timeout_ms_(busy_timeout_ms) {}

ConnectionPool::Handle::~Handle() {
  if (!conn_) return;
  conn_->rollback_quietly();
  std::lock_guard lock(pool_->mu_);
  pool_->free_.push_back(std::move(conn_));
}

ConnectionPool::Handle ConnectionPool::acquire() {
  {
    std::lock_guard lock(mu_);
    if (!free_.empty()) {
      auto conn = std::move(free_.back());
      free_.pop_back();
      return Handle(this, std::move(conn));
    }
  }
  return Handle(this, std::make_unique<Connection>(path_, sync_, busy_timeout_ms_));
}

}  // namespace reactor::sqlite
