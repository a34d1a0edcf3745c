// The durable paths of the engine on the memory backend: background runs
// through a worker, retries handed back to the queue, snoozed duplicates,
// corrupt records, recovery by the sweeper. Time that rules depend on (leases,
// retry delays, snoozes) is a ManualClock; the only real waits are bounded
// polls for the worker thread to get there.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "reactor/reactor.hpp"
#include "reactor/worker.hpp"
#include "support/result_testing.hpp"

namespace {

using namespace reactor;
using namespace std::chrono_literals;

class DurableEngine : public ::testing::Test {
 protected:
  void SetUp() override {
    std::unique_ptr<Backend> backend;
    ASSERT_OK_AND_ASSIGN(backend, open_backend("memory:", clock_));
    EngineOptions options;
    options.clock = clock_;
    options.backend = std::move(backend);
    options.durability.lease_ttl = 10s;
    engine_ = std::make_unique<Engine>(std::move(options));
  }

  Definition saga(std::atomic<int>& runs_of_b, int fail_b_times, Duration retry_delay) {
    return Builder("Durable")
        .input("n", integer())
        .step("a", [](const Args& a) { return Success(a.get<int>("n") + 1); })
        .argument("n", input("n"))
        .step("b",
              [&runs_of_b, fail_b_times](const Args& a) {
                if (++runs_of_b <= fail_b_times) return Failure("flaky");
                return Success(a.get<int>("prev") * 10);
              })
        .argument("prev", result("a"))
        .retries(fixed_backoff(3, retry_delay))
        .returns("b")
        .build();
  }

  // Polls (bounded) until the run reaches `status`.
  RunResult wait_for(const std::string& id, RunStatus status) {
    RunResult r;
    for (int i = 0; i < 2000; ++i) {
      if (Result<RunResult> found = engine_->find(id); found.ok()) {
        r = std::move(found).value();
        if (r.status == status) return r;
      }
      std::this_thread::sleep_for(5ms);
    }
    return r;
  }

  std::unique_ptr<Worker> start_worker() {
    WorkerOptions w;
    w.sweeper = false;
    w.poll_interval = 5ms;
    auto worker = std::make_unique<Worker>(*engine_, w);
    worker->start();
    return worker;
  }

  std::shared_ptr<ManualClock> clock_ = std::make_shared<ManualClock>();
  std::unique_ptr<Engine> engine_;
};

TEST_F(DurableEngine, BackgroundRunIsPersistedEnqueuedThenCompletedByAWorker) {
  std::atomic<int> b{0};
  engine_->registry().add(saga(b, 0, 1s));
  std::string id;
  ASSERT_OK_AND_ASSIGN(id, engine_->run_in_background("Durable", {{"n", 4}}));
  RunResult stored;
  ASSERT_OK_AND_ASSIGN(stored, engine_->find(id));
  EXPECT_EQ(stored.status, RunStatus::kEnqueued);

  auto worker = start_worker();
  RunResult r = wait_for(id, RunStatus::kCompleted);
  EXPECT_EQ(r.status, RunStatus::kCompleted);
  EXPECT_EQ(r.value, 50);
  EXPECT_EQ(r.trace_summary(), "ran a, b");
  EXPECT_EQ(b.load(), 1);
}

TEST_F(DurableEngine, InvalidInputsAreRejectedInTheCallerAndNothingIsStored) {
  std::atomic<int> b{0};
  engine_->registry().add(saga(b, 0, 1s));
  Status s = engine_->run_in_background("Durable", {{"n", "four"}}).status();
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("n: must be an integer"), std::string::npos) << s.message();
  std::vector<RunHeaderRow> rows;
  ASSERT_OK_AND_ASSIGN(rows, engine_->backend()->list_runs(RunFilter{}));
  EXPECT_TRUE(rows.empty());
  EXPECT_EQ(engine_->run_in_background("Nope", {}).status().code(), StatusCode::kNotFound);
}

