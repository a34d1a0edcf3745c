// reactor/testing.hpp: TestRun (mock_step, fail_at) and the HasTrace / HasStatus / FailedAt
// matchers, used the way a user's own test would use them.
#include "reactor/testing.hpp"
#include "unit/engine_test_support.hpp"

using namespace reactor;
using reactor::testing::FailedAt;
using reactor::testing::HasStatus;
using reactor::testing::HasTrace;
using reactor::testing::TestRun;
using ::testing::Not;

namespace {

struct Inventory {
  reactor_test::Counters calls;
};

Definition order_saga(Inventory& inv) {
  Definition payment =
      Builder("Payment")
          .input("amount", integer())
          .step("charge",
                [&inv](const Args& a) {
                  inv.calls.hit("charge");
                  return Success(a["amount"]);
                })
          .compensate([](const std::string&, const Args&, StepContext&) { return Success(); })
          .undo([](const Value&, const Args&, StepContext&) { return Success(); })
          .returns("charge")
          .build();
  return Builder("OrderSaga")
      .input("order_id", integer())
      .input("amount", integer())
      .step("reserve",
            [&inv](const Args& a) {
              inv.calls.hit("reserve");
              return Success(a["order_id"].get<int>() * 100);
            })
      .argument("order_id", input("order_id"))
      .undo([](const Value&, const Args&, StepContext&) { return Success(); })
      .compose("payment", payment)
      .argument("amount", input("amount"))
      .wait_for("reserve")
      .step("ship",
            [&inv](const Args& a) {
              inv.calls.hit("ship");
              return Success(Value{{"reservation", a["reservation"]}, {"paid", a["paid"]}});
            })
      .argument("reservation", result("reserve"))
      .argument("paid", result("payment"))
      .compensate([](const std::string&, const Args&, StepContext&) { return Success(); })
      .returns("ship")
      .build();
}

const Value kInputs{{"order_id", 1}, {"amount", 5}};

}  // namespace

TEST(TestingHeader, UnmockedRunBehavesNormally) {
  Inventory inv;
  RunResult r = TestRun(order_saga(inv)).run(kInputs);
  EXPECT_THAT(r, HasStatus(RunStatus::kCompleted));
  EXPECT_THAT(r, HasTrace("ran reserve, payment/charge, payment, ship"));
  EXPECT_EQ(r.value, (Value{{"reservation", 100}, {"paid", 5}}));
}

TEST(TestingHeader, MockStepReplacesTheBodyAndItsValueFlowsOn) {
  Inventory inv;
  RunResult r =
      TestRun(order_saga(inv))
          .mock_step("reserve", [](const Args& a) { return Success(a["order_id"].get<int>() + 6); })
          .run(kInputs);
  EXPECT_THAT(r, HasStatus(RunStatus::kCompleted));
  EXPECT_EQ(r.value["reservation"], 7);
  EXPECT_EQ(inv.calls.get("reserve"), 0) << "the real body must not run";
  EXPECT_EQ(inv.calls.get("ship"), 1);
}

TEST(TestingHeader, MockStepInsideAComposedChildWithContext) {
  Inventory inv;
  std::string seen_path;
  RunResult r = TestRun(order_saga(inv))
                    .mock_step("payment/charge",
                               [&](const Args& a, StepContext& ctx) {
                                 seen_path = ctx.step_path();
                                 return Success(a["amount"].get<int>() * 2);
                               })
                    .run(kInputs);
  EXPECT_THAT(r, HasStatus(RunStatus::kCompleted));
  EXPECT_EQ(seen_path, "payment/charge");
  EXPECT_EQ(r.value["paid"], 10);
  EXPECT_EQ(inv.calls.get("charge"), 0);
}

TEST(TestingHeader, FailAtForcesAFailureThatIsCompensatedAndRolledBack) {
  Inventory inv;
  RunResult r = TestRun(order_saga(inv)).fail_at("ship", "carrier down").run(kInputs);
  EXPECT_THAT(r, HasStatus(RunStatus::kFailed));
  EXPECT_THAT(r, FailedAt("ship", ErrorKind::kStepFailed));
  EXPECT_THAT(r, HasTrace("ran reserve, payment/charge, payment, ship; compensated ship; "
                          "undid payment/charge, reserve"));
  ASSERT_TRUE(r.error);
  EXPECT_EQ(r.error->message, "carrier down");
  EXPECT_EQ(inv.calls.get("ship"), 0);
}

