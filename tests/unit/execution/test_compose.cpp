// Compose: a reactor used as a step of another, with its own undo stack. A child failure rolls
// the child back first, then the parent; a later parent failure undoes the child's steps newest
// first; a Halt in the child halts the parent; child steps are addressed as "child/step".
//
// The composed step itself appears in the trace when its outcome is recorded, i.e. after the
// child's own events ("ran …, payment/charge, payment, ship").
#include "unit/engine_test_support.hpp"

using namespace reactor;
using namespace reactor_test;
using ::testing::AllOf;
using ::testing::HasSubstr;

namespace {

struct World {
  Journal log;
  bool charge_fails = false;
  bool charge_halts = false;
  bool ship_fails = false;
  std::vector<std::string> contexts;  // "<action> <reactor> <path> <key>" seen by child code

  UndoFn undo(const std::string& name) {
    return [this, name](const Value&, const Args&, StepContext& ctx) {
      log.add("undo " + name);
      contexts.push_back("undo " + ctx.reactor() + " " + ctx.step_path() + " " +
                         ctx.idempotency_key());
      return Success();
    };
  }
  CompensateFn comp(const std::string& name) {
    return [this, name](const std::string&, const Args&, StepContext& ctx) {
      log.add("compensate " + name);
      contexts.push_back("compensate " + ctx.reactor() + " " + ctx.step_path() + " " +
                         ctx.idempotency_key());
      return Success();
    };
  }

  Definition payment() {
    return Builder("Payment")
        .input("amount", integer().min(1))
        .step("authorize",
              [this](const Args& a) {
                log.add("run authorize " + a["amount"].dump());
                return Success(Value{{"auth", "A-" + a["amount"].dump()}});
              })
        .undo(undo("authorize"))
        .step("charge",
              [this](const Args& a, StepContext& ctx) {
                log.add("run charge");
                contexts.push_back("run " + ctx.reactor() + " " + ctx.step_path() + " " +
                                   ctx.idempotency_key());
                if (charge_halts) return Halt("fraud review");
                if (charge_fails) return Failure("card declined", false);
                return Success(Value{{"charged", a["auth"]}});
              })
        .argument("auth", result("authorize", "auth"))
        .compensate(comp("charge"))
        .undo(undo("charge"))
        .returns("charge")
        .build();
  }

  Definition order(const Definition& child) {
    return Builder("Order")
        .input("amount", any())
        .step("reserve",
              [this](const Args&) {
                log.add("run reserve");
                return Success("R1");
              })
        .undo(undo("reserve"))
        .compose("payment", child)
        .argument("amount", input("amount"))
        .wait_for("reserve")
        .step("ship",
              [this](const Args& a) {
                log.add("run ship with " + a["payment"].dump());
                if (ship_fails) return Failure("no carrier", false);
                return Success("S1");
              })
        .argument("payment", result("payment"))
        .compensate(comp("ship"))
        .undo(undo("ship"))
        .build();
  }
  Definition order() { return order(payment()); }
};

}  // namespace

TEST(Compose, ChildResultFlowsToTheParent) {
  World w;
  Engine engine;
  RunResult r = engine.run(w.order(), Value{{"amount", 5}});
  ASSERT_TRUE(r.ok()) << (r.error ? r.error->message : "");
  EXPECT_EQ(w.log.entries(),
            (std::vector<std::string>{"run reserve", "run authorize 5", "run charge",
                                      "run ship with {\"charged\":\"A-5\"}"}));
  EXPECT_EQ(r.trace_summary(), "ran reserve, payment/authorize, payment/charge, payment, ship");
  EXPECT_EQ(r.value["payment"], (Value{{"charged", "A-5"}}));
  ASSERT_NE(r.step("payment/authorize"), nullptr);
  EXPECT_EQ(r.step("payment/authorize")->status, StepStatus::kCompleted);
  EXPECT_EQ(r.step("payment/charge")->result, (Value{{"charged", "A-5"}}));
}

TEST(Compose, ChildFailureRollsBackTheChildFirstThenTheParent) {
  World w;
  w.charge_fails = true;
  Engine engine;
  RunResult r = engine.run(w.order(), Value{{"amount", 5}});
  EXPECT_EQ(r.status, RunStatus::kFailed);
  EXPECT_EQ(w.log.entries(),
            (std::vector<std::string>{"run reserve", "run authorize 5", "run charge",
                                      "compensate charge", "undo authorize", "undo reserve"}));
  EXPECT_EQ(r.trace_summary(),
            "ran reserve, payment/authorize, payment/charge; compensated payment/charge; "
            "undid payment/authorize; ran payment; undid reserve");
  ASSERT_TRUE(r.error);
  EXPECT_EQ(r.error->kind, ErrorKind::kStepFailed);
  EXPECT_EQ(r.error->step, "payment/charge");
  EXPECT_EQ(r.error->reactor, "Payment");
  EXPECT_EQ(r.error->message, "card declined");
  EXPECT_EQ(r.step("payment/charge")->status, StepStatus::kCompensated);
  EXPECT_EQ(r.step("payment/authorize")->status, StepStatus::kUndone);
  EXPECT_EQ(r.step("reserve")->status, StepStatus::kUndone);
  EXPECT_EQ(r.step("ship")->status, StepStatus::kPending);
}

