// Rollback: the failing step is compensated (only if its body started), completed steps are
// undone newest first, and a failing compensate or undo never stops the rest.
#include <stdexcept>

#include "unit/engine_test_support.hpp"

using namespace reactor;
using namespace reactor_test;
using ::testing::AllOf;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

namespace payments {
struct Declined : std::runtime_error {
  using std::runtime_error::runtime_error;
};
}  // namespace payments

namespace {

// Step code that writes what it does to a journal.
struct Kit {
  Journal log;

  RunFn ok(const std::string& name, Value v = nullptr) {
    return [this, name, v](const Args&, StepContext&) {
      log.add("run " + name);
      return Success(v);
    };
  }
  RunFn fail(const std::string& name, const std::string& message, bool retryable = true) {
    return [this, name, message, retryable](const Args&, StepContext&) {
      log.add("run " + name);
      return Failure(message, retryable);
    };
  }
  CompensateFn comp(const std::string& name) {
    return [this, name](const std::string& error, const Args&, StepContext&) {
      log.add("compensate " + name + " (" + error + ")");
      return Success();
    };
  }
  CompensateFn comp_fail(const std::string& name, const std::string& message) {
    return [this, name, message](const std::string&, const Args&, StepContext&) {
      log.add("compensate " + name);
      return Failure(message);
    };
  }
  UndoFn undo(const std::string& name) {
    return [this, name](const Value& result, const Args&, StepContext&) {
      std::string line = "undo " + name;
      if (!result.is_null()) line.append(" ").append(result.dump());
      log.add(line);
      return Success();
    };
  }
  UndoFn undo_fail(const std::string& name, const std::string& message) {
    return [this, name, message](const Value&, const Args&, StepContext&) {
      log.add("undo " + name);
      return Failure(message);
    };
  }
  UndoFn undo_throw(const std::string& name, const std::string& message) {
    return [this, name, message](const Value&, const Args&, StepContext&) -> StepResult {
      log.add("undo " + name);
      throw std::runtime_error(message);
    };
  }
};

const StepStatus* status_of(const RunResult& r, const std::string& step) {
  const StepOutcome* s = r.step(step);
  return s ? &s->status : nullptr;
}

}  // namespace

TEST(Compensation, LinearSagaCompensatesTheFailureThenUndoesNewestFirst) {
  Kit k;
  Definition d = Builder("Linear")
                     .step("reserve", k.ok("reserve", "R1"))
                     .undo(k.undo("reserve"))
                     .step("charge", k.ok("charge", "C1"))
                     .wait_for("reserve")
                     .undo(k.undo("charge"))
                     .step("ship", k.fail("ship", "carrier down", false))
                     .wait_for("charge")
                     .compensate(k.comp("ship"))
                     .undo(k.undo("ship"))
                     .build();
  Engine engine;
  RunResult r = engine.run(d, Value::object());
  EXPECT_EQ(r.status, RunStatus::kFailed);
  EXPECT_EQ(k.log.entries(),
            (std::vector<std::string>{"run reserve", "run charge", "run ship",
                                      "compensate ship (carrier down)", "undo charge \"C1\"",
                                      "undo reserve \"R1\""}));
  EXPECT_EQ(r.trace_summary(),
            "ran reserve, charge, ship; compensated ship; undid charge, reserve");
  ASSERT_TRUE(r.error);
  EXPECT_EQ(r.error->kind, ErrorKind::kStepFailed);
  EXPECT_EQ(r.error->step, "ship");
  EXPECT_EQ(r.error->reactor, "Linear");
  EXPECT_EQ(r.error->message, "carrier down");
  EXPECT_EQ(r.error->attempts, 1);
  EXPECT_THAT(r.error->rollback_failures, IsEmpty());
  EXPECT_EQ(*status_of(r, "reserve"), StepStatus::kUndone);
  EXPECT_EQ(*status_of(r, "charge"), StepStatus::kUndone);
  EXPECT_EQ(*status_of(r, "ship"), StepStatus::kCompensated);
}

// Completion order differs from definition order here: undo follows completion, newest first.
TEST(Compensation, DagBranchesAreUndoneInReverseCompletionOrder) {
  Kit k;
  Definition d = Builder("Dag")
                     .step("x", k.ok("x"))
                     .wait_for("y")
                     .undo(k.undo("x"))
                     .step("z", k.ok("z"))
                     .undo(k.undo("z"))
                     .step("y", k.ok("y"))
                     .undo(k.undo("y"))
                     .step("f", k.fail("f", "boom", false))
                     .wait_for({"x", "z"})
                     .build();
  Engine engine;
  RunResult r = engine.run(d, Value::object());
  EXPECT_EQ(r.status, RunStatus::kFailed);
  EXPECT_EQ(k.log.entries(), (std::vector<std::string>{"run z", "run y", "run x", "run f", "undo x",
                                                       "undo y", "undo z"}));
  EXPECT_EQ(r.trace_summary(), "ran z, y, x, f; undid x, y, z");
}

