// How a Worker fetches: only the queues of the reactors it is given, a wait after a last
// commit that found no job, and the job fetched ahead given back when it stops.
#include "support/result_testing.hpp"
#include "unit/durability/durable_fixture.hpp"

namespace reactor::durable_test {
namespace {

// WorkerOptions::reactors: a worker serves those reactors' queues only, and
// refuses a name the engine does not know.
TEST_F(DurableRules, AWorkerServesOnlyTheReactorsItIsGiven) {
  open();
  Builder b("Other");
  b.step("only", [](const Args&) { return Success(1); });
  engine_->registry().add(b.build());
  WorkerOptions unknown;
  unknown.reactors = {"Other", "Nope"};
  try {
    Worker refused(*engine_, unknown);
    ADD_FAILURE() << "a worker for an unknown reactor was built";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("'Nope'"), std::string::npos) << e.what();
  }
  // Enqueued first: a worker serving every queue would take it first.
  std::string five, other;
  ASSERT_OK_AND_ASSIGN(five, engine_->run_in_background("Five", {{"n", 0}}));
  ASSERT_OK_AND_ASSIGN(other, engine_->run_in_background("Other", Value::object()));
  WorkerOptions w;
  w.sweeper = false;
  w.poll_interval = 5ms;
  w.reactors = {"Other"};
  Worker worker(*engine_, w);
  worker.start();
  EXPECT_EQ(wait_for(other, RunStatus::kCompleted).status, RunStatus::kCompleted);
  worker.stop();
  worker.wait();
  RunHeaderRow h;
  ASSERT_OK_AND_ASSIGN(h, store_->load_header(five));
  EXPECT_EQ(h.status, RunStatus::kEnqueued);
  EXPECT_EQ(worker.stats().jobs, 1u);
}

// A run's last commit also fetches the worker's next job. When it finds none,
// the worker's next try waits for an enqueue first: fetching again at once
// would only find nothing a second time.
TEST_F(DurableRules, AWorkerWhoseLastCommitFoundNoJobWaitsBeforeFetchingAgain) {
  open();
  std::string id;
  ASSERT_OK_AND_ASSIGN(id, engine_->run_in_background("Five", {{"n", 0}}));
  auto worker = start_worker();
  ASSERT_EQ(wait_for(id, RunStatus::kCompleted).status, RunStatus::kCompleted);
  std::vector<std::string> calls;
  ASSERT_TRUE(eventually([&] {
    calls = store_->calls();
    auto end = std::find(calls.begin(), calls.end(), "commit:completed");
    return end != calls.end() && calls.end() - end >= 3;
  }));
  worker->stop();
  worker->wait();
  auto end = std::find(calls.begin(), calls.end(), "commit:completed");
  ASSERT_NE(end, calls.end());
  EXPECT_EQ(*(end + 1), "fetch:none");  // the commit's own fetch
  EXPECT_EQ(*(end + 2), "wait");
  // Five steps, each committed; a store inside the process counts no requests.
  EXPECT_EQ(worker->stats().durable_steps, 5u);
  EXPECT_EQ(worker->stats().round_trips, 0u);
}

// A run's last commit fetches the worker's next job. A worker told to stop
// meanwhile does not run that job: it gives it back, its run filed as it was
// found, due at once for whoever comes next.
TEST_F(DurableRules, AStoppingWorkerGivesBackTheJobItFetchedWithItsLastCommit) {
  open();
  std::mutex mu;
  std::condition_variable cv;
  bool in_last_step = false, may_finish = false;
  Builder b("Gate");
  b.step("wait", [&](const Args&) {
    std::unique_lock lock(mu);
    in_last_step = true;
    cv.notify_all();
    cv.wait(lock, [&] { return may_finish; });
    return Success(1);
  });
  engine_->registry().add(b.build());
  std::string gate, next;
  ASSERT_OK_AND_ASSIGN(gate, engine_->run_in_background("Gate", Value::object()));
  auto worker = start_worker();
  {
    std::unique_lock lock(mu);
    ASSERT_TRUE(cv.wait_for(lock, 10s, [&] { return in_last_step; }));
  }
  ASSERT_OK_AND_ASSIGN(next, engine_->run_in_background("Five", {{"n", 0}}));
  worker->stop();
  {
    std::lock_guard lock(mu);
    may_finish = true;
  }
  cv.notify_all();
  worker->wait();

  RunHeaderRow h;
  ASSERT_OK_AND_ASSIGN(h, store_->load_header(gate));
  EXPECT_EQ(h.status, RunStatus::kCompleted);
  ASSERT_OK_AND_ASSIGN(h, store_->load_header(next));
  EXPECT_EQ(h.status, RunStatus::kEnqueued);
  bool has_job = false;
  ASSERT_OK_AND_ASSIGN(has_job, store_->has_job(next));
  EXPECT_TRUE(has_job);
  auto again = start_worker();
  EXPECT_EQ(wait_for(next, RunStatus::kCompleted).status, RunStatus::kCompleted);
}

}  // namespace
}  // namespace reactor::durable_test