TEST(Compose, LaterParentFailureUndoesTheChildsStepsNewestFirst) {
  World w;
  w.ship_fails = true;
  Engine engine;
  RunResult r = engine.run(w.order(), Value{{"amount", 5}});
  EXPECT_EQ(r.status, RunStatus::kFailed);
  EXPECT_EQ(w.log.entries(),
            (std::vector<std::string>{"run reserve", "run authorize 5", "run charge",
                                      "run ship with {\"charged\":\"A-5\"}", "compensate ship",
                                      "undo charge", "undo authorize", "undo reserve"}));
  EXPECT_EQ(r.trace_summary(),
            "ran reserve, payment/authorize, payment/charge, payment, ship; compensated ship; "
            "undid payment/charge, payment/authorize, reserve");
  ASSERT_TRUE(r.error);
  EXPECT_EQ(r.error->step, "ship");
  EXPECT_EQ(r.step("payment")->status, StepStatus::kUndone);
  EXPECT_EQ(r.step("payment/charge")->status, StepStatus::kUndone);
}

TEST(Compose, HaltInTheChildHaltsTheParent) {
  World w;
  w.charge_halts = true;
  Engine engine;
  RunResult r = engine.run(w.order(), Value{{"amount", 5}});
  EXPECT_EQ(r.status, RunStatus::kHalted);
  EXPECT_EQ(r.value, "fraud review");
  EXPECT_FALSE(r.error);
  EXPECT_EQ(w.log.entries(),
            (std::vector<std::string>{"run reserve", "run authorize 5", "run charge"}));
  EXPECT_EQ(r.step("payment")->status, StepStatus::kHalted);
  EXPECT_EQ(r.step("payment/charge")->status, StepStatus::kHalted);
  EXPECT_EQ(r.step("reserve")->status, StepStatus::kCompleted);  // no rollback
  EXPECT_EQ(r.step("ship")->status, StepStatus::kPending);
}

TEST(Compose, ChildStepsAreAddressedByPathInTraceContextAndIdempotencyKeys) {
  World w;
  w.ship_fails = true;  // so the child's undo runs too
  Engine engine;
  RunOptions opts;
  opts.run_id = "order-42";
  RunResult r = engine.run(w.order(), Value{{"amount", 5}}, opts);
  EXPECT_EQ(r.run_id, "order-42");
  EXPECT_EQ(w.contexts,
            (std::vector<std::string>{"run Payment payment/charge order-42:payment/charge",
                                      "compensate Order ship order-42:ship",
                                      "undo Payment payment/charge order-42:payment/charge",
                                      "undo Payment payment/authorize order-42:payment/authorize",
                                      "undo Order reserve order-42:reserve"}));
}

TEST(Compose, NestedChildrenBuildLongerPaths) {
  World w;
  Definition billing = Builder("Billing")
                           .input("amount", integer())
                           .compose("payment", w.payment())
                           .argument("amount", input("amount"))
                           .build();
  Definition order =
      Builder("Order").compose("billing", billing).argument("amount", value(9)).build();
  Engine engine;
  RunOptions opts;
  opts.run_id = "r1";
  RunResult r = engine.run(order, Value::object(), opts);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.trace_summary(),
            "ran billing/payment/authorize, billing/payment/charge, billing/payment, billing");
  EXPECT_EQ(w.contexts, std::vector<std::string>{
                            "run Payment billing/payment/charge r1:billing/payment/charge"});
  EXPECT_NE(r.step("billing/payment/charge"), nullptr);
}

// A child input that passes build() but fails the child's schema at run time fails the composed
// step: no child step runs, the parent rolls back, and the error names the composed step.
TEST(Compose, ChildInputRejectedAtRunTimeFailsTheComposedStep) {
  World w;
  Engine engine;
  RunResult r = engine.run(w.order(), Value{{"amount", 0}});  // Payment needs amount >= 1
  EXPECT_EQ(r.status, RunStatus::kFailed);
  ASSERT_TRUE(r.error);
  EXPECT_EQ(r.error->kind, ErrorKind::kInputInvalid);
  EXPECT_EQ(r.error->step, "payment");
  EXPECT_EQ(r.error->reactor, "Payment");
  ASSERT_EQ(r.error->validation_errors.size(), 1u);
  EXPECT_EQ(r.error->validation_errors[0].field, "amount");
  EXPECT_EQ(w.log.entries(), (std::vector<std::string>{"run reserve", "undo reserve"}));
}

TEST(Compose, RegisteredParentRunsByNameWithItsChild) {
  World w;
  Engine engine;
  engine.registry().add(w.order());
  RunResult r = engine.run("Order", Value{{"amount", 3}});
  ASSERT_TRUE(r.ok()) << (r.error ? r.error->message : "");
  EXPECT_EQ(r.reactor, "Order");
  EXPECT_EQ(r.value["payment"], (Value{{"charged", "A-3"}}));
  EXPECT_THAT(r.trace_summary(), AllOf(HasSubstr("payment/charge"), HasSubstr("ship")));
}

namespace {

// A compose step without arguments hands the child the parent's inputs the child declares,
// and no others: a definition that builds never fails every run on an undeclared input.
TEST(ComposeInputs, WithoutArgumentsTheChildGetsTheParentsInputsItDeclares) {
  using namespace reactor;
  Definition child = Builder("Child")
                         .input("x", integer())
                         .step("double", [](const Args& a) { return Success(a.get<int>("x") * 2); })
                         .argument("x", input("x"))
                         .returns("double")
                         .build();
  Definition parent = Builder("Parent")
                          .input("x", integer())
                          .input("note", string())
                          .compose("child", child)
                          .returns("child")
                          .build();
  Engine engine;
  RunResult r = engine.run(parent, Value{{"x", 21}, {"note", "only the parent's"}});
  ASSERT_EQ(r.status, RunStatus::kCompleted) << (r.error ? r.error->message : "");
  EXPECT_EQ(r.value, 42);
}

}  // namespace
