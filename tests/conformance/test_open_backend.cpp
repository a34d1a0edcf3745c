// open_backend: URL forms, options and the errors a user meets first.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "reactor/backend.hpp"
#include "support/result_testing.hpp"

namespace reactor {
namespace {

namespace fs = std::filesystem;

class TempDir {
 public:
  TempDir() {
    char tmpl[] = "/tmp/reactor-open-backend-XXXXXX";
    const char* d = ::mkdtemp(tmpl);
    path_ = d ? d : "";
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// Runs a query on the file directly, bypassing the backend.
std::string query_one(const std::string& file, const std::string& sql) {
  sqlite3* db = nullptr;
  std::string out;
  if (sqlite3_open_v2(file.c_str(), &db, SQLITE_OPEN_READWRITE, nullptr) == SQLITE_OK) {
    sqlite3_stmt* st = nullptr;
    if (sqlite3_prepare_v2(db, sql.c_str(), -1, &st, nullptr) == SQLITE_OK &&
        sqlite3_step(st) == SQLITE_ROW) {
      const auto* text = sqlite3_column_text(st, 0);
      out = text ? reinterpret_cast<const char*>(text) : "";
    }
    sqlite3_finalize(st);
  }
  sqlite3_close(db);
  return out;
}

// The schema version the file holds; kLatestVersion, what this build migrates every file to, is
// written here once and moves with each migration (storage/sqlite/schema.cpp).
const std::string kLatestVersion = "14";
std::string stored_version(const std::string& file) {
  return query_one(file, "SELECT value FROM meta WHERE key = 'schema_version'");
}

std::shared_ptr<Clock> clock() { return std::make_shared<ManualClock>(); }

TEST(OpenBackend, Memory) {
  std::unique_ptr<Backend> b;
  ASSERT_OK_AND_ASSIGN(b, open_backend("memory:", clock()));
  EXPECT_EQ(b->describe(), "memory:");
}

TEST(OpenBackend, UnknownSchemeIsInvalidArgumentNamingTheUrl) {
  std::unique_ptr<Backend> b;
  Status s = assign_or_status(b, open_backend("postgres://db.example/x", clock()));
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("postgres://db.example/x"), std::string::npos) << s.to_string();
  EXPECT_FALSE(b);
}

// A loopback port that refuses connections: bound, so nobody else takes it
// while the test runs, but not listening.
class RefusingPort {
 public:
  RefusingPort() {
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof addr;
    if (fd_ >= 0 && ::bind(fd_, reinterpret_cast<sockaddr*>(&addr), len) == 0 &&
        ::getsockname(fd_, reinterpret_cast<sockaddr*>(&addr), &len) == 0) {
      port_ = ntohs(addr.sin_port);
    }
  }
  ~RefusingPort() {
    if (fd_ >= 0) ::close(fd_);
  }
  int port() const { return port_; }

