// SQLite under lock contention from another connection: writers wait instead of
// failing with SQLITE_BUSY, readers are never blocked by a writer (WAL).
#include <gtest/gtest.h>
#include <sqlite3.h>
#include <stdlib.h>

#include <chrono>
#include <filesystem>
#include <future>
#include <thread>

#include "reactor/backend.hpp"
#include "support/result_testing.hpp"

namespace reactor {
namespace {

using namespace std::chrono_literals;

class SqliteLocking : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/reactor-locking-XXXXXX";
    ASSERT_NE(::mkdtemp(tmpl), nullptr);
    dir_ = tmpl;
    file_ = dir_ + "/locking.db";
    Status s =
        assign_or_status(db_, open_backend("sqlite://" + file_, std::make_shared<ManualClock>()));
    ASSERT_TRUE(s.ok()) << s.to_string();
    ASSERT_EQ(sqlite3_open(file_.c_str(), &raw_), SQLITE_OK);
  }
  void TearDown() override {
    sqlite3_close(raw_);
    db_.reset();
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }

  void raw_exec(const char* sql) {
    ASSERT_EQ(sqlite3_exec(raw_, sql, nullptr, nullptr, nullptr), SQLITE_OK)
        << sqlite3_errmsg(raw_);
  }

  static CommitRequest create(const std::string& id) {
    CommitRequest c;
    RunHeaderRow h;
    h.id = h.root_id = id;
    h.reactor = "OrderSaga";
    h.status = RunStatus::kRunning;
    h.body = "{}";
    c.headers = {h};
    JobSpec job;
    job.queue = "q";
    job.run_id = id;
    job.reactor = "OrderSaga";
    c.enqueue = {job};
    return c;
  }

  std::string dir_, file_;
  std::unique_ptr<Backend> db_;
  sqlite3* raw_ = nullptr;
};

TEST_F(SqliteLocking, WritersWaitForAnotherConnectionsWriteLock) {
  raw_exec("BEGIN IMMEDIATE");
  raw_exec("INSERT INTO meta(key, value) VALUES ('held', 1)");
  auto commit = std::async(std::launch::async, [&] { return db_->commit(create("r1")); });
  auto fetch = std::async(std::launch::async, [&] {
    std::optional<Delivery> d;
    Status s = assign_or_status(d, db_->fetch({{"q"}, "w", 30s, 10s}));
    return s;
  });
  // Both are parked on the lock (or done, if they won the race to it); release it.
  std::this_thread::sleep_for(200ms);
  raw_exec("COMMIT");
  Status c = commit.get();
  Status f = fetch.get();
  EXPECT_TRUE(c.ok()) << c.to_string();
  EXPECT_TRUE(f.ok()) << f.to_string();
  bool queued = false;
  ASSERT_OK_AND_ASSIGN(queued, db_->has_job("r1"));
  EXPECT_TRUE(queued);
}

// Commits that queue while another connection holds the write lock are each applied or refused
// alone once it is free: the second start of r2 is refused, the others are written, and so is each
// one's own job. (Those queued behind r1 go out in one transaction, each in a savepoint: what is
// asserted holds whether or not they did; tests/unit/storage/test_commit_groups.cpp holds the
// grouping itself.)
TEST_F(SqliteLocking, CommitsQueuedBehindALockAreEachAppliedOrRefusedAlone) {
  ASSERT_TRUE(db_->commit(create("r2")).ok());
  raw_exec("BEGIN IMMEDIATE");
  raw_exec("INSERT INTO meta(key, value) VALUES ('held', 1)");
  auto start = [&](const std::string& id) {
    return std::async(std::launch::async, [this, id] {
      CommitRequest c = create(id);
      c.create = true;
      c.inputs = {{id, "{}"}};
      return db_->commit(c);
    });
  };
  // r1 waits for the lock; the others wait behind it, and go out together after it.
  std::vector<std::future<Status>> commits;
  for (const char* id : {"r1", "r3", "r2", "r4"}) {
    commits.push_back(start(id));
    std::this_thread::sleep_for(50ms);
  }
  raw_exec("COMMIT");
  std::vector<Status> done;
  for (auto& c : commits) done.push_back(c.get());
  EXPECT_TRUE(done[0].ok()) << done[0].to_string();
  EXPECT_TRUE(done[1].ok()) << done[1].to_string();
  EXPECT_EQ(done[2].code(), StatusCode::kAlreadyExists) << done[2].to_string();
  EXPECT_TRUE(done[3].ok()) << done[3].to_string();
  int jobs = 0;
  for (std::optional<Delivery> d;; ++jobs) {
    ASSERT_OK_AND_ASSIGN(d, db_->fetch({{"q"}, "w", 30s, 10s}));
    if (!d) break;
  }
  EXPECT_EQ(jobs, 4);  // r2's first start's, r1's, r3's and r4's: none of the refused one
}

TEST_F(SqliteLocking, ReadersAreNotBlockedByAWriter) {
  ASSERT_TRUE(db_->commit(create("r1")).ok());
  raw_exec("BEGIN IMMEDIATE");
  raw_exec("UPDATE runs SET status = 'failed' WHERE id = 'r1'");
  // Uncommitted: readers see the last committed state, without waiting.
  StoredRun run;
  Status s = assign_or_status(run, db_->load_run("r1"));
  ASSERT_TRUE(s.ok()) << s.to_string();
  EXPECT_EQ(run.headers.at(0).status, RunStatus::kRunning);
  EXPECT_TRUE(db_->has_job("r1").ok());
  raw_exec("ROLLBACK");
}

}  // namespace
}  // namespace reactor
