// Every execution is visible: a step's execution lost with its worker — one that died or lost
// the run's lease mid-step — is recorded, by the worker that takes the run over, as an
// interrupted execution under the lost one's worker id and token; the step's record counts it;
// and a step whose executions keep being lost fails its run (a poison pill) instead of killing
// workers for ever. The loss is made here by a "thief" that takes the run's lease away while a
// step body runs, as the sweeper's next owner would once a dead worker's lease lapsed.
#include <functional>

#include "support/result_testing.hpp"
#include "unit/durability/durable_fixture.hpp"

namespace reactor::durable_test {
namespace {

class LostExecutions : public DurableRules {
 protected:
  // Two steps; while `steal` is set, "b"'s body moves the clock past the lease and lets a
  // thief take it, so b's execution is lost (its commit refused).
  Definition two_steps() {
    return Builder("Lossy")
        .step("a",
              [this](const Args&) {
                ++a_runs_;
                return Success(1);
              })
        .step("b",
              [this](const Args&, StepContext& ctx) {
                ++b_runs_;
                if (steal_ > 0) {
                  --steal_;
                  EXPECT_TRUE(steal_lease(ctx.run_id()));
                }
                return Success(2);
              })
        .wait_for("a")
        .compensate([this](const std::string&, const Args&, StepContext&) {
          ++compensated_;
          return Success();
        })
        .build();
  }

  // Moves the clock past the 10 s lease and takes it for a thief, as the next owner would once a
  // dead worker's lease lapsed. The thief seizes it: the worker's lease keeper, woken by the
  // clock, may renew the lapsed lease first, and a plain acquire could lose that race every time.
  bool steal_lease(const std::string& run_id) {
    clock_->advance(11s);
    Lease thief;
    return assign_or_status(thief, store_->seize_lease(run_lease_key(run_id), "thief", 1ms)).ok();
  }

  // Hands the run to the next delivery: the thief's lease lapses, the sweeper redelivers.
  void sweep() {
    clock_->advance(1s);
    ASSERT_TRUE(engine_->sweep_once().ok());
  }
  // Sweeps (bounded) until `done`, a second of the clock a round: whatever the worker was still
  // doing when its loss was counted, a sweep comes after it.
  bool sweep_until(const std::function<bool()>& done) {
    for (int i = 0; i < 1000 && !done(); ++i) {
      sweep();
      std::this_thread::sleep_for(5ms);
    }
    return done();
  }
  std::function<bool()> status_is(const std::string& id, RunStatus status) {
    return [this, id, status] {
      RunHeaderRow h;
      return assign_or_status(h, store_->load_header(id)).ok() && h.status == status;
    };
  }

  std::atomic<int> a_runs_{0}, b_runs_{0}, compensated_{0}, steal_{0};
};

TEST_F(LostExecutions, ALostExecutionIsTracedUnderItsWorkerAndTokenAndCountedOnTheStep) {
  open();
  engine_->registry().add(two_steps());
  steal_ = 1;
  std::string id;
  ASSERT_OK_AND_ASSIGN(id, engine_->run_in_background("Lossy", Value::object()));
  auto worker = start_worker();
  ASSERT_TRUE(eventually([&] { return b_runs_.load() == 1 && worker->stats().lease_lost == 1; }));
  ASSERT_TRUE(sweep_until(status_is(id, RunStatus::kCompleted)));
  RunResult r;
  ASSERT_OK_AND_ASSIGN(r, engine_->find(id));
  EXPECT_EQ(r.trace_summary(), "ran a; lost b; ran b");
  const TraceEvent& lost = r.trace[1];
  EXPECT_EQ(lost.type, TraceType::kInterrupted);
  EXPECT_EQ(lost.attempt, 1);
  EXPECT_FALSE(lost.worker.empty());
  EXPECT_GT(lost.token, 0u);
  EXPECT_LT(lost.token, r.trace[2].token);  // the lost execution's token, not the finisher's
  EXPECT_EQ(r.trace[0].token, lost.token);  // the same execution ran a
  EXPECT_EQ(r.step("b")->attempts, 2);
  EXPECT_EQ(r.step("b")->interrupted, 1);
  EXPECT_EQ(r.step("a")->interrupted, 0);
  EXPECT_EQ(a_runs_.load(), 1);
  EXPECT_EQ(b_runs_.load(), 2);
}

// The execution lost was the first of its delivery, before it had written anything: its
// step was never stored as started, and the next owner records it from the header's last
// writer all the same.
TEST_F(LostExecutions, ALossBeforeTheFirstCommitOfADeliveryIsRecordedToo) {
  open();
  std::atomic<int> runs{0};
  engine_->registry().add(Builder("Lost1")
                              .step("only",
                                    [&](const Args&, StepContext& ctx) {
                                      if (++runs == 1) {
                                        EXPECT_TRUE(steal_lease(ctx.run_id()));
                                      }
                                      return Success();
                                    })
                              .build());
  std::string id;
  ASSERT_OK_AND_ASSIGN(id, engine_->run_in_background("Lost1", Value::object()));
  auto worker = start_worker();
  ASSERT_TRUE(eventually([&] { return worker->stats().lease_lost == 1; }));
  ASSERT_TRUE(sweep_until(status_is(id, RunStatus::kCompleted)));
  RunResult r;
  ASSERT_OK_AND_ASSIGN(r, engine_->find(id));
  EXPECT_EQ(r.trace_summary(), "lost only; ran only");
  EXPECT_EQ(r.step("only")->attempts, 2);
  EXPECT_EQ(r.step("only")->interrupted, 1);
}

TEST_F(LostExecutions, AStepWhoseExecutionsKeepBeingLostFailsItsRunAfterTheLimit) {
  DurabilityOptions d;
  d.max_interrupted_executions = 3;
  open(d);
  engine_->registry().add(two_steps());
  steal_ = 100;
  std::string id;
  ASSERT_OK_AND_ASSIGN(id, engine_->run_in_background("Lossy", Value::object()));
  auto worker = start_worker();
  for (unsigned lost = 1; lost <= 3; ++lost) {
    ASSERT_TRUE(sweep_until([&] { return worker->stats().lease_lost >= lost; })) << lost;
  }
  ASSERT_TRUE(sweep_until(status_is(id, RunStatus::kFailed)));
  RunResult r;
  ASSERT_OK_AND_ASSIGN(r, engine_->find(id));
  ASSERT_TRUE(r.error);
  EXPECT_EQ(r.error->kind, ErrorKind::kInterrupted);
  EXPECT_EQ(r.error->step, "b");
  EXPECT_EQ(b_runs_.load(), 3);       // never a fourth time
  EXPECT_EQ(compensated_.load(), 1);  // its body started: compensated, once
  EXPECT_EQ(r.step("b")->interrupted, 3);
}

}  // namespace
}  // namespace reactor::durable_test