TEST(Compensation, RollbackContinuesPastFailingUndosAndListsThem) {
  Kit k;
  Definition d = Builder("Sturdy")
                     .step("a", k.ok("a"))
                     .undo(k.undo("a"))
                     .step("b", k.ok("b"))
                     .wait_for("a")
                     .undo(k.undo_fail("b", "ledger locked"))
                     .step("c", k.ok("c"))
                     .wait_for("b")
                     .undo(k.undo_throw("c", "db gone"))
                     .step("d", k.fail("d", "boom", false))
                     .wait_for("c")
                     .build();
  Engine engine;
  RunResult r = engine.run(d, Value::object());
  EXPECT_EQ(r.status, RunStatus::kFailed);
  EXPECT_EQ(k.log.entries(), (std::vector<std::string>{"run a", "run b", "run c", "run d", "undo c",
                                                       "undo b", "undo a"}));
  ASSERT_TRUE(r.error);
  // An undo failure does not change why the run failed.
  EXPECT_EQ(r.error->kind, ErrorKind::kStepFailed);
  EXPECT_EQ(r.error->step, "d");
  EXPECT_THAT(r.error->rollback_failures,
              ElementsAre(RollbackFailure{"c", "undo", "raised", "db gone"},
                          RollbackFailure{"b", "undo", "returned_failure", "ledger locked"}));
  EXPECT_EQ(r.trace_summary(), "ran a, b, c, d; undid c, b, a");
  ASSERT_EQ(r.trace.size(), 7u);
  EXPECT_EQ(r.trace[4].outcome, "failure");
  EXPECT_EQ(r.trace[4].message, "db gone");
  EXPECT_EQ(r.trace[5].outcome, "failure");
  EXPECT_EQ(r.trace[6].outcome, "success");
  for (const char* s : {"a", "b", "c"}) EXPECT_EQ(*status_of(r, s), StepStatus::kUndone) << s;
}

TEST(Compensation, FailingCompensateIsACompensationErrorNamingTheStep) {
  Kit k;
  Definition d = Builder("Pay")
                     .step("reserve", k.ok("reserve"))
                     .undo(k.undo("reserve"))
                     .step("charge", k.fail("charge", "gateway 502", false))
                     .wait_for("reserve")
                     .compensate(k.comp_fail("charge", "refund api down"))
                     .build();
  Engine engine;
  RunResult r = engine.run(d, Value::object());
  EXPECT_EQ(r.status, RunStatus::kFailed);
  ASSERT_TRUE(r.error);
  EXPECT_EQ(r.error->kind, ErrorKind::kCompensationFailed);
  EXPECT_EQ(r.error->step, "charge");
  EXPECT_THAT(r.error->message,
              AllOf(HasSubstr("'charge'"), HasSubstr("refund api down"), HasSubstr("gateway 502")));
  EXPECT_THAT(
      r.error->rollback_failures,
      ElementsAre(RollbackFailure{"charge", "compensate", "returned_failure", "refund api down"}));
  // The rest of the rollback still ran.
  EXPECT_EQ(k.log.entries(), (std::vector<std::string>{"run reserve", "run charge",
                                                       "compensate charge", "undo reserve"}));
  EXPECT_EQ(r.trace_summary(), "ran reserve, charge; compensated charge; undid reserve");
}

TEST(Compensation, ThrowingCompensateIsReportedAsRaised) {
  Kit k;
  Definition d = Builder("Pay")
                     .step("charge", k.fail("charge", "gateway 502", false))
                     .compensate([](const std::string&, const Args&, StepContext&) -> StepResult {
                       throw std::logic_error("refund bug");
                     })
                     .build();
  Engine engine;
  RunResult r = engine.run(d, Value::object());
  ASSERT_TRUE(r.error);
  EXPECT_EQ(r.error->kind, ErrorKind::kCompensationFailed);
  EXPECT_THAT(r.error->rollback_failures,
              ElementsAre(RollbackFailure{"charge", "compensate", "raised", "refund bug"}));
}

