// A store that is busy or down when a delivery loads its run: the run is snoozed, at most
// lock_snooze_max_attempts times, then failed with the reason; nothing is lost if the store
// comes back in time.
#include "support/result_testing.hpp"
#include "unit/durability/durable_fixture.hpp"

namespace reactor::durable_test {
namespace {

TEST_F(DurableRules, AStoreThatStaysUnavailableSnoozesTheRunUpToTheCapThenFailsIt) {
  const std::string id = start_against_a_busy_store(/*snooze_cap=*/2);
  auto worker = start_worker();

  RunHeaderRow h = wait_for(id, RunStatus::kFailed, 1s);
  ASSERT_EQ(h.status, RunStatus::kFailed);
  EXPECT_NE(h.body.find("\"contention\""), std::string::npos) << h.body;
  EXPECT_NE(h.body.find("through 2 snoozes"), std::string::npos) << h.body;
  EXPECT_EQ(worker->stats().snoozed, 2u);
  bool has_job = true;
  ASSERT_OK_AND_ASSIGN(has_job, store_->has_job(id));
  EXPECT_FALSE(has_job);

  // The store is back: the same worker serves the next run.
  store_->refuse_loads = false;
  std::string next;
  ASSERT_OK_AND_ASSIGN(next, engine_->run_in_background("Five", {{"n", 10}}));
  EXPECT_EQ(wait_for(next, RunStatus::kCompleted).status, RunStatus::kCompleted);
}

TEST_F(DurableRules, AStoreThatRecoversBeforeTheCapLosesNothing) {
  const std::string id = start_against_a_busy_store(/*snooze_cap=*/5);
  auto worker = start_worker();
  for (int i = 0; i < 2000 && worker->stats().snoozed < 2; ++i) {
    clock_->advance(1s);
    std::this_thread::sleep_for(5ms);
  }
  ASSERT_GE(worker->stats().snoozed, 2u);
  store_->refuse_loads = false;
  wait_for(id, RunStatus::kCompleted, 1s);
  RunResult r;
  ASSERT_OK_AND_ASSIGN(r, engine_->find(id));
  EXPECT_EQ(r.status, RunStatus::kCompleted);
  EXPECT_EQ(r.value, 5);
}

}  // namespace
}  // namespace reactor::durable_test
