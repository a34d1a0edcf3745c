// Engine::run_many_in_background on the memory backend: a batch is validated
// whole before anything is written, persisted in input order with one commit
// per kBackgroundRunsPerCommit runs, each run with its job, and run by a
// worker like any background run. A store that fails mid-batch leaves exactly
// the runs of the commits that succeeded.
#include <gtest/gtest.h>

#include <chrono>
#include <set>
#include <thread>

#include "reactor/backend_wrapper.hpp"
#include "reactor/reactor.hpp"
#include "reactor/worker.hpp"
#include "support/result_testing.hpp"

namespace {

using namespace reactor;
using namespace std::chrono_literals;

// The memory backend, counting commits and failing the one numbered
// `fail_commit` (1-based; 0: none) with Unavailable.
class CountingBackend final : public BackendWrapper {
 public:
  explicit CountingBackend(std::shared_ptr<Clock> clock) : BackendWrapper(memory(clock)) {}

  int commits = 0;
  int fail_commit = 0;

  Status commit(const CommitRequest& c) override {
    if (++commits == fail_commit) return Status::Unavailable("injected commit failure");
    return BackendWrapper::commit(c);
  }

 private:
  static std::unique_ptr<Backend> memory(std::shared_ptr<Clock> clock) {
    std::unique_ptr<Backend> b;
    EXPECT_OK_AND_ASSIGN(b, open_backend("memory:", std::move(clock)));
    return b;
  }
};

class BulkStart : public ::testing::Test {
 protected:
  void SetUp() override {
    backend_ = std::make_shared<CountingBackend>(clock_);
    EngineOptions options;
    options.clock = clock_;
    options.backend = backend_;
    engine_ = std::make_unique<Engine>(std::move(options));
    engine_->registry().add(
        Builder("Double")
            .input("n", integer())
            .step("double", [](const Args& a) { return Success(a.get<int>("n") * 2); })
            .argument("n", input("n"))
            .returns("double")
            .build());
  }

  static std::vector<Value> inputs(int count) {
    std::vector<Value> out;
    for (int i = 0; i < count; ++i) out.push_back(Value{{"n", i}});
    return out;
  }

  std::size_t stored_runs() {
    std::vector<RunHeaderRow> rows;
    RunFilter all;
    all.limit = 100000;
    EXPECT_OK_AND_ASSIGN(rows, backend_->list_runs(all));
    return rows.size();
  }

  std::shared_ptr<ManualClock> clock_ = std::make_shared<ManualClock>();
  std::shared_ptr<CountingBackend> backend_;
  std::unique_ptr<Engine> engine_;
};

TEST_F(BulkStart, PersistsEveryRunEnqueuedWithItsJobInFewCommits) {
  const int n = static_cast<int>(2 * kBackgroundRunsPerCommit + 88);
  BackgroundBatch batch = engine_->run_many_in_background("Double", inputs(n));
  ASSERT_TRUE(batch.ok());
  const std::vector<std::string> ids = std::move(batch.run_ids);
  ASSERT_EQ(ids.size(), static_cast<std::size_t>(n));
  EXPECT_EQ(std::set<std::string>(ids.begin(), ids.end()).size(), ids.size());
  EXPECT_EQ(backend_->commits, 3);  // 256 + 256 + 88 runs
  for (const auto& id : ids) {
    RunResult r;
    ASSERT_OK_AND_ASSIGN(r, engine_->find(id));
    EXPECT_EQ(r.status, RunStatus::kEnqueued);
    bool has_job = false;
    ASSERT_OK_AND_ASSIGN(has_job, backend_->has_job(id));
    EXPECT_TRUE(has_job) << id;
  }
}

TEST_F(BulkStart, JobsAreDeliveredInInputOrder) {
  BackgroundBatch batch = engine_->run_many_in_background("Double", inputs(5));
  ASSERT_TRUE(batch.ok());
  const std::vector<std::string> ids = std::move(batch.run_ids);
  for (const auto& expected : ids) {
    std::optional<Delivery> d;
    ASSERT_OK_AND_ASSIGN(d, backend_->fetch({{"Double"}, "tester", 10s, 10s}));
    ASSERT_TRUE(d.has_value());
    EXPECT_EQ(d->job.spec.run_id, expected);
    EXPECT_EQ(d->job.spec.kind, JobKind::kStart);
  }
}

TEST_F(BulkStart, OneInvalidInputRefusesTheWholeBatch) {
  std::vector<Value> batch = inputs(4);
  batch[1] = Value{{"n", "one"}};
  batch[3] = Value::object();
  BackgroundBatch started = engine_->run_many_in_background("Double", std::move(batch));
  Status s = started.status;
  const std::vector<std::string>& ids = started.run_ids;
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("[1] n: must be an integer"), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("[3]"), std::string::npos) << s.message();
  EXPECT_EQ(s.message().find("[0]"), std::string::npos) << s.message();
  EXPECT_TRUE(ids.empty());
  EXPECT_EQ(backend_->commits, 0);
  EXPECT_EQ(stored_runs(), 0u);
}

TEST_F(BulkStart, UnknownReactorAndNoBackendAreRefused) {
  EXPECT_EQ(engine_->run_many_in_background("Nope", inputs(2)).status.code(),
            StatusCode::kNotFound);
  Engine in_process;
  EXPECT_EQ(in_process.run_many_in_background("Double", inputs(2)).status.code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(backend_->commits, 0);
}

TEST_F(BulkStart, AnEmptyBatchWritesNothing) {
  BackgroundBatch batch = engine_->run_many_in_background("Double", {});
  EXPECT_TRUE(batch.ok());
  EXPECT_TRUE(batch.run_ids.empty());
  EXPECT_EQ(backend_->commits, 0);
}

TEST_F(BulkStart, AStoreErrorKeepsOnlyTheRunsOfTheCommitsThatSucceeded) {
  backend_->fail_commit = 2;
  BackgroundBatch batch = engine_->run_many_in_background(
      "Double", inputs(static_cast<int>(kBackgroundRunsPerCommit) + 10));
  Status s = batch.status;
  const std::vector<std::string>& ids = batch.run_ids;
  EXPECT_EQ(s.code(), StatusCode::kUnavailable);
  EXPECT_EQ(ids.size(), kBackgroundRunsPerCommit);
  EXPECT_EQ(stored_runs(), kBackgroundRunsPerCommit);
  for (const auto& id : ids) {
    bool has_job = false;
    ASSERT_OK_AND_ASSIGN(has_job, backend_->has_job(id));
    EXPECT_TRUE(has_job) << id;
  }
}

TEST_F(BulkStart, AWorkerRunsEveryRunOfTheBatch) {
  BackgroundBatch batch = engine_->run_many_in_background("Double", inputs(20));
  ASSERT_TRUE(batch.ok());
  const std::vector<std::string> ids = std::move(batch.run_ids);
  WorkerOptions w;
  w.sweeper = false;
  w.poll_interval = 5ms;
  Worker worker(*engine_, w);
  worker.start();
  for (std::size_t i = 0; i < ids.size(); ++i) {
    RunResult r;
    for (int wait = 0; wait < 2000; ++wait) {  // bounded: 10 s per run
      if (Result<RunResult> found = engine_->find(ids[i]); found.ok()) {
        r = std::move(found).value();
        if (r.status == RunStatus::kCompleted) break;
      }
      std::this_thread::sleep_for(5ms);
    }
    EXPECT_EQ(r.status, RunStatus::kCompleted) << ids[i];
    EXPECT_EQ(r.value, static_cast<int>(i) * 2);
  }
}

}  // namespace
