// Inputs: required / optional / default, type and predicate validation, custom checks, every
// field error reported at once, no step running on rejected inputs, and redaction.
#include <sstream>

#include "unit/engine_test_support.hpp"

using namespace reactor;
using namespace reactor_test;
using ::testing::AllOf;
using ::testing::Contains;
using ::testing::Field;
using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::UnorderedElementsAre;

namespace {

constexpr const char* kSecret = "ann.secret@example.com";

struct InputSaga {
  Counters counters;
  Journal seen;  // "field=value" of what the step received
  int coupon_checks = 0;
  std::shared_ptr<Observer> observer;

  Definition definition() {
    Builder b("Checkout");
    b.input("order_id", integer())
        .input("amount", integer().min(1).max(1000))
        .input("currency", string().one_of({"EUR", "USD"}).default_value("EUR"))
        .input("note", string().max_length(10).optional())
        .input("email", string().pattern(R"([^@]+@[^@]+)").redacted())
        .input("code", string().length(3, 5))
        .input("tags", array().min_length(1))
        .input("coupon",
               string().min_length(3).check([this](const Value& v) -> std::optional<std::string> {
                 ++coupon_checks;
                 if (v.get<std::string>().rfind("SAVE", 0) != 0)
                   return "coupon must start with SAVE";
                 return std::nullopt;
               }));
    if (observer) b.observe(observer);
    // No declared arguments: the step receives the (validated, defaulted) inputs.
    b.step("record", [this](const Args& a) {
      counters.hit("record");
      for (const char* k : {"order_id", "currency", "note"}) {
        seen.add(std::string(k) + "=" + (a.has(k) ? a[k].dump() : "<absent>"));
      }
      return Success(a.to_json());
    });
    b.step("charge",
           [this](const Args& a) {
             counters.hit("charge");
             return Success(a["amount"]);
           })
        .argument("amount", input("amount"))
        .argument("note", input("note"));
    return b.build();
  }
};

Value valid_inputs() {
  return Value{{"order_id", 7},
               {"amount", 50},
               {"email", kSecret},
               {"code", "ABCD"},
               {"tags", Value::array({"gift"})},
               {"coupon", "SAVE10"}};
}

std::vector<std::string> error_fields(const RunResult& r) {
  std::vector<std::string> out;
  if (!r.error) return out;
  for (const auto& e : r.error->validation_errors) out.push_back(e.field);
  return out;
}

}  // namespace

TEST(Inputs, ValidInputsRunWithDefaultsAppliedAndOptionalsUnset) {
  InputSaga saga;
  Engine engine;
  RunResult r = engine.run(saga.definition(), valid_inputs());
  ASSERT_EQ(r.status, RunStatus::kCompleted) << (r.error ? r.error->message : "");
  EXPECT_EQ(saga.seen.entries(),
            (std::vector<std::string>{"order_id=7", "currency=\"EUR\"", "note=<absent>"}));
  // An absent optional input bound by input() resolves to null.
  EXPECT_EQ(r.value["charge"], 50);
  EXPECT_EQ(r.value["record"]["currency"], "EUR");
  EXPECT_FALSE(r.value["record"].contains("note"));
}

TEST(Inputs, GivenValueOverridesDefault) {
  InputSaga saga;
  Engine engine;
  Value in = valid_inputs();
  in["currency"] = "USD";
  in["note"] = "leave it";
  RunResult r = engine.run(saga.definition(), in);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(saga.seen.entries(),
            (std::vector<std::string>{"order_id=7", "currency=\"USD\"", "note=\"leave it\""}));
}

TEST(Inputs, MissingRequiredInputIsReported) {
  InputSaga saga;
  Engine engine;
  Value in = valid_inputs();
  in.erase("order_id");
  RunResult r = engine.run(saga.definition(), in);
  EXPECT_EQ(r.status, RunStatus::kFailed);
  ASSERT_TRUE(r.error);
  EXPECT_EQ(r.error->kind, ErrorKind::kInputInvalid);
  EXPECT_FALSE(r.error->retryable);
  EXPECT_EQ(r.error->reactor, "Checkout");
  EXPECT_THAT(r.error->validation_errors,
              UnorderedElementsAre(FieldError{"order_id", "is missing"}));
  EXPECT_THAT(r.error->message, HasSubstr("order_id"));
}

// One rule broken at a time: the error names exactly that field.
TEST(Inputs, EveryPredicateRejectsItsField) {
  struct Case {
    const char* what;
    const char* field;
    Value bad;
  };
  const std::vector<Case> cases{
      {"type integer", "order_id", "seven"},
      {"type integer (not a float)", "order_id", 7.5},
      {"min", "amount", 0},
      {"max", "amount", 1001},
      {"one_of", "currency", "GBP"},
      {"max_length", "note", "far too long a note"},
      {"pattern", "email", "no-at-sign"},
      {"length (too short)", "code", "AB"},
      {"length (too long)", "code", "ABCDEF"},
      {"min_length of an array", "tags", Value::array()},
      {"type array", "tags", "gift"},
      {"custom check", "coupon", "FREE99"},
  };
  for (const Case& c : cases) {
    InputSaga saga;
    Engine engine;
    Value in = valid_inputs();
    in[c.field] = c.bad;
    RunResult r = engine.run(saga.definition(), in);
    ASSERT_TRUE(r.error) << c.what;
    EXPECT_EQ(r.error->kind, ErrorKind::kInputInvalid) << c.what;
    EXPECT_EQ(error_fields(r), std::vector<std::string>{c.field}) << c.what;
    for (const auto& e : r.error->validation_errors) EXPECT_FALSE(e.message.empty()) << c.what;
    EXPECT_EQ(saga.counters.get("record"), 0) << c.what;
  }
}