TEST_F(DurableEngine, ARetryWaitGoesBackToTheQueueInsteadOfHoldingAThread) {
  std::atomic<int> b{0};
  engine_->registry().add(saga(b, 1, 30s));
  std::string id;
  ASSERT_OK_AND_ASSIGN(id, engine_->run_in_background("Durable", {{"n", 1}}));
  auto worker = start_worker();

  // The first attempt failed; the run waits in storage, suspended, not in the worker.
  RunResult waiting = wait_for(id, RunStatus::kWaiting);
  ASSERT_EQ(waiting.status, RunStatus::kWaiting);
  ASSERT_NE(waiting.step("b"), nullptr);
  EXPECT_EQ(waiting.step("b")->status, StepStatus::kRetryScheduled);
  bool has_job = false;
  ASSERT_OK_AND_ASSIGN(has_job, engine_->backend()->has_job(id));
  EXPECT_TRUE(has_job);

  clock_->advance(30s);  // the retry falls due
  RunResult done = wait_for(id, RunStatus::kCompleted);
  EXPECT_EQ(done.status, RunStatus::kCompleted);
  EXPECT_EQ(done.step("b")->attempts, 2);
  EXPECT_EQ(b.load(), 2);
}

TEST_F(DurableEngine, ASynchronousRunIsStoredAsItRuns) {
  std::atomic<int> b{0};
  engine_->registry().add(saga(b, 0, 1s));
  RunResult r = engine_->run("Durable", {{"n", 2}});
  ASSERT_EQ(r.status, RunStatus::kCompleted);
  RunResult stored;
  ASSERT_OK_AND_ASSIGN(stored, engine_->find(r.run_id));
  EXPECT_EQ(stored.status, RunStatus::kCompleted);
  EXPECT_EQ(stored.value, 30);
  EXPECT_EQ(stored.trace_summary(), r.trace_summary());
  // Finished: its lease was released in the final commit.
  bool granted = false;
  Lease holder;
  ASSERT_TRUE(
      assign_or_status(granted, holder,
                       engine_->backend()->acquire_lease(run_lease_key(r.run_id), "someone", 1s))
          .ok());
  EXPECT_TRUE(granted);
}

TEST_F(DurableEngine, ADeliveryForARunHeldByALiveExecutionSnoozesWithoutRunningIt) {
  std::atomic<int> b{0};
  engine_->registry().add(saga(b, 0, 1s));
  std::string id;
  ASSERT_OK_AND_ASSIGN(id, engine_->run_in_background("Durable", {{"n", 3}}));
  bool granted = false;
  Lease live;
  ASSERT_TRUE(
      assign_or_status(granted, live,
                       engine_->backend()->acquire_lease(run_lease_key(id), "live-owner", 60s))
          .ok());
  ASSERT_TRUE(granted);

  auto worker = start_worker();
  for (int i = 0; i < 2000 && worker->stats().snoozed == 0; ++i) std::this_thread::sleep_for(5ms);
  EXPECT_GE(worker->stats().snoozed, 1u);
  RunResult r;
  ASSERT_OK_AND_ASSIGN(r, engine_->find(id));
  EXPECT_EQ(r.status, RunStatus::kEnqueued);
  EXPECT_EQ(b.load(), 0);

  ASSERT_TRUE(engine_->backend()->release_lease(live.key, live.owner, live.token).ok());
  clock_->advance(3s);  // past lock_snooze_base_delay + jitter
  EXPECT_EQ(wait_for(id, RunStatus::kCompleted).status, RunStatus::kCompleted);
  EXPECT_EQ(b.load(), 1);
}

TEST_F(DurableEngine, ACorruptRecordFailsThatRunAndTheWorkerServesTheNext) {
  std::atomic<int> b{0};
  engine_->registry().add(saga(b, 0, 1s));
  CommitRequest bad;
  bad.headers.push_back(RunHeaderRow{"bad-run", "bad-run", "", "Durable", RunStatus::kEnqueued, "x",
                                     Run::kSchemaVersion, "{not json", 0, 0});
  bad.enqueue.push_back(JobSpec{"Durable", JobKind::kStart, "bad-run", "Durable", 0, 0});
  ASSERT_TRUE(engine_->backend()->commit(bad).ok());
  std::string good;
  ASSERT_OK_AND_ASSIGN(good, engine_->run_in_background("Durable", {{"n", 5}}));

  auto worker = start_worker();
  EXPECT_EQ(wait_for(good, RunStatus::kCompleted).status, RunStatus::kCompleted);
  RunHeaderRow header;
  for (int i = 0; i < 2000; ++i) {
    ASSERT_OK_AND_ASSIGN(header, engine_->backend()->load_header("bad-run"));
    if (header.status == RunStatus::kFailed) break;
    std::this_thread::sleep_for(5ms);
  }
  EXPECT_EQ(header.status, RunStatus::kFailed);
  EXPECT_NE(header.body.find("corrupt_record"), std::string::npos) << header.body;
  bool has_job = true;
  ASSERT_OK_AND_ASSIGN(has_job, engine_->backend()->has_job("bad-run"));
  EXPECT_FALSE(has_job);  // acknowledged, not retried forever
}

