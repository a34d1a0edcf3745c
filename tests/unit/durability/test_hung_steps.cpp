// A step that outlives its timeout by far stops its run's heartbeat, so another worker can
// take the run over instead of a hung thread holding it for ever.
#include "support/result_testing.hpp"
#include "unit/durability/durable_fixture.hpp"

namespace reactor::durable_test {
namespace {

TEST_F(DurableRules, AStepHungPastItsTimeoutStopsTheHeartbeatSoAnotherWriterCanTakeTheRun) {
  DurabilityOptions d;
  d.hung_step_grace = 5s;
  open(d);  // lease ttl 10 s, heartbeat every ~1 s
  std::atomic<bool> started{false}, release{false};
  engine_->registry().add(Builder("Hangs")
                              .step("stuck",
                                    [&](const Args&) {
                                      started = true;  // and ignores its cancellation token
                                      while (!release) std::this_thread::sleep_for(1ms);
                                      return Success(1);
                                    })
                              .timeout(1s)
                              .build());
  std::string id;
  ASSERT_OK_AND_ASSIGN(id, engine_->run_in_background("Hangs", Value::object()));
  auto worker = start_worker();
  ASSERT_TRUE(eventually([&] { return started.load(); }));

  // Time passes: the timeout fires, the grace runs out, the heartbeat stops
  // and the lease lapses. Without that, the heartbeat would hold it forever.
  bool granted = false;
  Lease rescuer;
  for (int i = 0; i < 200 && !granted; ++i) {
    clock_->advance(1s);
    std::this_thread::sleep_for(5ms);
    ASSERT_TRUE(
        assign_or_status(granted, rescuer, store_->acquire_lease(run_lease_key(id), "rescuer", 60s))
            .ok());
  }
  release = true;
  ASSERT_TRUE(granted);
  // The hung step returns at last; its execution's write is fenced off.
  EXPECT_TRUE(eventually([&] { return worker->stats().lease_lost == 1; }));
  RunResult r;
  ASSERT_OK_AND_ASSIGN(r, engine_->find(id));
  EXPECT_NE(r.status, RunStatus::kCompleted);
}

}  // namespace
}  // namespace reactor::durable_test