 private:
  int fd_ = -1;
  int port_ = 0;
};

TEST(OpenBackend, RedisUnreachableAtStartIsUnavailableNamingTheUrlWithoutItsPassword) {
  RefusingPort refusing;
  ASSERT_NE(refusing.port(), 0);
  const std::string where = "127.0.0.1:" + std::to_string(refusing.port()) + "/0";
  std::unique_ptr<Backend> b;
  Status s = assign_or_status(b, open_backend("redis://:hunter2@" + where, clock()));
  EXPECT_EQ(s.code(), StatusCode::kUnavailable);
  EXPECT_NE(s.message().find("redis://***@" + where), std::string::npos) << s.to_string();
  EXPECT_EQ(s.message().find("hunter2"), std::string::npos) << s.to_string();
  EXPECT_FALSE(b);
}

TEST(OpenBackend, RedisUrlMistakesAreInvalidArguments) {
  for (const char* url :
       {"redis://:pw@127.0.0.1:0/0", "redis://:pw@127.0.0.1:6379/x",
        "redis://:pw@127.0.0.1:6379/0?prefix=a{b}", "redis://:pw@127.0.0.1:6379/0?colour=blue",
        "redis://:pw@127.0.0.1:6379/0?timeout_ms=0", "rediss://:pw@127.0.0.1:6379/0"}) {
    std::unique_ptr<Backend> b;
    Status s = assign_or_status(b, open_backend(url, clock()));
    EXPECT_EQ(s.code(), StatusCode::kInvalidArgument) << url << ": " << s.to_string();
    EXPECT_EQ(s.message().find(":pw@"), std::string::npos) << s.to_string();
    EXPECT_FALSE(b);
  }
}

// A prefix may start with one hash tag, so that a whole store lives in one slot of a Redis
// Cluster (docs/redis.md); any other brace is refused, as it would change which part of a key
// Redis hashes.
TEST(OpenBackend, ARedisPrefixMayStartWithOneHashTagAndHoldNoOtherBrace) {
  RefusingPort refusing;
  ASSERT_NE(refusing.port(), 0);
  const std::string base = "redis://:pw@127.0.0.1:" + std::to_string(refusing.port()) + "/0";
  for (const char* prefix : {"{shop}:", "%7Bshop%7D:", "{s}", "{shop}:orders:"}) {
    std::unique_ptr<Backend> b;
    Status s = assign_or_status(b, open_backend(base + "?prefix=" + prefix, clock()));
    // Parsed: the open goes on to connect, and finds nobody there.
    EXPECT_EQ(s.code(), StatusCode::kUnavailable) << prefix << ": " << s.to_string();
  }
  for (const char* prefix :
       {"{}:", "{a}{b}:", "{a:", "a}:", "x{a}:", "{a}:}", "{{a}}:", "%7B%7D"}) {
    std::unique_ptr<Backend> b;
    Status s = assign_or_status(b, open_backend(base + "?prefix=" + prefix, clock()));
    EXPECT_EQ(s.code(), StatusCode::kInvalidArgument) << prefix << ": " << s.to_string();
    EXPECT_NE(s.message().find("hash tag"), std::string::npos) << s.to_string();
  }
}

TEST(OpenBackend, SqliteAbsolutePathCreatesAWalDatabaseAtTheLatestSchemaVersion) {
  TempDir dir;
  const std::string file = dir.path() + "/reactor.db";
  std::unique_ptr<Backend> b;
  Status s = assign_or_status(b, open_backend("sqlite://" + file, clock()));
  ASSERT_TRUE(s.ok()) << s.to_string();
  EXPECT_EQ(b->describe(), "sqlite://" + file);
  EXPECT_TRUE(fs::exists(file));
  EXPECT_EQ(query_one(file, "PRAGMA journal_mode"), "wal");
  EXPECT_EQ(stored_version(file), kLatestVersion);
}

// Back to version 13's maps and slots, with no claim and no steps column (each element a run of
// its own).
void as_version_13(const std::string& file) {
  query_one(file, "ALTER TABLE maps DROP COLUMN claim");
  query_one(file, "ALTER TABLE map_slots DROP COLUMN steps");
  query_one(file, "UPDATE meta SET value = 13 WHERE key = 'schema_version'");
}

// Back to version 12's fencing-token counter, a table of its own, from version 13's row of
// `leases`, and to its index of every run's status.
void as_version_12(const std::string& file) {
  as_version_13(file);
  for (const char* sql :
       {"CREATE TABLE counters (name TEXT PRIMARY KEY, value INTEGER NOT NULL)",
        "INSERT INTO counters SELECT 'fencing_token', token FROM leases "
        "WHERE key = CAST('fencing_token' AS BLOB)",
        "DELETE FROM leases WHERE typeof(key) = 'blob'", "DROP INDEX runs_children_status",
        "CREATE INDEX runs_status ON runs(status)",
        "UPDATE meta SET value = 12 WHERE key = 'schema_version'"}) {
    query_one(file, sql);
  }
}

// Back to version 11's `steps` and `trace`, two tables keyed by `(run key << 20) | index`, from
// version 12's `run_rows`, their rows kept.
void rows_as_version_11(const std::string& file) {
  as_version_12(file);
  for (const char* sql :
       {"CREATE TABLE steps (key INTEGER PRIMARY KEY, body TEXT NOT NULL)",
        "INSERT INTO steps SELECT ((key >> 21) << 20) | ((key & 2097151) >> 1), body "
        "FROM run_rows WHERE key & 1 = 0",
        "CREATE TABLE trace (key INTEGER PRIMARY KEY, body TEXT NOT NULL)",
        "INSERT INTO trace SELECT ((key >> 21) << 20) | ((key & 2097151) >> 1), body "
        "FROM run_rows WHERE key & 1 = 1",
        "DROP TABLE run_rows", "UPDATE meta SET value = 11 WHERE key = 'schema_version'"}) {
    query_one(file, sql);
  }
}

// Back to version 10's `runs` (an implicit rowid, `id` its key), `steps` and `trace` (keyed by
// their run's id), their rows kept: what a file of any version before 11 holds.
void rows_as_version_10(const std::string& file) {
  rows_as_version_11(file);
  for (const char* sql :
       {"CREATE TABLE runs_v10 (id TEXT PRIMARY KEY, root_id TEXT NOT NULL, parent_id TEXT NOT "
        "NULL DEFAULT '', reactor TEXT NOT NULL, status TEXT NOT NULL, fingerprint TEXT NOT "
        "NULL DEFAULT '', schema_version INTEGER NOT NULL, body TEXT NOT NULL, updated_at "
        "INTEGER NOT NULL, expires_at INTEGER NOT NULL, wake_at INTEGER NOT NULL DEFAULT 0, "
        "exec_token INTEGER NOT NULL DEFAULT 0, exec_worker TEXT NOT NULL DEFAULT '', "
        "deliveries INTEGER NOT NULL DEFAULT 0)",
        "INSERT INTO runs_v10 SELECT id, root_id, parent_id, reactor, status, fingerprint, "
        "schema_version, body, updated_at, expires_at, wake_at, exec_token, exec_worker, "
        "deliveries FROM runs ORDER BY key DESC",  // rowids of their own, in another order
        "CREATE TABLE steps_v10 (run_id TEXT NOT NULL, idx INTEGER NOT NULL, body TEXT NOT "
        "NULL, PRIMARY KEY (run_id, idx)) WITHOUT ROWID",
        "INSERT INTO steps_v10 SELECT r.id, s.key & 1048575, s.body FROM steps s JOIN runs r "
        "ON r.key = s.key >> 20",
        "CREATE TABLE trace_v10 (root_id TEXT NOT NULL, seq INTEGER NOT NULL, body TEXT NOT "
        "NULL, PRIMARY KEY (root_id, seq)) WITHOUT ROWID",
        "INSERT INTO trace_v10 SELECT r.id, t.key & 1048575, t.body FROM trace t JOIN runs r "
        "ON r.key = t.key >> 20",
        "DROP TABLE steps", "DROP TABLE trace", "DROP TABLE runs",
        "ALTER TABLE runs_v10 RENAME TO runs", "ALTER TABLE steps_v10 RENAME TO steps",
        "ALTER TABLE trace_v10 RENAME TO trace", "CREATE INDEX runs_root_id ON runs(root_id)",
        "CREATE INDEX runs_status ON runs(status)",
        "CREATE INDEX runs_roots_status ON runs(parent_id, status) WHERE parent_id = ''",
        "UPDATE meta SET value = 10 WHERE key = 'schema_version'"}) {
    query_one(file, sql);
  }
}

// Run r1, running, and its composed child c1.
std::vector<RunHeaderRow> running_root_and_child() {
  return {RunHeaderRow{"r1", "r1", "", "OrderSaga", RunStatus::kRunning, "fp", 4, "{}", 1, 0, 0},
          RunHeaderRow{"c1", "r1", "r1", "Child", RunStatus::kRunning, "fp", 4, "{}", 1, 0, 0}};
}

// The tables of schema version 8 (coordination, docs/storage.md).
constexpr const char* kCoordinationTables[] = {"hold_holders", "rate_windows",   "rate_charges",
                                               "period_marks", "ordered_chains", "ordered_members"};

// A file of version 1 (no runs.wake_at, no maps, no runs.deliveries) is migrated to the latest
// version, which the builds before it then refuse. tests/conformance/test_stored_corpus.cpp reads
// files the old builds wrote themselves.
TEST(OpenBackend, SqliteSchemaVersion1IsMigratedToTheLatest) {
  TempDir dir;
  const std::string file = dir.path() + "/v1.db";
  {
    std::unique_ptr<Backend> b;
    ASSERT_OK_AND_ASSIGN(b, open_backend("sqlite://" + file, clock()));
    CommitRequest c;
    c.headers.push_back(
        RunHeaderRow{"r1", "r1", "", "OrderSaga", RunStatus::kEnqueued, "fp", 1, "{}", 1, 0, 0});
    ASSERT_TRUE(b->commit(c).ok());
  }
  rows_as_version_10(file);
  for (const char* column : {"wake_at", "exec_token", "exec_worker", "deliveries"}) {
    query_one(file, std::string("ALTER TABLE runs DROP COLUMN ") + column);
  }
  for (const char* table : {"maps", "map_slots", "schedules"}) {  // versions 4 and 7
    query_one(file, std::string("DROP TABLE ") + table);
  }
  for (const char* table : kCoordinationTables) {  // version 8
    query_one(file, std::string("DROP TABLE ") + table);
  }
  query_one(file, "UPDATE meta SET value = 1 WHERE key = 'schema_version'");
  std::unique_ptr<Backend> b;
  ASSERT_OK_AND_ASSIGN(b, open_backend("sqlite://" + file, clock()));
  RunHeaderRow h;
  EXPECT_OK_AND_ASSIGN(h, b->load_header("r1"));
  EXPECT_EQ(h.wake_at_ms, 0);
  EXPECT_EQ(stored_version(file), kLatestVersion);
}

// A file of version 7 (no coordination tables) is migrated to the latest, and its runs hold locks
// at once; builds of version 7 then refuse it.
TEST(OpenBackend, SqliteSchemaVersion7IsMigratedAndItsRunsHoldLocks) {
  TempDir dir;
  const std::string file = dir.path() + "/v7.db";
  {
    std::unique_ptr<Backend> b;
    ASSERT_OK_AND_ASSIGN(b, open_backend("sqlite://" + file, clock()));
    CommitRequest c;
    // Waiting (parked on an async unit): alive as a holder without a lease.
    c.headers.push_back(
        RunHeaderRow{"r1", "r1", "", "OrderSaga", RunStatus::kWaiting, "fp", 4, "{}", 1, 0, 0});
    ASSERT_TRUE(b->commit(c).ok());
  }
  rows_as_version_10(file);
  for (const char* table : kCoordinationTables) {
    query_one(file, std::string("DROP TABLE ") + table);
  }
  query_one(file, "UPDATE meta SET value = 7 WHERE key = 'schema_version'");
  ASSERT_EQ(query_one(file, "SELECT count(*) FROM sqlite_master WHERE name = 'hold_holders'"), "0");

  std::unique_ptr<Backend> b;
  ASSERT_OK_AND_ASSIGN(b, open_backend("sqlite://" + file, clock()));
  EXPECT_EQ(stored_version(file), kLatestVersion);
  TakeRequest take;
  take.holder = "r1";
  take.holds = {HoldClaim{HoldKind::kLock, "acct-1", 1, "r1"}};
  TakeResult taken;
  ASSERT_OK_AND_ASSIGN(taken, b->take_holds(take));
  EXPECT_EQ(taken.outcome, TakeOutcome::kTaken);
  CoordinationView view;
  ASSERT_OK_AND_ASSIGN(view, b->coordination());
  ASSERT_EQ(view.holds.size(), 1u);
  EXPECT_EQ(view.holds[0].holders, std::vector<std::string>{"r1"});
}

// A file of version 9 (leases with a rowid, runs_roots_status over every run) is migrated to the
// latest: its leases are kept with their tokens, and the two are rebuilt as version 10 has them.
TEST(OpenBackend, SqliteSchemaVersion9IsMigratedAndKeepsItsLeases) {
  TempDir dir;
  const std::string file = dir.path() + "/v9.db";
  Lease held;
  {
    std::unique_ptr<Backend> b;
    ASSERT_OK_AND_ASSIGN(b, open_backend("sqlite://" + file, clock()));
    CommitRequest c;
    c.headers = running_root_and_child();
    ASSERT_TRUE(b->commit(c).ok());
    LeaseGrant grant;
    ASSERT_OK_AND_ASSIGN(grant, b->acquire_lease(run_lease_key("r1"), "w", std::chrono::hours(1)));
    ASSERT_TRUE(grant.granted);
    held = grant.lease;
  }
  // Back to version 9's shapes, by hand.
  rows_as_version_10(file);
  for (const char* sql :
       {"CREATE TABLE leases_v9 (key TEXT PRIMARY KEY, owner TEXT, token INTEGER NOT NULL, "
        "expires_at INTEGER NOT NULL)",
        "INSERT INTO leases_v9 SELECT key, owner, token, expires_at FROM leases",
        "DROP TABLE leases", "ALTER TABLE leases_v9 RENAME TO leases",
        "DROP INDEX runs_roots_status", "CREATE INDEX runs_roots_status ON runs(parent_id, status)",
        "UPDATE meta SET value = 9 WHERE key = 'schema_version'"}) {
    query_one(file, sql);
  }
  const auto schema_of = [&](const char* name) {
    return query_one(file,
                     std::string("SELECT sql FROM sqlite_master WHERE name = '") + name + "'");
  };
  ASSERT_EQ(schema_of("leases").find("WITHOUT ROWID"), std::string::npos);
  ASSERT_EQ(query_one(file, "SELECT count(*) FROM runs INDEXED BY runs_roots_status"), "2");

  std::unique_ptr<Backend> b;
  ASSERT_OK_AND_ASSIGN(b, open_backend("sqlite://" + file, clock()));
  EXPECT_EQ(stored_version(file), kLatestVersion);
  EXPECT_NE(schema_of("leases").find("WITHOUT ROWID"), std::string::npos);
  EXPECT_NE(schema_of("runs_roots_status").find("WHERE parent_id = ''"), std::string::npos);
  // The child run is no longer in the roots' index; the roots are listed and counted as before.
  EXPECT_EQ(query_one(file,
                      "SELECT count(*) FROM runs INDEXED BY runs_roots_status "
                      "WHERE parent_id = ''"),
            "1");
  std::size_t running = 0;
  RunFilter filter;
  filter.status = RunStatus::kRunning;
  ASSERT_OK_AND_ASSIGN(running, b->count_runs(filter));
  EXPECT_EQ(running, 1u);
  Lease seen;
  ASSERT_OK_AND_ASSIGN(seen, b->peek_lease(run_lease_key("r1")));
  EXPECT_EQ(seen.owner, "w");
  EXPECT_EQ(seen.token, held.token);
  // Its token still fences: the next grant of any key is newer.
  LeaseGrant next;
  ASSERT_OK_AND_ASSIGN(next, b->acquire_lease("sweeper:1", "w", std::chrono::hours(1)));
  EXPECT_GT(next.lease.token, held.token);
}

// A root and its child with steps and a trace, committed at the latest version, the file taken
// back by `back` to an older one holding one more row `stray` of no stored run, then opened again:
// every run reads as it did, the stray row is left behind, and a commit after it goes on.
void expect_runs_read_the_same_after_migrating(const std::string& file,
                                               void (*back)(const std::string&),
                                               const std::string& stray) {
  StoredRun before;
  {
    std::unique_ptr<Backend> b;
    ASSERT_OK_AND_ASSIGN(b, open_backend("sqlite://" + file, clock()));
    CommitRequest c;
    c.root_id = "r1";
    c.headers = running_root_and_child();
    c.steps = {StepRow{"r1", 0, R"({"a":0})"}, StepRow{"r1", 2, R"({"a":2})"},
               StepRow{"c1", 1, R"({"c":1})"}};
    c.trace = {TraceRow{"r1", 0, R"({"t":0})"}, TraceRow{"r1", 1, R"({"t":1})"},
               TraceRow{"r1", 2, R"({"t":2})"}};
    ASSERT_TRUE(b->commit(c).ok());
    ASSERT_OK_AND_ASSIGN(before, b->load_run("r1"));
  }
  back(file);
  query_one(file, stray);
  ASSERT_EQ(query_one(file, "SELECT count(*) FROM steps"), "4");

  std::unique_ptr<Backend> b;
  ASSERT_OK_AND_ASSIGN(b, open_backend("sqlite://" + file, clock()));
  EXPECT_EQ(stored_version(file), kLatestVersion);
  EXPECT_EQ(query_one(file, "SELECT count(*) FROM run_rows"), "6");
  StoredRun after;
  ASSERT_OK_AND_ASSIGN(after, b->load_run("r1"));
  ASSERT_EQ(after.steps.size(), 3u);
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(after.steps[i].run_id, before.steps[i].run_id);
    EXPECT_EQ(after.steps[i].index, before.steps[i].index);
    EXPECT_EQ(after.steps[i].body, before.steps[i].body);
  }
  ASSERT_EQ(after.trace.size(), 3u);
  EXPECT_EQ(after.trace[2].seq, 2u);
  EXPECT_EQ(after.trace[2].body, R"({"t":2})");
  CommitRequest next;
  next.root_id = "r1";
  next.steps = {StepRow{"r1", 2, R"({"a":"again"})"}};
  next.trace = {TraceRow{"r1", 3, R"({"t":3})"}};
  ASSERT_TRUE(b->commit(next).ok());
  ASSERT_OK_AND_ASSIGN(after, b->load_run("r1"));
  EXPECT_EQ(after.steps[1].body, R"({"a":"again"})");
  EXPECT_EQ(after.trace.size(), 4u);
}

// A file of version 10 (steps and trace keyed by their run's id) is migrated to the latest.
TEST(OpenBackend, SqliteSchemaVersion10IsMigratedAndItsRunsReadTheSame) {
  TempDir dir;
  expect_runs_read_the_same_after_migrating(dir.path() + "/v10.db", &rows_as_version_10,
                                            "INSERT INTO steps VALUES ('gone', 0, '{}')");
}

// A file of version 11 (steps and trace, two tables keyed by their run's key and index) is
// migrated to the latest.
TEST(OpenBackend, SqliteSchemaVersion11IsMigratedAndItsRunsReadTheSame) {
  TempDir dir;
  expect_runs_read_the_same_after_migrating(dir.path() + "/v11.db", &rows_as_version_11,
                                            "INSERT INTO steps VALUES (99 << 20, '{}')");
}

// A run's step i and its trace event i are neighbours in `run_rows` (docs/storage.md), where a
// step's commit adds both: the rows of a run lie in key order step, event, step, event.
TEST(OpenBackend, SqliteStepsLieBesideTheirTraceEvents) {
  TempDir dir;
  const std::string file = dir.path() + "/side.db";
  std::unique_ptr<Backend> b;
  ASSERT_OK_AND_ASSIGN(b, open_backend("sqlite://" + file, clock()));
  CommitRequest c;
  c.root_id = "r1";
  c.headers = running_root_and_child();
  c.steps = {StepRow{"r1", 0, "s0"}, StepRow{"r1", 1, "s1"}};
  c.trace = {TraceRow{"r1", 0, "t0"}, TraceRow{"r1", 1, "t1"}};
  ASSERT_TRUE(b->commit(c).ok());
  EXPECT_EQ(query_one(file,
                      "SELECT group_concat(body, ' ') FROM (SELECT body FROM run_rows "
                      "WHERE key >> 21 = (SELECT key FROM runs WHERE id = 'r1') ORDER BY key)"),
            "s0 t0 s1 t1");
}

TEST(OpenBackend, SqliteRelativePaths) {
  TempDir dir;
  const fs::path cwd = fs::current_path();
  fs::current_path(dir.path());
  std::unique_ptr<Backend> a, b;
  Status sa = assign_or_status(a, open_backend("sqlite:one.db", clock()));
  Status sb = assign_or_status(b, open_backend("sqlite://two.db?synchronous=normal", clock()));
  fs::current_path(cwd);
  EXPECT_TRUE(sa.ok()) << sa.to_string();
  EXPECT_TRUE(sb.ok()) << sb.to_string();
  EXPECT_TRUE(fs::exists(dir.path() + "/one.db"));
  EXPECT_TRUE(fs::exists(dir.path() + "/two.db"));
}

TEST(OpenBackend, SqliteSynchronousOption) {
  TempDir dir;
  for (const char* mode : {"full", "normal", "off"}) {
    std::unique_ptr<Backend> b;
    Status s = assign_or_status(
        b, open_backend("sqlite://" + dir.path() + "/s.db?synchronous=" + mode, clock()));
    EXPECT_TRUE(s.ok()) << mode << ": " << s.to_string();
  }
  std::unique_ptr<Backend> b;
  Status bad = assign_or_status(
      b, open_backend("sqlite://" + dir.path() + "/s.db?synchronous=sometimes", clock()));
  EXPECT_EQ(bad.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(bad.message().find("sometimes"), std::string::npos);
  Status unknown =
      assign_or_status(b, open_backend("sqlite://" + dir.path() + "/s.db?cache=huge", clock()));
  EXPECT_EQ(unknown.code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(assign_or_status(b, open_backend("sqlite://", clock())).code(),
            StatusCode::kInvalidArgument);
}

TEST(OpenBackend, SqliteMissingDirectoryIsUnavailableNamingTheUrl) {
  TempDir dir;
  const std::string url = "sqlite://" + dir.path() + "/missing/reactor.db";
  std::unique_ptr<Backend> b;
  Status s = assign_or_status(b, open_backend(url, clock()));
  EXPECT_EQ(s.code(), StatusCode::kUnavailable);
  EXPECT_NE(s.message().find(url), std::string::npos) << s.to_string();
  EXPECT_FALSE(fs::exists(dir.path() + "/missing"));
}

// What `reactor runs` and `show` open a store with: reading a path that names no store is an
// error, never a new empty store.
TEST(OpenBackend, WithoutCreateAMissingSqliteFileIsNotFoundNamingItAndNothingIsMade) {
  TempDir dir;
  OpenOptions read_only;
  read_only.clock = clock();
  read_only.create = false;
  for (const std::string& path : {dir.path() + "/absent.db", dir.path() + "/missing/absent.db"}) {
    std::unique_ptr<Backend> b;
    Status s = assign_or_status(b, open_backend("sqlite://" + path, read_only));
    EXPECT_EQ(s.code(), StatusCode::kNotFound) << s.to_string();
    EXPECT_NE(s.message().find(path), std::string::npos) << s.to_string();
    EXPECT_FALSE(b);
    EXPECT_FALSE(fs::exists(path));
  }
  EXPECT_TRUE(fs::is_empty(dir.path()));

  // A store that exists opens as usual, and memory: has nothing to make.
  const std::string url = "sqlite://" + dir.path() + "/present.db";
  {
    std::unique_ptr<Backend> b;
    ASSERT_OK_AND_ASSIGN(b, open_backend(url, clock()));
  }
  std::unique_ptr<Backend> b;
  EXPECT_OK_AND_ASSIGN(b, open_backend(url, read_only));
  EXPECT_OK_AND_ASSIGN(b, open_backend("memory:", read_only));
}

TEST(OpenBackend, SqliteFileThatIsNotADatabaseIsUnavailableNamingTheUrl) {
  TempDir dir;
  const std::string file = dir.path() + "/notes.txt";
  std::ofstream(file) << "these are not the pages you are looking for\n" << std::string(4096, 'x');
  const std::string url = "sqlite://" + file;
  std::unique_ptr<Backend> b;
  Status s = assign_or_status(b, open_backend(url, clock()));
  EXPECT_EQ(s.code(), StatusCode::kUnavailable);
  EXPECT_NE(s.message().find(url), std::string::npos) << s.to_string();
}

TEST(OpenBackend, SqliteSchemaNewerThanThisBuildIsUnavailable) {
  TempDir dir;
  const std::string file = dir.path() + "/future.db";
  {
    std::unique_ptr<Backend> b;
    ASSERT_OK_AND_ASSIGN(b, open_backend("sqlite://" + file, clock()));
  }
  query_one(file, "UPDATE meta SET value = 99 WHERE key = 'schema_version'");
  std::unique_ptr<Backend> b;
  Status s = assign_or_status(b, open_backend("sqlite://" + file, clock()));
  EXPECT_EQ(s.code(), StatusCode::kUnavailable);
  EXPECT_NE(s.message().find("99"), std::string::npos) << s.to_string();
}

// A run's steps and trace are filed under its key (docs/storage.md): a purge takes them with it, a
// run started after it (given the purged run's key again) starts with none, and a VACUUM, which
// renumbers the rows of a table without an INTEGER PRIMARY KEY, leaves every run as it was.
TEST(OpenBackend, SqliteRunsKeepTheirRowsThroughAPurgeAndAVacuum) {
  TempDir dir;
  const std::string file = dir.path() + "/keys.db";
  const auto commit_run = [](Backend& b, const std::string& id, RunStatus status,
                             std::int64_t expires_at) {
    CommitRequest c;
    c.root_id = id;
    c.headers = {RunHeaderRow{id, id, "", "OrderSaga", status, "fp", 4, "{}", 1, expires_at}};
    c.steps = {StepRow{id, 0, "step of " + id}, StepRow{id, 3, "last of " + id}};
    c.trace = {TraceRow{id, 0, "event of " + id}};
    return b.commit(c);
  };
  std::unique_ptr<Backend> b;
  ASSERT_OK_AND_ASSIGN(b, open_backend("sqlite://" + file, clock()));
  ASSERT_TRUE(commit_run(*b, "r1", RunStatus::kRunning, 0).ok());
  ASSERT_TRUE(commit_run(*b, "r2", RunStatus::kRunning, 0).ok());
  ASSERT_TRUE(commit_run(*b, "r3", RunStatus::kCompleted, 1).ok());  // expired: the last key
  std::size_t purged = 0;
  ASSERT_OK_AND_ASSIGN(purged, b->purge_expired(10));
  ASSERT_EQ(purged, 1u);
  EXPECT_EQ(query_one(file, "SELECT count(*) FROM run_rows"), "6") << "r1's and r2's 3 each";
  CommitRequest fresh;
  fresh.root_id = "r4";
  fresh.headers = {RunHeaderRow{"r4", "r4", "", "OrderSaga", RunStatus::kRunning, "fp", 4, "{}"}};
  ASSERT_TRUE(b->commit(fresh).ok());
  ASSERT_EQ(query_one(file, "SELECT key FROM runs WHERE id = 'r4'"), "3") << "r3's key, again";
  StoredRun run;
  ASSERT_OK_AND_ASSIGN(run, b->load_run("r4"));
  EXPECT_TRUE(run.steps.empty());
  EXPECT_TRUE(run.trace.empty());
  b.reset();

  query_one(file, "VACUUM");
  ASSERT_OK_AND_ASSIGN(b, open_backend("sqlite://" + file, clock()));
  for (const std::string id : {"r1", "r2"}) {
    ASSERT_OK_AND_ASSIGN(run, b->load_run(id));
    ASSERT_EQ(run.steps.size(), 2u) << id;
    EXPECT_EQ(run.steps[0].body, "step of " + id);
    EXPECT_EQ(run.steps[1].index, 3u);
    EXPECT_EQ(run.steps[1].body, "last of " + id);
    ASSERT_EQ(run.trace.size(), 1u) << id;
    EXPECT_EQ(run.trace[0].body, "event of " + id);
  }
  EXPECT_EQ(b->load_run("r3").status().code(), StatusCode::kNotFound);
}

// A file of version 12 (the token counter in `counters`) is migrated to the latest: its leases
// are kept, the counter becomes the last row of `leases`, and every token granted after it, before
// and after a purge of dead leases, is greater than every one before. A counter behind a stored
// token (which no build wrote) starts past that token. Runs are listed and counted by status as
// before, a root's from runs_roots_status and the others' from runs_children_status.
TEST(OpenBackend, SqliteSchemaVersion12IsMigratedAndItsTokensGoOn) {
  TempDir dir;
  const std::string file = dir.path() + "/v12.db";
  Lease held;
  {
    std::unique_ptr<Backend> b;
    ASSERT_OK_AND_ASSIGN(b, open_backend("sqlite://" + file, clock()));
    CommitRequest c;
    c.headers = running_root_and_child();  // and an element of a map of r1, a root of its own:
    c.headers.push_back(
        RunHeaderRow{"e1", "e1", "r1", "Element", RunStatus::kRunning, "fp", 4, "{}", 1, 0, 0});
    ASSERT_TRUE(b->commit(c).ok());
    LeaseGrant grant;
    ASSERT_OK_AND_ASSIGN(grant, b->acquire_lease(run_lease_key("r1"), "w", std::chrono::hours(1)));
    ASSERT_OK_AND_ASSIGN(grant, b->acquire_lease("sweeper:1", "w", std::chrono::hours(1)));
    held = grant.lease;
    ASSERT_TRUE(b->release_lease("sweeper:1", "w", held.token).ok());
  }
  as_version_12(file);
  ASSERT_EQ(query_one(file, "SELECT count(*) FROM leases"), "2");
  query_one(file, "UPDATE counters SET value = 1");  // behind sweeper:1's token

  std::unique_ptr<Backend> b;
  ASSERT_OK_AND_ASSIGN(b, open_backend("sqlite://" + file, clock()));
  EXPECT_EQ(stored_version(file), kLatestVersion);
  EXPECT_EQ(query_one(file, "SELECT count(*) FROM sqlite_master WHERE name = 'counters'"), "0");
  EXPECT_EQ(query_one(file, "SELECT typeof(key) || ' ' || token FROM leases ORDER BY key DESC"),
            "blob " + std::to_string(held.token));
  Lease seen;
  ASSERT_OK_AND_ASSIGN(seen, b->peek_lease(run_lease_key("r1")));
  EXPECT_EQ(seen.owner, "w");
  LeaseGrant next;
  ASSERT_OK_AND_ASSIGN(next, b->acquire_lease("sweeper:2", "w", std::chrono::hours(1)));
  EXPECT_EQ(next.lease.token, held.token + 1);
  std::size_t purged = 0;
  ASSERT_OK_AND_ASSIGN(purged, b->purge_expired(10));
  EXPECT_EQ(purged, 0u) << "no run expired";
  EXPECT_EQ(query_one(file, "SELECT count(*) FROM leases WHERE key = 'sweeper:1'"), "0")
      << "a dead lease is purged";
  ASSERT_OK_AND_ASSIGN(next, b->acquire_lease("sweeper:1", "w", std::chrono::hours(1)));
  EXPECT_EQ(next.lease.token, held.token + 2);
  Lease named_so;
  ASSERT_OK_AND_ASSIGN(named_so, b->peek_lease("fencing_token"));
  EXPECT_EQ(named_so.owner, "") << "the counter's row is no lease of the key 'fencing_token'";

  EXPECT_EQ(query_one(file,
                      "SELECT group_concat(id) FROM (SELECT id FROM runs INDEXED BY "
                      "runs_children_status WHERE parent_id <> '' ORDER BY id)"),
            "c1,e1");
  RunFilter running;
  running.status = RunStatus::kRunning;
  std::size_t count = 0;
  ASSERT_OK_AND_ASSIGN(count, b->count_runs(running));
  EXPECT_EQ(count, 1u);
  running.elements = true;
  ASSERT_OK_AND_ASSIGN(count, b->count_runs(running));
  EXPECT_EQ(count, 2u);
  running.reactor = "Element";
  std::vector<RunHeaderRow> listed;
  ASSERT_OK_AND_ASSIGN(listed, b->list_runs(running));
  ASSERT_EQ(listed.size(), 1u);
  EXPECT_EQ(listed[0].id, "e1");
}

TEST(OpenBackend, SqliteKeepsRunsAndTokensAcrossReopen) {
  TempDir dir;
  const std::string url = "sqlite://" + dir.path() + "/durable.db";
  std::uint64_t token = 0;
  {
    std::unique_ptr<Backend> b;
    ASSERT_OK_AND_ASSIGN(b, open_backend(url, clock()));
    CommitRequest c;
    RunHeaderRow h;
    h.id = h.root_id = "r1";
    h.reactor = "OrderSaga";
    h.status = RunStatus::kRunning;
    h.body = "{}";
    c.headers = {h};
    c.steps = {{"r1", 0, "s0"}};
    ASSERT_TRUE(b->commit(c).ok());
    bool granted = false;
    Lease lease;
    ASSERT_TRUE(
        assign_or_status(granted, lease, b->acquire_lease("other", "w", std::chrono::seconds(1)))
            .ok());
    token = lease.token;
  }
  std::unique_ptr<Backend> b;
  ASSERT_OK_AND_ASSIGN(b, open_backend(url, clock()));
  StoredRun run;
  ASSERT_OK_AND_ASSIGN(run, b->load_run("r1"));
  ASSERT_EQ(run.steps.size(), 1u);
  EXPECT_EQ(run.steps[0].body, "s0");
  bool granted = false;
  Lease lease;
  ASSERT_TRUE(
      assign_or_status(granted, lease, b->acquire_lease("run:r1", "w", std::chrono::seconds(1)))
          .ok());
  EXPECT_TRUE(granted);
  EXPECT_GT(lease.token, token);
}

}  // namespace
// A file of version 13 (maps without claims) is migrated to the latest: a map in flight holds
// one element a claim, and its settles go on releasing element runs one by one.
TEST(OpenBackend, SqliteSchemaVersion13IsMigratedAndItsMapsReleaseOneElementAClaim) {
  TempDir dir;
  const std::string file = dir.path() + "/v13.db";
  MapRow map;
  map.map_id = "r1:sum";
  map.owner_id = "r1";
  map.owner_reactor = "Sum";
  map.queue = "default";
  map.element_reactor = "Add";
  map.total = 3;
  map.released = 1;
  {
    std::unique_ptr<Backend> b;
    ASSERT_OK_AND_ASSIGN(b, open_backend("sqlite://" + file, clock()));
    CommitRequest c;
    c.maps.push_back(map);
    ASSERT_TRUE(b->commit(c).ok());
  }
  as_version_13(file);

  std::unique_ptr<Backend> b;
  ASSERT_OK_AND_ASSIGN(b, open_backend("sqlite://" + file, clock()));
  EXPECT_EQ(stored_version(file), kLatestVersion);
  MapRow read;
  ASSERT_OK_AND_ASSIGN(read, b->load_map(map.map_id));
  EXPECT_EQ(read.claim, 1u);
  CommitRequest c;
  c.settle = MapSettle{MapSlotRow{map.map_id, 0, SlotState::kCompleted, "1"}};
  ASSERT_TRUE(b->commit(c).ok());
  ASSERT_OK_AND_ASSIGN(read, b->load_map(map.map_id));
  EXPECT_EQ(read.released, 2u);
  EXPECT_EQ(query_one(file, "SELECT group_concat(run_id) FROM jobs"), "r1:sum[1]");
}

}  // namespace reactor