TEST(Compensation, ArgumentResolutionErrorIsNeitherCompensatedNorRetried) {
  auto clock = manual_clock();
  Kit k;
  Counters calls;
  auto build = [&](ArgumentSource src) {
    return Builder("Args")
        .step("reserve", k.ok("reserve", Value{{"id", 1}}))
        .undo(k.undo("reserve"))
        .step("charge",
              [&](const Args&) {
                calls.hit("charge body");
                return Success();
              })
        .argument("reservation", std::move(src))
        .retries(fixed_backoff(5, std::chrono::seconds(1)))
        .compensate([&](const std::string&, const Args&, StepContext&) {
          calls.hit("charge compensate");
          return Success();
        })
        .build();
  };
  const std::vector<std::pair<std::string, ArgumentSource>> broken{
      {"reservation.id", result("reserve", "reservation.id")},
      {"threw", result("reserve").transform(
                    [](const Value&) -> Value { throw std::runtime_error("bad shape"); })},
  };
  for (const auto& [expect_in_message, src] : broken) {
    k.log.clear();
    calls.reset();
    Engine engine(with_clock(clock));
    RunResult r = engine.run(build(src), Value::object());
    EXPECT_EQ(r.status, RunStatus::kFailed);
    ASSERT_TRUE(r.error);
    EXPECT_EQ(r.error->kind, ErrorKind::kArgumentResolution);
    EXPECT_EQ(r.error->step, "charge");
    EXPECT_EQ(r.error->attempts, 0) << "the body never ran: no attempt is counted";
    EXPECT_FALSE(r.error->retryable);
    EXPECT_THAT(r.error->message, AllOf(HasSubstr("reservation"), HasSubstr(expect_in_message)));
    EXPECT_EQ(calls.get("charge body"), 0);
    EXPECT_EQ(calls.get("charge compensate"), 0);
    EXPECT_EQ(r.step("charge")->attempts, 0);
    EXPECT_TRUE(clock->sleeps().empty()) << "an argument error must not wait for a retry";
    // Completed steps are still undone.
    EXPECT_EQ(k.log.entries(),
              (std::vector<std::string>{"run reserve", "undo reserve {\"id\":1}"}));
    EXPECT_EQ(r.trace_summary(), "ran reserve; could not resolve charge; undid reserve");
  }
}

TEST(Compensation, ThrownExceptionIsAFailureWithTypeAndMessage) {
  auto clock = manual_clock();
  Kit k;
  Counters calls;
  Definition d = Builder("Pay")
                     .step("reserve", k.ok("reserve"))
                     .undo(k.undo("reserve"))
                     .step("charge",
                           [&](const Args&) -> StepResult {
                             calls.hit("charge");
                             throw payments::Declined("card declined");
                           })
                     .wait_for("reserve")
                     .retries(fixed_backoff(2, std::chrono::milliseconds(5)))
                     .compensate(k.comp("charge"))
                     .build();
  Engine engine(with_clock(clock));
  RunResult r = engine.run(d, Value::object());
  EXPECT_EQ(r.status, RunStatus::kFailed);
  ASSERT_TRUE(r.error);
  EXPECT_EQ(r.error->kind, ErrorKind::kStepFailed);
  EXPECT_EQ(r.error->step, "charge");
  EXPECT_EQ(r.error->exception_type, "payments::Declined");
  EXPECT_EQ(r.error->message, "card declined");
  // An exception is retryable like a plain Failure, and the body started: compensated once.
  EXPECT_TRUE(r.error->retryable);
  EXPECT_EQ(r.error->attempts, 2);
  EXPECT_EQ(calls.get("charge"), 2);
  EXPECT_EQ(k.log.entries(),
            (std::vector<std::string>{"run reserve", "compensate charge (card declined)",
                                      "undo reserve"}));
  EXPECT_EQ(r.trace.back().type, TraceType::kUndo);
  EXPECT_EQ(r.trace[1].message, "card declined");
}

TEST(Compensation, StandardAndForeignExceptionTypesAreNamed) {
  Engine engine;
  auto run_throwing = [&](std::function<void()> thrower) {
    Definition d = Builder("Throw")
                       .step("s",
                             [thrower](const Args&) -> StepResult {
                               thrower();
                               return Success();
                             })
                       .build();
    return engine.run(d, Value::object());
  };
  RunResult range = run_throwing([] { throw std::out_of_range("index 9"); });
  ASSERT_TRUE(range.error);
  EXPECT_EQ(range.error->exception_type, "std::out_of_range");
  EXPECT_EQ(range.error->message, "index 9");

  RunResult foreign = run_throwing([] { throw 42; });
  ASSERT_TRUE(foreign.error);
  EXPECT_EQ(foreign.error->kind, ErrorKind::kStepFailed);
  EXPECT_EQ(foreign.error->exception_type, "unknown");
  EXPECT_FALSE(foreign.error->message.empty());
}