TEST(Inputs, CustomCheckMessageIsReportedAndRunsOnlyAfterBuiltInRules) {
  {
    InputSaga saga;
    Engine engine;
    Value in = valid_inputs();
    in["coupon"] = "FREE99";
    RunResult r = engine.run(saga.definition(), in);
    ASSERT_TRUE(r.error);
    EXPECT_THAT(r.error->validation_errors,
                UnorderedElementsAre(FieldError{"coupon", "coupon must start with SAVE"}));
    EXPECT_EQ(saga.coupon_checks, 1);
  }
  {
    InputSaga saga;
    Engine engine;
    Value in = valid_inputs();
    in["coupon"] = "SA";  // breaks min_length(3): the custom check is not consulted
    RunResult r = engine.run(saga.definition(), in);
    ASSERT_TRUE(r.error);
    EXPECT_EQ(error_fields(r), std::vector<std::string>{"coupon"});
    EXPECT_EQ(saga.coupon_checks, 0);
  }
}

TEST(Inputs, EveryFieldErrorIsListedAtOnce) {
  InputSaga saga;
  Engine engine;
  Value in{{"amount", 0},     {"currency", "GBP"},      {"email", "nope"},
           {"code", "A"},     {"tags", Value::array()}, {"coupon", "FREE99"},
           {"surprise", true}};
  RunResult r = engine.run(saga.definition(), in);
  ASSERT_TRUE(r.error);
  EXPECT_EQ(r.error->kind, ErrorKind::kInputInvalid);
  EXPECT_THAT(error_fields(r), UnorderedElementsAre("order_id", "amount", "currency", "email",
                                                    "code", "tags", "coupon", "surprise"));
  for (const char* f : {"order_id", "amount", "currency", "email", "code", "tags", "coupon"}) {
    EXPECT_THAT(r.error->message, HasSubstr(f));
  }
}

TEST(Inputs, UndeclaredOrMalformedInputsAreRejected) {
  InputSaga saga;
  Engine engine;
  Value in = valid_inputs();
  in["amout"] = 5;  // a typo must not pass silently
  RunResult typo = engine.run(saga.definition(), in);
  ASSERT_TRUE(typo.error);
  EXPECT_THAT(typo.error->validation_errors, Contains(Field(&FieldError::field, "amout")));

  RunResult not_object = engine.run(saga.definition(), Value::array({1, 2}));
  ASSERT_TRUE(not_object.error);
  EXPECT_EQ(not_object.error->kind, ErrorKind::kInputInvalid);
  EXPECT_EQ(saga.counters.all().size(), 0u);
}

TEST(Inputs, NoStepRunsWhenInputsAreInvalid) {
  InputSaga saga;
  auto observer = std::make_shared<RecordingObserver>();
  saga.observer = observer;
  Engine engine;
  Value in = valid_inputs();
  in["amount"] = -5;
  RunResult r = engine.run(saga.definition(), in);
  EXPECT_EQ(r.status, RunStatus::kFailed);
  EXPECT_EQ(saga.counters.get("record"), 0);
  EXPECT_EQ(saga.counters.get("charge"), 0);
  EXPECT_TRUE(r.trace.empty());
  for (const auto& s : r.steps) {
    EXPECT_EQ(s.status, StepStatus::kPending) << s.step;
    EXPECT_EQ(s.attempts, 0) << s.step;
  }
  EXPECT_EQ(observer->events(), std::vector<std::string>{"run_fail [Checkout]"});
}

TEST(Inputs, RedactedInputIsMaskedInInputErrors) {
  InputSaga saga;
  Engine engine;
  Value in = valid_inputs();
  in["amount"] = 0;
  RunResult r = engine.run(saga.definition(), in);
  ASSERT_TRUE(r.error);
  EXPECT_EQ(r.error->inputs["email"], "[REDACTED]");
  EXPECT_EQ(r.error->inputs["amount"], 0);  // not redacted: kept as given
  EXPECT_EQ(r.error->inputs["order_id"], 7);
  EXPECT_THAT(to_json(r).dump(), Not(HasSubstr(kSecret)));
}

TEST(Inputs, RejectedRedactedValueIsNeverQuoted) {
  InputSaga saga;
  Engine engine;
  Value in = valid_inputs();
  in["email"] = "hunter2-no-at-sign";
  RunResult r = engine.run(saga.definition(), in);
  ASSERT_TRUE(r.error);
  EXPECT_EQ(error_fields(r), std::vector<std::string>{"email"});
  EXPECT_EQ(r.error->inputs["email"], "[REDACTED]");
  EXPECT_THAT(to_json(r).dump(), Not(HasSubstr("hunter2")));
}

