// Crash loops end, whatever crashed (DurabilityOptions::max_deliveries_without_progress): a
// run whose deliveries keep ending without progress — each worker died somewhere in it, not
// only in a step body — is failed by the next delivery with poison_delivery, reading its header
// alone; if that delivery dies too, the one after sets it aside as quarantined, reading nothing,
// its job removed. A delivery "dies" here as a killed worker's does: the store counted it at
// fetch time, and then nothing more is written for it until its job and lease lapse.
#include "support/result_testing.hpp"
#include "unit/durability/durable_fixture.hpp"

namespace reactor::durable_test {
namespace {

class CrashLoops : public DurableRules {
 protected:
  // Fetches the run's job as a worker that dies at once, then lets its delivery and the run's
  // lease lapse (visibility 1 s, lease 10 s): the next fetch may take both again.
  void dies_in_delivery(const std::string& run_id, int n) {
    std::optional<Delivery> d;
    FetchRequest f{{"Five"}, "dead-" + std::to_string(n), 1s, 10s, "dead:" + std::to_string(n)};
    ASSERT_OK_AND_ASSIGN(d, store_->fetch(f));
    ASSERT_TRUE(d && d->run_leased);
    EXPECT_EQ(d->job.spec.run_id, run_id);
    EXPECT_EQ(d->run_deliveries, n);
    clock_->advance(11s);
  }

  std::string start_five(int n) {
    std::string id;
    EXPECT_OK_AND_ASSIGN(id, engine_->run_in_background("Five", {{"n", n}}));
    return id;
  }

  RunResult find(const std::string& id) {
    RunResult r;
    EXPECT_OK_AND_ASSIGN(r, engine_->find(id));
    return r;
  }
};

TEST_F(CrashLoops, TheDeliveryAfterTheLimitFailsTheRunAndOthersGoOn) {
  open();
  const std::string id = start_five(0);
  for (int n = 1; n <= 3; ++n) dies_in_delivery(id, n);
  const std::string good = start_five(10);
  auto worker = start_worker();
  wait_for(id, RunStatus::kFailed);
  wait_for(good, RunStatus::kCompleted);
  worker->stop();
  const RunResult r = find(id);
  EXPECT_EQ(r.status, RunStatus::kFailed);
  ASSERT_TRUE(r.error);
  EXPECT_EQ(r.error->kind, ErrorKind::kPoisonDelivery);
  EXPECT_NE(r.error->message.find("3 deliveries in a row ended without progress"),
            std::string::npos)
      << r.error->message;
  bool has_job = true;
  ASSERT_OK_AND_ASSIGN(has_job, store_->has_job(id));
  EXPECT_FALSE(has_job);
  EXPECT_EQ(find(good).value, 15);       // the run beside it is served as ever
  EXPECT_EQ(r.steps.at(0).attempts, 0);  // failed reading its header alone: no step ran
}

TEST_F(CrashLoops, WhenFailingItDiedTooTheRunIsQuarantinedUnread) {
  open();
  const std::string id = start_five(0);
  for (int n = 1; n <= 4; ++n) dies_in_delivery(id, n);  // the fourth would have failed it
  auto worker = start_worker();
  wait_for(id, RunStatus::kQuarantined);
  worker->stop();
  const RunResult r = find(id);
  EXPECT_EQ(r.status, RunStatus::kQuarantined);
  ASSERT_TRUE(r.error);
  EXPECT_EQ(r.error->kind, ErrorKind::kPoisonDelivery);
  EXPECT_NE(r.error->message.find("quarantined"), std::string::npos) << r.error->message;
  bool has_job = true;
  ASSERT_OK_AND_ASSIGN(has_job, store_->has_job(id));
  EXPECT_FALSE(has_job);
  EXPECT_TRUE(is_terminal(r.status));
}

// Two deliveries die, the third records a step (a failed first attempt, retried in 30 s: the
// run waits), then two more die: four in all, but never three in a row without progress.
TEST_F(CrashLoops, ProgressStartsTheCountAgain) {
  open();
  std::atomic<int> attempts{0};
  engine_->registry().add(Builder("Flaky")
                              .step("a",
                                    [&](const Args&) -> StepResult {
                                      if (++attempts == 1) return Failure("not yet");
                                      return Success(7);
                                    })
                              .retries(fixed_backoff(5, 30s))
                              .build());
  std::string id;
  ASSERT_OK_AND_ASSIGN(id, engine_->run_in_background("Flaky", Value::object()));
  const auto dies = [&](int n) {
    std::optional<Delivery> d;
    ASSERT_OK_AND_ASSIGN(d, store_->fetch({{"Flaky"}, "dead", 1s, 10s, "dead:1"}));
    ASSERT_TRUE(d && d->run_leased);
    EXPECT_EQ(d->run_deliveries, n);
    clock_->advance(11s);
  };
  dies(1);
  dies(2);
  auto worker = start_worker();
  wait_for(id, RunStatus::kWaiting);
  worker->stop();
  worker.reset();
  clock_->advance(31s);
  dies(1);  // counted from one again: the retry's commit was progress
  dies(2);
  worker = start_worker();
  wait_for(id, RunStatus::kCompleted);
  worker->stop();
  const RunResult r = find(id);
  EXPECT_EQ(r.status, RunStatus::kCompleted);
  EXPECT_EQ(r.value, (Value{{"a", 7}}));
}

TEST_F(CrashLoops, ZeroMeansNoLimit) {
  DurabilityOptions d;
  d.max_deliveries_without_progress = 0;
  open(d);
  const std::string id = start_five(0);
  for (int n = 1; n <= 5; ++n) dies_in_delivery(id, n);
  auto worker = start_worker();
  wait_for(id, RunStatus::kCompleted);
  worker->stop();
  EXPECT_EQ(find(id).status, RunStatus::kCompleted);
}

}  // namespace
}  // namespace reactor::durable_test
