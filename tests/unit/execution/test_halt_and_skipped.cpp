// Halt and Skipped: Halt stops the run without rollback (status halted, value = reason);
// Skipped's value flows on like a Success but the step is never undone.
#include "unit/engine_test_support.hpp"

using namespace reactor;
using namespace reactor_test;
using ::testing::IsEmpty;

namespace {

struct SignalKit {
  Journal log;
  UndoFn undo(const std::string& name) {
    return [this, name](const Value&, const Args&, StepContext&) {
      log.add("undo " + name);
      return Success();
    };
  }
  CompensateFn comp(const std::string& name) {
    return [this, name](const std::string&, const Args&, StepContext&) {
      log.add("compensate " + name);
      return Success();
    };
  }
};

}  // namespace

TEST(HaltAndSkipped, HaltStopsTheRunWithoutRollback) {
  SignalKit k;
  auto observer = std::make_shared<RecordingObserver>();
  Definition d = Builder("Approval")
                     .observe(observer)
                     .step("reserve",
                           [&](const Args&) {
                             k.log.add("run reserve");
                             return Success("R1");
                           })
                     .undo(k.undo("reserve"))
                     .step("check",
                           [&](const Args&) {
                             k.log.add("run check");
                             return Halt(Value{{"awaiting", "manager approval"}});
                           })
                     .wait_for("reserve")
                     .undo(k.undo("check"))
                     .compensate(k.comp("check"))
                     .step("ship",
                           [&](const Args&) {
                             k.log.add("run ship");
                             return Success();
                           })
                     .wait_for("check")
                     .build();
  Engine engine;
  RunResult r = engine.run(d, Value::object());
  EXPECT_EQ(r.status, RunStatus::kHalted);
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.value, (Value{{"awaiting", "manager approval"}}));
  EXPECT_FALSE(r.error);
  EXPECT_EQ(k.log.entries(), (std::vector<std::string>{"run reserve", "run check"}));
  EXPECT_EQ(r.trace_summary(), "ran reserve, check");
  ASSERT_EQ(r.trace.size(), 2u);
  EXPECT_EQ(r.trace[1].outcome, "halt");
  EXPECT_EQ(r.step("reserve")->status, StepStatus::kCompleted);  // not undone
  EXPECT_EQ(r.step("check")->status, StepStatus::kHalted);
  EXPECT_EQ(r.step("ship")->status, StepStatus::kPending);
  EXPECT_EQ(observer->events().back(), "run_complete(halted) [Approval]");
}

TEST(HaltAndSkipped, HaltIsNotRetried) {
  auto clock = manual_clock();
  Counters calls;
  Definition d = Builder("Approval")
                     .step("check",
                           [&](const Args&) {
                             calls.hit("check");
                             return Halt("later");
                           })
                     .retries(fixed_backoff(3, std::chrono::seconds(1)))
                     .build();
  Engine engine(with_clock(clock));
  RunResult r = engine.run(d, Value::object());
  EXPECT_EQ(r.status, RunStatus::kHalted);
  EXPECT_EQ(r.value, "later");
  EXPECT_EQ(calls.get("check"), 1);
  EXPECT_THAT(clock->sleeps(), IsEmpty());
}

TEST(HaltAndSkipped, SkippedValueFlowsOnAndIsNeverUndone) {
  SignalKit k;
  Definition d = Builder("Loyalty")
                     .step("reserve",
                           [&](const Args&) {
                             k.log.add("run reserve");
                             return Success("R1");
                           })
                     .undo(k.undo("reserve"))
                     .step("points",
                           [&](const Args&) {
                             k.log.add("run points");
                             return Skipped(Value{{"points", 0}});
                           })
                     .wait_for("reserve")
                     .undo(k.undo("points"))
                     .step("charge",
                           [&](const Args& a) {
                             k.log.add("run charge with " + a["points"].dump());
                             return Success(a["points"]);
                           })
                     .argument("points", result("points", "points"))
                     .undo(k.undo("charge"))
                     .step("ship",
                           [&](const Args&) {
                             k.log.add("run ship");
                             return Failure("no carrier", false);
                           })
                     .wait_for("charge")
                     .build();
  Engine engine;
  RunResult r = engine.run(d, Value::object());
  EXPECT_EQ(r.status, RunStatus::kFailed);
  EXPECT_EQ(k.log.entries(),
            (std::vector<std::string>{"run reserve", "run points", "run charge with 0", "run ship",
                                      "undo charge", "undo reserve"}));
  EXPECT_EQ(r.trace_summary(), "ran reserve, points, charge, ship; undid charge, reserve");
  EXPECT_EQ(r.trace[1].outcome, "skipped");
  EXPECT_EQ(r.step("points")->status, StepStatus::kSkipped);
  EXPECT_EQ(r.step("points")->result, (Value{{"points", 0}}));
  EXPECT_EQ(k.log.count("undo points"), 0);
}

TEST(HaltAndSkipped, SkippedStepCountsAsDoneForDependentsAndTheRunValue) {
  Definition d = Builder("Loyalty")
                     .step("points", [](const Args&) { return Skipped(5); })
                     .step("total", [](const Args& a) { return Success(a["p"].get<int>() + 1); })
                     .argument("p", result("points"))
                     .build();
  Engine engine;
  RunResult r = engine.run(d, Value::object());
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.value, (Value{{"points", 5}, {"total", 6}}));
}