TEST(Inputs, RedactedInputIsMaskedInStepFailureErrors) {
  InputSaga saga;
  Engine engine;
  Definition d =
      Builder("Signup")
          .input("email", string().redacted())
          .input("plan", string())
          .step("subscribe", [](const Args&) { return Failure("mail server down", false); })
          .build();
  RunResult r = engine.run(d, Value{{"email", kSecret}, {"plan", "pro"}});
  ASSERT_TRUE(r.error);
  EXPECT_EQ(r.error->kind, ErrorKind::kStepFailed);
  EXPECT_EQ(r.error->inputs, (Value{{"email", "[REDACTED]"}, {"plan", "pro"}}));
  EXPECT_THAT(to_json(r).dump(), Not(HasSubstr(kSecret)));
}

TEST(Inputs, RedactedInputIsMaskedInLogMiddlewareOutput) {
  std::ostringstream log;
  InputSaga saga;
  saga.observer = std::make_shared<LogMiddleware>(log);
  Engine engine;
  RunResult ok = engine.run(saga.definition(), valid_inputs());
  ASSERT_TRUE(ok.ok());
  Value bad = valid_inputs();
  bad["amount"] = 0;
  RunResult failed = engine.run(saga.definition(), bad);
  ASSERT_FALSE(failed.ok());

  const std::string text = log.str();
  EXPECT_THAT(text, HasSubstr("event=run_start"));
  EXPECT_THAT(text, HasSubstr("event=run_fail"));
  EXPECT_THAT(text, HasSubstr("[REDACTED]"));
  EXPECT_THAT(text, Not(HasSubstr(kSecret)));
  EXPECT_THAT(text, Not(HasSubstr("ann.secret")));
}

// Argument sources: input(name, path), result(step, path), value(json), each with an optional
// transform; wait_for orders steps without passing data.
TEST(Inputs, ArgumentSourcesPathsLiteralsTransformsAndWaitFor) {
  Journal order;
  Definition d =
      Builder("Shipping")
          .input("address", object())
          .step("quote",
                [&](const Args&) {
                  order.add("quote");
                  return Success(Value{{"eur", 12.5}, {"lines", Value::array({"a", "b"})}});
                })
          .step("label",
                [&](const Args& a) {
                  order.add("label");
                  return Success(Value{{"city", a["city"]},
                                       {"zip", a["zip"]},
                                       {"cents", a["cents"]},
                                       {"second_line", a["second_line"]},
                                       {"mode", a["mode"]},
                                       {"loud", a["loud"]}});
                })
          .argument("city", input("address", "shipping.city"))
          .argument("zip", input("address", "shipping.zip").transform([](const Value& v) {
            return Value(v.get<std::string>().substr(0, 2));
          }))
          .argument("cents", result("quote", "eur").transform([](const Value& v) {
            return Value(static_cast<int>(v.get<double>() * 100));
          }))
          .argument("second_line", result("quote", "lines.1"))
          .argument("mode", value("strict"))
          .argument("loud", value("x").transform(
                                [](const Value& v) { return Value(v.get<std::string>() + "!"); }))
          .step("audit",
                [&](const Args& a) {
                  order.add("audit");
                  return Success(a.size());
                })
          .wait_for("label")  // order only: audit declares no arguments, so it sees the inputs
          .build();
  Engine engine;
  RunResult r =
      engine.run(d, Value{{"address", {{"shipping", {{"city", "Lyon"}, {"zip", "69001"}}}}}});
  ASSERT_TRUE(r.ok()) << (r.error ? r.error->message : "");
  EXPECT_EQ(r.value["label"], (Value{{"city", "Lyon"},
                                     {"zip", "69"},
                                     {"cents", 1250},
                                     {"second_line", "b"},
                                     {"mode", "strict"},
                                     {"loud", "x!"}}));
  EXPECT_EQ(r.value["audit"], 1);  // the one reactor input
  EXPECT_EQ(order.entries(), (std::vector<std::string>{"quote", "label", "audit"}));
  EXPECT_EQ(d.find_step("audit")->dependencies, (std::vector<std::size_t>{1}));
}

TEST(Inputs, MissingInputPathIsAnArgumentResolutionError) {
  Counters calls;
  Definition d = Builder("Shipping")
                     .input("address", object())
                     .step("label",
                           [&](const Args&) {
                             calls.hit("label");
                             return Success();
                           })
                     .argument("city", input("address", "shipping.city"))
                     .build();
  Engine engine;
  RunResult r = engine.run(d, Value{{"address", {{"billing", {{"city", "Lyon"}}}}}});
  ASSERT_TRUE(r.error);
  EXPECT_EQ(r.error->kind, ErrorKind::kArgumentResolution);
  EXPECT_EQ(r.error->step, "label");
  EXPECT_THAT(r.error->message, HasSubstr("shipping.city"));
  EXPECT_EQ(calls.get("label"), 0);
}
