// An execution whose lease was taken over ends without reporting the run's end: its final
// commit is refused, so on_run_complete comes once, from the execution that did finish the run
// (a metrics observer would otherwise count the run finished twice).
#include "support/result_testing.hpp"
#include "unit/durability/durable_fixture.hpp"

namespace reactor::durable_test {
namespace {

struct EndCounter final : Observer {
  std::atomic<int> completed{0};
  void on_run_complete(const EventContext&, RunStatus) override { ++completed; }
};

TEST_F(DurableRules, AnExecutionThatLostItsLeaseDoesNotReportTheRunsEnd) {
  DurabilityOptions d;
  d.hung_step_grace = 5s;
  open(d);
  auto ends = std::make_shared<EndCounter>();
  std::atomic<int> calls{0};
  std::atomic<bool> release{false};
  engine_->registry().add(Builder("Slow")
                              .observe(ends)
                              .step("slow",
                                    [&](const Args&) {
                                      if (++calls == 1) {
                                        while (!release) std::this_thread::sleep_for(1ms);
                                      }
                                      return Success(1);
                                    })
                              .timeout(1s)
                              .build());
  std::string id;
  ASSERT_OK_AND_ASSIGN(id, engine_->run_in_background("Slow", Value::object()));
  auto worker = start_worker();
  ASSERT_TRUE(eventually([&] { return calls.load() == 1; }));
  // The first execution's lease lapses and another writer takes the run.
  bool granted = false;
  Lease rescuer;
  for (int i = 0; i < 200 && !granted; ++i) {
    clock_->advance(1s);
    std::this_thread::sleep_for(5ms);
    ASSERT_TRUE(
        assign_or_status(granted, rescuer, store_->acquire_lease(run_lease_key(id), "rescuer", 60s))
            .ok());
  }
  ASSERT_TRUE(granted);
  release = true;
  ASSERT_TRUE(eventually([&] { return worker->stats().lease_lost == 1; }));
  EXPECT_EQ(ends->completed.load(), 0);  // its end was refused: not reported

  // The run is taken over and finished by a second execution: reported once. The clock moves
  // in steps far below the step's 1 s timeout and stops once that execution has called the step,
  // so the timeout cannot fire inside it however slowly this machine runs.
  ASSERT_TRUE(store_->release_lease(rescuer.key, rescuer.owner, rescuer.token).ok());
  for (int i = 0; i < 4000 && calls.load() < 2; ++i) {
    clock_->advance(100ms);
    std::this_thread::sleep_for(1ms);
  }
  ASSERT_EQ(calls.load(), 2);
  ASSERT_TRUE(eventually([&] { return ends->completed.load() == 1; }));
  RunResult r;
  ASSERT_OK_AND_ASSIGN(r, engine_->find(id));
  EXPECT_EQ(r.status, RunStatus::kCompleted);
  EXPECT_EQ(ends->completed.load(), 1);
}

}  // namespace
}  // namespace reactor::durable_test