// The step records stay as they were found (evidence), so only the header,
// rewritten when the run failed, can be read: find() must still say why.
TEST_F(DurableEngine, ARunFailedForAnUnreadableHeaderStillShowsWhy) {
  std::atomic<int> b{0};
  engine_->registry().add(saga(b, 0, 1s));
  std::string id;
  ASSERT_OK_AND_ASSIGN(id, engine_->run_in_background("Durable", {{"n", 3}}));
  StoredRun stored;
  ASSERT_OK_AND_ASSIGN(stored, engine_->backend()->load_run(id));
  ASSERT_FALSE(stored.headers.empty());
  CommitRequest garble;
  garble.headers.push_back(stored.headers.front());
  garble.headers.front().body = "{\"path\": [garbage";
  // A step row too, as a run under way has: the header that fails the run
  // names no steps, so this row stays unreadable beside it.
  garble.steps.push_back(StepRow{id, 0, "{}"});
  ASSERT_TRUE(engine_->backend()->commit(garble).ok());

  auto worker = start_worker();
  RunResult r = wait_for(id, RunStatus::kFailed);
  ASSERT_EQ(r.status, RunStatus::kFailed);
  ASSERT_TRUE(r.error.has_value());
  EXPECT_EQ(r.error->kind, ErrorKind::kCorruptRecord);
  EXPECT_EQ(b.load(), 0);

  // A later job for it (an operator's nudge) leaves the verdict as it was.
  CommitRequest nudge;
  nudge.enqueue.push_back(JobSpec{"Durable", JobKind::kResume, id, "Durable", 0, 0});
  ASSERT_TRUE(engine_->backend()->commit(nudge).ok());
  bool has_job = true;
  for (int i = 0; i < 2000 && has_job; ++i) {
    ASSERT_OK_AND_ASSIGN(has_job, engine_->backend()->has_job(id));
    if (has_job) std::this_thread::sleep_for(5ms);
  }
  EXPECT_FALSE(has_job);
  RunResult again;
  ASSERT_OK_AND_ASSIGN(again, engine_->find(id));
  ASSERT_TRUE(again.error.has_value());
  EXPECT_EQ(again.error->message, r.error->message);
}

TEST_F(DurableEngine, TheSweeperRequeuesARunningRunWhoseLeaseLapsed) {
  std::atomic<int> b{0};
  engine_->registry().add(saga(b, 0, 1s));
  std::string id;
  ASSERT_OK_AND_ASSIGN(id, engine_->run_in_background("Durable", {{"n", 6}}));
  // A worker takes the job and the lease, marks the run running, then dies.
  std::optional<Delivery> d;
  ASSERT_OK_AND_ASSIGN(d, engine_->backend()->fetch({{"Durable"}, "dead-worker", 10s, 10s}));
  ASSERT_TRUE(d && d->run_leased);
  StoredRun stored;
  ASSERT_OK_AND_ASSIGN(stored, engine_->backend()->load_run(id));
  CommitRequest mark;
  mark.root_id = id;
  mark.fencing_token = d->run_lease.token;
  RunHeaderRow header = stored.headers.front();
  header.status = RunStatus::kRunning;
  mark.headers.push_back(header);
  mark.ack_job = d->job.id;  // even its job is gone: only the sweeper can find the run
  mark.ack_owner = "dead-worker";
  ASSERT_TRUE(engine_->backend()->commit(mark).ok());

  SweepResult swept;
  ASSERT_OK_AND_ASSIGN(swept, engine_->sweep_once());
  EXPECT_EQ(swept.requeued, 0u);  // the lease is still live
  clock_->advance(11s);           // past the lease ttl
  ASSERT_OK_AND_ASSIGN(swept, engine_->sweep_once());
  EXPECT_EQ(swept.requeued, 1u);

  auto worker = start_worker();
  RunResult r = wait_for(id, RunStatus::kCompleted);
  EXPECT_EQ(r.status, RunStatus::kCompleted);
  EXPECT_EQ(r.value, 70);
  EXPECT_EQ(b.load(), 1);
}

}  // namespace
