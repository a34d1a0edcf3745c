// RAII access to SQLite: one Connection owns a sqlite3* and a cache of its
// prepared statements; a Statement is a borrowed, auto-reset handle to one of
// them; a ConnectionPool hands each concurrently using thread its own
// Connection. Errors are thrown as SqliteError and turned into a Status at the
// SqliteBackend boundary (they never leave src/storage/sqlite/).
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <unordered_map>
#include <vector>

struct sqlite3;
struct sqlite3_stmt;

namespace reactor::sqlite {

// PRAGMA synchronous for every connection. kFull: a commit is on disk when it
// returns. kNormal: WAL commits may be lost on power failure (never corrupted).
// kOff: benchmarks only.
enum class Synchronous { kFull, kNormal, kOff };

class SqliteError : public std::runtime_error {
 public:
  SqliteError(int code, const std::string& message);
  int code() const { return code_; }  // extended result code
  // SQLITE_BUSY / SQLITE_LOCKED: another connection holds the lock; the whole
  // transaction may be retried.
  bool busy() const;

 private:
  int code_;
};

class Connection;

// A prepared statement borrowed from a Connection's cache. Bind, step, read
// columns; reset and unbound when the handle goes away. Not copyable.
class Statement {
 public:
  // `in_use` is the cache slot's flag, cleared when this handle goes away; nullptr
  // for a one-off statement, finalized instead.
  Statement(Connection& conn, sqlite3_stmt* stmt, bool* in_use);
  Statement(Statement&& other) noexcept;
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;
  Statement& operator=(Statement&&) = delete;
  ~Statement();

  // Binds the arguments to parameters 1..n (integers, strings, nullptr = NULL).
  template <typename... Args>
  Statement& bind(const Args&... args) {
    int index = 0;
    (bind_at(++index, args), ...);
    return *this;
  }

  // Binds one parameter by its 1-based index.
  void bind_at(int index, std::int64_t v);
  void bind_at(int index, std::string_view v);
  void bind_at(int index, std::nullptr_t);
  void bind_at(int index, const std::string& v) { bind_at(index, std::string_view(v)); }
  void bind_at(int index, const char* v) { bind_at(index, std::string_view(v)); }
  template <typename T, typename = std::enable_if_t<std::is_integral_v<T>>>
  void bind_at(int index, T v) {
    bind_at(index, static_cast<std::int64_t>(v));
  }

  // One step: true when a row is available, false when done.
  bool step();
  // Steps until done (for statements that return no rows).
  void run();

  bool is_null(int col) const;
  std::int64_t int64(int col) const;
  std::string text(int col) const;  // NULL reads as ""

 private:
  Connection* conn_;
  sqlite3_stmt* stmt_;
  bool* in_use_;
};

class Connection {
 public:
  // Opens (creating if missing) the database file and applies the
  // per-connection settings: busy timeout, synchronous, extended error codes.
  Connection(const std::string& path, Synchronous sync, int busy_timeout_ms);
  ~Connection();
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  // Runs one or more statements that return no rows the caller needs.
  void exec(const std::string& sql);
  // The cached prepared statement for `sql` (prepared on first use).
  Statement prepare(const std::string& sql);

  // Outside a transaction: whether the next ones may skip the commit's fsync (PRAGMA
  // synchronous=NORMAL) though the connection was opened kFull. Issues the pragma only when
  // that changes; a connection opened kNormal or kOff is left as it is.
  void relax_sync(bool relaxed);

  bool in_transaction() const;
  // Rolls back an open transaction, ignoring errors (used on the error path).
  void rollback_quietly() noexcept;
  std::int64_t last_insert_rowid() const;
  int changes() const;

  // Throws SqliteError for a non-OK result code, with `what` and the
  // connection's error message.
  void check(int rc, std::string_view what) const;

 private:
  struct CachedStatement {
    sqlite3_stmt* stmt = nullptr;
    bool in_use = false;
  };

  void close() noexcept;

  sqlite3* db_ = nullptr;
  Synchronous sync_ = Synchronous::kFull;  // as opened
  bool relaxed_ = false;                   // kFull lowered to NORMAL by relax_sync
  // Node-based: a CachedStatement never moves, so Statement may point at its flag.
  std::unordered_map<std::string, CachedStatement> cache_;
};

// Connections for one database file: each thread that needs one takes a free
// one (or opens a new one) and gives it back when done. Thread-safe.
class ConnectionPool {
 public:
  ConnectionPool(std::string path, Synchronous sync, int busy_timeout_ms);

  class Handle {
   public:
    Handle(ConnectionPool* pool, std::unique_ptr<Connection> conn)
        : pool_(pool), conn_(std::move(conn)) {}
    Handle(Handle&&) noexcept = default;
    Handle& operator=(Handle&&) = delete;
    ~Handle();
    Connection& operator*() const { return *conn_; }
    Connection* operator->() const { return conn_.get(); }
    // Closes the connection instead of returning it (after an error that may
    // have left it unusable).
    void discard() { conn_.reset(); }

   private:
    ConnectionPool* pool_;
    std::unique_ptr<Connection> conn_;
  };

  // Throws SqliteError if a new connection cannot be opened.
  Handle acquire();

 private:
  const std::string path_;
  const Synchronous sync_;
  const int busy_timeout_ms_;
  std::mutex mu_;
  std::vector<std::unique_ptr<Connection>> free_;
};

}  // namespace reactor::sqlite