TEST(Compensation, AskingForAnUndeclaredArgumentFailsWithoutRetry) {
  auto clock = manual_clock();
  Counters calls;
  Definition d = Builder("Typo")
                     .step("s",
                           [&](const Args& a) {
                             calls.hit("s");
                             return Success(a["amout"]);
                           })
                     .argument("amount", value(5))
                     .retries(fixed_backoff(3, std::chrono::seconds(1)))
                     .build();
  Engine engine(with_clock(clock));
  RunResult r = engine.run(d, Value::object());
  ASSERT_TRUE(r.error);
  EXPECT_THAT(r.error->message, HasSubstr("undeclared argument 'amout'"));
  EXPECT_FALSE(r.error->retryable);
  EXPECT_EQ(calls.get("s"), 1);
}

TEST(Compensation, OutputValidationFailureCompensatesTheStep) {
  auto clock = manual_clock();
  Kit k;
  Counters calls;
  Definition d = Builder("Quote")
                     .step("reserve", k.ok("reserve"))
                     .undo(k.undo("reserve"))
                     .step("quote",
                           [&](const Args&) {
                             calls.hit("quote");
                             return Success(3);
                           })
                     .wait_for("reserve")
                     .validate_output(integer().min(10))
                     .retries(fixed_backoff(3, std::chrono::seconds(1)))
                     .compensate(k.comp("quote"))
                     .build();
  Engine engine(with_clock(clock));
  RunResult r = engine.run(d, Value::object());
  EXPECT_EQ(r.status, RunStatus::kFailed);
  ASSERT_TRUE(r.error);
  EXPECT_EQ(r.error->kind, ErrorKind::kOutputInvalid);
  EXPECT_EQ(r.error->step, "quote");
  ASSERT_EQ(r.error->validation_errors.size(), 1u);
  EXPECT_EQ(r.error->validation_errors[0].field, "quote");
  // Not retried (the step did its work; the answer was wrong) but compensated once.
  EXPECT_EQ(calls.get("quote"), 1);
  EXPECT_TRUE(clock->sleeps().empty());
  ASSERT_EQ(k.log.entries().size(), 3u);
  EXPECT_THAT(k.log.entries()[1], HasSubstr("compensate quote"));
  EXPECT_EQ(k.log.entries()[2], "undo reserve");
  EXPECT_EQ(r.trace_summary(), "ran reserve, quote; compensated quote; undid reserve");
}

TEST(Compensation, ValidOutputPasses) {
  Definition d = Builder("Quote")
                     .step("quote", [](const Args&) { return Success(12); })
                     .validate_output(integer().min(10))
                     .returns("quote")
                     .build();
  Engine engine;
  RunResult r = engine.run(d, Value::object());
  EXPECT_TRUE(r.ok());
  EXPECT_EQ(r.value, 12);
}

// Step classes: a fresh instance per action; undo gets the stored result, compensate the error.
namespace {

struct Ledger {
  Journal log;
  int instances = 0;
};

class Hold : public Step {
 public:
  explicit Hold(Ledger& l) : ledger_(l) { ++ledger_.instances; }
  StepResult run(const Args& a, StepContext&) override {
    held_ = true;
    ledger_.log.add("hold " + a["sku"].get<std::string>());
    return Success(Value{{"hold_id", 77}});
  }
  StepResult undo(const Value& result, const Args& a, StepContext&) override {
    ledger_.log.add("release " + a["sku"].get<std::string>() + " " + result["hold_id"].dump() +
                    (held_ ? " (state leaked)" : ""));
    return Success();
  }

 private:
  Ledger& ledger_;
  bool held_ = false;
};

class Capture : public Step {
 public:
  explicit Capture(Ledger& l) : ledger_(l) { ++ledger_.instances; }
  StepResult run(const Args&, StepContext&) override {
    return Failure("insufficient funds", false);
  }
  StepResult compensate(const std::string& error, const Args& a, StepContext&) override {
    ledger_.log.add("void capture of " + a["hold"]["hold_id"].dump() + " after " + error);
    return Success();
  }

 private:
  Ledger& ledger_;
};

}  // namespace

TEST(Compensation, StepClassesGetAFreshInstancePerActionAndTheStoredResult) {
  Ledger ledger;
  Definition d = Builder("Classes")
                     .step<Hold>("hold", std::ref(ledger))
                     .argument("sku", value("A-1"))
                     .step<Capture>("capture", std::ref(ledger))
                     .argument("hold", result("hold"))
                     .build();
  Engine engine;
  RunResult r = engine.run(d, Value::object());
  EXPECT_EQ(r.status, RunStatus::kFailed);
  EXPECT_EQ(ledger.log.entries(),
            (std::vector<std::string>{"hold A-1", "void capture of 77 after insufficient funds",
                                      "release A-1 77"}));
  EXPECT_EQ(ledger.instances, 4);  // run hold, run capture, compensate capture, undo hold
}
