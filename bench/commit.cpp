// reactor-bench commit: how many SQLite transactions this machine commits
// per second, with the settings the SQLite backend uses (WAL,
// synchronous=FULL, busy timeout 5 s), each one upsert of a 2 KB value. It is
// the ceiling any engine that commits once per step can approach here, and
// the baseline of the W1 ratio durable-steps/s ÷ commits/s.
#include "commit.hpp"

#include <sqlite3.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "support.hpp"

namespace reactor_bench {

namespace {

// A minimal owner of one connection and its statements, so that every error
// path closes them. Raw SQLite on purpose: the baseline excludes Reactor.
class RawDatabase {
 public:
  explicit RawDatabase(const std::string& path) {
    if (sqlite3_open(path.c_str(), &db_) != SQLITE_OK) fail("open " + path);
  }
  ~RawDatabase() {
    for (auto* st : statements_) sqlite3_finalize(st);
    sqlite3_close_v2(db_);
  }
  RawDatabase(const RawDatabase&) = delete;
  RawDatabase& operator=(const RawDatabase&) = delete;

  bool ok() const { return error_.empty(); }
  const std::string& error() const { return error_; }

  void exec(const char* sql) {
    if (ok() && sqlite3_exec(db_, sql, nullptr, nullptr, nullptr) != SQLITE_OK) fail(sql);
  }
  sqlite3_stmt* prepare(const char* sql) {
    sqlite3_stmt* st = nullptr;
    if (ok() && sqlite3_prepare_v2(db_, sql, -1, &st, nullptr) != SQLITE_OK) fail(sql);
    if (st != nullptr) statements_.push_back(st);
    return st;
  }
  // Runs a prepared statement that returns no rows, then resets it.
  void run(sqlite3_stmt* st) {
    if (!ok()) return;
    if (sqlite3_step(st) != SQLITE_DONE) fail(sqlite3_sql(st));
    sqlite3_reset(st);
  }
  sqlite3* handle() { return db_; }

 private:
  void fail(const std::string& what) {
    error_ = what + ": " + (db_ ? sqlite3_errmsg(db_) : "out of memory");
  }

  sqlite3* db_ = nullptr;
  std::vector<sqlite3_stmt*> statements_;
  std::string error_;
};

constexpr int kWarmUpCommits = 50;
constexpr int kDistinctKeys = 256;  // upserts, not an ever-growing table

}  // namespace

CommitRate measure_commit_rate(const CommitRateOptions& o) {
  CommitRate r;
  ScratchDir dir(o.dir);
  if (dir.path().empty()) {
    r.error = dir.error();
    return r;
  }
  r.file_system = file_system_of(dir.path());
  RawDatabase db(dir.path() + "/commit.db");
  if (db.ok()) sqlite3_busy_timeout(db.handle(), 5000);
  db.exec("PRAGMA journal_mode=WAL");
  db.exec("PRAGMA synchronous=FULL");
  db.exec("CREATE TABLE kv (k INTEGER PRIMARY KEY, v BLOB NOT NULL)");
  sqlite3_stmt* begin = db.prepare("BEGIN IMMEDIATE");
  sqlite3_stmt* upsert =
      db.prepare("INSERT INTO kv(k, v) VALUES (?, ?) ON CONFLICT(k) DO UPDATE SET v = excluded.v");
  sqlite3_stmt* commit = db.prepare("COMMIT");
  std::string value(static_cast<std::size_t>(o.value_bytes), 'v');

  std::vector<double> commit_ms;
  commit_ms.reserve(static_cast<std::size_t>(o.commits));
  using Clock = std::chrono::steady_clock;
  Clock::time_point timed_start;
  for (int i = 0; db.ok() && i < kWarmUpCommits + o.commits; ++i) {
    if (i == kWarmUpCommits) timed_start = Clock::now();
    const auto t0 = Clock::now();
    db.run(begin);
    // A value differing from the stored one: SQLite skips writing a page whose bytes an update
    // leaves unchanged, and such a commit writes and syncs nothing.
    const std::string stamp = std::to_string(i);
    stamp.copy(value.data(), std::min(stamp.size(), value.size()));
    sqlite3_bind_int(upsert, 1, i % kDistinctKeys);
    sqlite3_bind_blob(upsert, 2, value.data(), static_cast<int>(value.size()), SQLITE_STATIC);
    db.run(upsert);
    db.run(commit);
    if (i >= kWarmUpCommits) {
      commit_ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
    }
  }
  if (!db.ok()) {
    r.error = db.error();
    return r;
  }
  const double total_s = std::chrono::duration<double>(Clock::now() - timed_start).count();
  r.ok = true;
  r.commits = o.commits;
  r.commits_per_s = total_s > 0 ? o.commits / total_s : 0;
  r.p50_ms = percentile(commit_ms, 50);
  r.p99_ms = percentile(commit_ms, 99);
  return r;
}

void print_commit_rate(const CommitRate& r, const CommitRateOptions& o) {
  std::printf(
      "Raw SQLite commits: one connection, WAL, synchronous=FULL, busy timeout 5 s,\n"
      "each transaction one upsert of a %d-byte value (%s).\n",
      o.value_bytes, r.file_system.c_str());
  if (!r.ok) {
    std::printf("  failed: %s\n", r.error.c_str());
    return;
  }
  std::printf("  %-28s %s\n", "commits/s", grouped(r.commits_per_s).c_str());
  std::printf("  %-28s %.3f / %.3f ms (%d commits)\n", "commit p50 / p99", r.p50_ms, r.p99_ms,
              r.commits);
}

int run_commit(const CommitRateOptions& options) {
  std::printf("reactor-bench commit (%s)\n\n", machine_note().c_str());
  CommitRate r = measure_commit_rate(options);
  print_commit_rate(r, options);
  return r.ok ? 0 : 1;
}

}  // namespace reactor_bench