TEST(TestingHeader, FailAtInsideAChildIsNotRetried) {
  Inventory inv;
  RunResult r = TestRun(order_saga(inv)).fail_at("payment/charge").run(kInputs);
  EXPECT_THAT(r, FailedAt("payment/charge", ErrorKind::kStepFailed));
  EXPECT_THAT(r, HasTrace("ran reserve, payment/charge; compensated payment/charge; ran payment; "
                          "undid reserve"));
  ASSERT_TRUE(r.error);
  EXPECT_EQ(r.error->message, "forced failure");
  EXPECT_EQ(r.error->attempts, 1);
}

TEST(TestingHeader, MockingAWholeMapStep) {
  Definition element_reactor =
      Builder("One")
          .input("item", integer())
          .step("work", [](const Args&) { return Failure("real work", false); })
          .build();
  Definition d = Builder("Batch")
                     .input("items", array())
                     .map("each", element_reactor)
                     .source(input("items"))
                     .argument("item", element("each"))
                     .returns("each")
                     .build();
  RunResult r =
      TestRun(d)
          .mock_step("each", [](const Args&) { return Success(Value::array({"canned"})); })
          .run(Value{{"items", Value::array({1, 2})}});
  EXPECT_THAT(r, HasStatus(RunStatus::kCompleted));
  EXPECT_EQ(r.value, Value::array({"canned"}));
}

TEST(TestingHeader, TestRunTakesEngineOptions) {
  auto clock = reactor_test::manual_clock();
  Definition d = Builder("Flaky")
                     .step("s",
                           [](const Args&, StepContext& ctx) {
                             return ctx.attempt() < 3 ? Failure("again") : Success(ctx.attempt());
                           })
                     .retries(exponential_backoff(3, std::chrono::seconds(30)))
                     .returns("s")
                     .build();
  TestRun t(d, reactor_test::with_clock(clock));
  RunResult r = t.run();
  EXPECT_THAT(r, HasStatus(RunStatus::kCompleted));
  EXPECT_THAT(r, HasTrace("ran s, s, s"));
  EXPECT_EQ(clock->sleeps(),
            (std::vector<Duration>{std::chrono::seconds(30), std::chrono::seconds(60)}));
  EXPECT_EQ(&t.engine().clock(), clock.get());
}

TEST(TestingHeader, MatchersReadAsOneLineAndExplainMismatches) {
  Inventory inv;
  RunResult r = TestRun(order_saga(inv)).fail_at("ship", "carrier down").run(kInputs);

  EXPECT_EQ(::testing::DescribeMatcher<RunResult>(HasStatus(RunStatus::kFailed)),
            "has status failed");
  EXPECT_EQ(::testing::DescribeMatcher<RunResult>(HasTrace("ran a")), "has trace \"ran a\"");
  EXPECT_EQ(::testing::DescribeMatcher<RunResult>(FailedAt("ship", ErrorKind::kTimeout)),
            "failed at step ship with timeout");

  ::testing::StringMatchResultListener status_why;
  EXPECT_FALSE(::testing::ExplainMatchResult(HasStatus(RunStatus::kCompleted), r, &status_why));
  EXPECT_EQ(status_why.str(), "whose status is failed (error: carrier down)");

  ::testing::StringMatchResultListener trace_why;
  EXPECT_FALSE(::testing::ExplainMatchResult(HasTrace("ran reserve"), r, &trace_why));
  EXPECT_EQ(trace_why.str(), "whose trace is \"" + r.trace_summary() + "\"");

  ::testing::StringMatchResultListener failed_why;
  EXPECT_FALSE(
      ::testing::ExplainMatchResult(FailedAt("charge", ErrorKind::kStepFailed), r, &failed_why));
  EXPECT_EQ(failed_why.str(), "which failed at 'ship' with step_failed: carrier down");

  RunResult ok = TestRun(order_saga(inv)).run(kInputs);
  ::testing::StringMatchResultListener none_why;
  EXPECT_FALSE(
      ::testing::ExplainMatchResult(FailedAt("ship", ErrorKind::kStepFailed), ok, &none_why));
  EXPECT_EQ(none_why.str(), "which has no error");
  EXPECT_THAT(ok, Not(HasStatus(RunStatus::kFailed)));
  EXPECT_THAT(r, Not(FailedAt("ship", ErrorKind::kTimeout)));
}

TEST(TestingHeader, RunResultPrintsAsOneReadableLine) {
  Inventory inv;
  RunResult r = TestRun(order_saga(inv)).fail_at("ship", "carrier down").run(kInputs);
  EXPECT_EQ(::testing::PrintToString(r),
            "RunResult{OrderSaga run " + r.run_id +
                ", status failed, error step_failed at 'ship': carrier down, trace \"" +
                r.trace_summary() + "\"}");
  RunResult ok = TestRun(order_saga(inv)).run(kInputs);
  EXPECT_THAT(::testing::PrintToString(ok),
              ::testing::HasSubstr("status completed, value {\"paid\":5,\"reservation\":100}"));
}
