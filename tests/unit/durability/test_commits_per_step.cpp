// What a durable run writes and when: one commit per step, the start filed by the fetch or
// committed by the worker, the inputs with the first commit, coalesced mid-run commits.
#include "support/result_testing.hpp"
#include "unit/durability/durable_fixture.hpp"

namespace reactor::durable_test {
namespace {

TEST_F(DurableRules, AWorkerCommitsOncePerStepWithTheRunsEndInTheLastStepsCommit) {
  open();
  std::string id;
  ASSERT_OK_AND_ASSIGN(id, engine_->run_in_background("Five", {{"n", 0}}));
  ASSERT_EQ(store_->commits.exchange(0), 1);  // the run and its job, together
  auto worker = start_worker();
  ASSERT_EQ(wait_for(id, RunStatus::kCompleted).status, RunStatus::kCompleted);
  // The fetch filed the run as running; then one commit per step, step 5's
  // also carrying the terminal state, the job's ack and the lease release.
  EXPECT_EQ(store_->commits.load(), 5);
  bool has_job = true;
  ASSERT_OK_AND_ASSIGN(has_job, store_->has_job(id));
  EXPECT_FALSE(has_job);
}

TEST_F(DurableRules, AWorkerCommitsTheStartItselfWhenTheFetchDidNotFileTheRunAsRunning) {
  open();
  store_->hide_started = true;
  std::string id;
  ASSERT_OK_AND_ASSIGN(id, engine_->run_in_background("Five", {{"n", 0}}));
  ASSERT_EQ(store_->commits.exchange(0), 1);
  auto worker = start_worker();
  ASSERT_EQ(wait_for(id, RunStatus::kCompleted).status, RunStatus::kCompleted);
  EXPECT_EQ(store_->commits.load(), 6);  // "running", then one per step
}

TEST_F(DurableRules, ASynchronousRunStoresItsInputsWithItsFirstCommit) {
  open();
  RunResult r = engine_->run("Five", {{"n", 7}});
  ASSERT_EQ(r.status, RunStatus::kCompleted);
  StoredRun stored;
  ASSERT_OK_AND_ASSIGN(stored, store_->load_run(r.run_id));
  ASSERT_EQ(stored.inputs.size(), 1u);
  EXPECT_EQ(Value::parse(stored.inputs.front().inputs), (Value{{"n", 7}}));
}

TEST_F(DurableRules, CheckpointMinIntervalCoalescesMidRunCommitsButAlwaysWritesTheEnd) {
  open();
  RunResult every = engine_->run("Five", {{"n", 0}});
  ASSERT_EQ(every.status, RunStatus::kCompleted);
  const int uncoalesced = store_->commits.exchange(0);
  EXPECT_GE(uncoalesced, 5);  // one per step at least

  DurabilityOptions d;
  d.checkpoint_min_interval = 1h;  // the clock stands still: nothing is due mid-run
  open(d);
  RunResult coalesced = engine_->run("Five", {{"n", 0}});
  ASSERT_EQ(coalesced.status, RunStatus::kCompleted);
  EXPECT_LT(store_->commits.load(), uncoalesced);
  EXPECT_LE(store_->commits.load(), 2);  // at most the start and the terminal state
  RunResult stored;
  ASSERT_OK_AND_ASSIGN(stored, engine_->find(coalesced.run_id));
  EXPECT_EQ(stored.status, RunStatus::kCompleted);
  EXPECT_EQ(stored.value, 5);
  EXPECT_EQ(stored.trace_summary(), "ran s1, s2, s3, s4, s5");
}

}  // namespace
}  // namespace reactor::durable_test
