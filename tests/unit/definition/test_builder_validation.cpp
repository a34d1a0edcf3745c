// Definition-time rules: build() rejects every graph that cannot run, with a DefinitionError
// naming the reactor and the step at fault.
#include <functional>
#include <set>
#include <sstream>

#include "unit/engine_test_support.hpp"

using namespace reactor;
using ::testing::AllOf;
using ::testing::HasSubstr;
using ::testing::Not;

namespace {

StepResult ok_step(const Args&) { return Success(); }

// The message build() rejects `b` with; fails the test if build() accepts it.
std::string rejection(const Builder& b) {
  try {
    b.build();
  } catch (const DefinitionError& e) {
    return e.what();
  }
  ADD_FAILURE() << "build() accepted a definition it should reject";
  return "";
}

Definition child_reactor() {
  return Builder("Payment")
      .input("amount", integer())
      .input("note", string().optional())
      .step("charge", ok_step)
      .build();
}

Definition element_reactor() {
  return Builder("ChargeOne").input("item", any()).step("charge", ok_step).build();
}

}  // namespace

TEST(BuilderValidation, AcceptsAWellFormedGraphAndResolvesDependencies) {
  Definition d = Builder("OrderSaga")
                     .input("order_id", integer())
                     .step("reserve", ok_step)
                     .argument("order_id", input("order_id"))
                     .step("charge", ok_step)
                     .argument("reservation", result("reserve"))
                     .step("ship", ok_step)
                     .wait_for("charge")
                     .returns("ship")
                     .build();
  EXPECT_EQ(d.name(), "OrderSaga");
  ASSERT_EQ(d.steps().size(), 3u);
  EXPECT_EQ(d.find_step("charge")->dependencies, (std::vector<std::size_t>{0}));
  EXPECT_EQ(d.find_step("ship")->dependencies, (std::vector<std::size_t>{1}));
  EXPECT_EQ(d.find_step("reserve")->dependents, (std::vector<std::size_t>{1}));
  EXPECT_FALSE(d.fingerprint().empty());
}

TEST(BuilderValidation, RejectsResultOfUnknownStep) {
  std::string m = rejection(Builder("OrderSaga")
                                .step("reserve", ok_step)
                                .step("charge", ok_step)
                                .argument("reservation", result("reserv")));
  EXPECT_THAT(m, AllOf(HasSubstr("reactor 'OrderSaga'"), HasSubstr("step 'charge'"),
                       HasSubstr("unknown step 'reserv'")));
}

TEST(BuilderValidation, RejectsWaitForUnknownStep) {
  std::string m = rejection(
      Builder("OrderSaga").step("reserve", ok_step).step("ship", ok_step).wait_for("charge"));
  EXPECT_THAT(m, AllOf(HasSubstr("step 'ship'"), HasSubstr("wait_for"),
                       HasSubstr("unknown step 'charge'")));
}

TEST(BuilderValidation, RejectsUnknownInput) {
  std::string m = rejection(Builder("OrderSaga")
                                .input("order_id", integer())
                                .step("reserve", ok_step)
                                .argument("id", input("orderid")));
  EXPECT_THAT(m, AllOf(HasSubstr("step 'reserve'"), HasSubstr("unknown input 'orderid'")));
}

TEST(BuilderValidation, RejectsUnknownInputAsMapSource) {
  std::string m = rejection(Builder("Batch")
                                .input("items", array())
                                .map("charge_all", element_reactor())
                                .source(input("itemz"))
                                .argument("item", element("charge_all")));
  EXPECT_THAT(m, AllOf(HasSubstr("step 'charge_all'"), HasSubstr("unknown input 'itemz'")));
}

TEST(BuilderValidation, RejectsDuplicateStepNames) {
  std::string m = rejection(Builder("OrderSaga")
                                .step("reserve", ok_step)
                                .step("charge", ok_step)
                                .step("reserve", ok_step));
  EXPECT_THAT(m, HasSubstr("duplicate step name 'reserve'"));
}

TEST(BuilderValidation, RejectsDuplicateInputs) {
  std::string m = rejection(
      Builder("OrderSaga").input("amount", integer()).input("amount", number()).step("a", ok_step));
  EXPECT_THAT(m, HasSubstr("duplicate input 'amount'"));
}

TEST(BuilderValidation, RejectsDuplicateArgumentNames) {
  std::string m = rejection(Builder("OrderSaga")
                                .input("x", any())
                                .step("reserve", ok_step)
                                .argument("id", input("x"))
                                .argument("id", value(1)));
  EXPECT_THAT(m, AllOf(HasSubstr("step 'reserve'"), HasSubstr("duplicate argument 'id'")));
}

// The message names exactly the steps on the cycle, in order, as a closed walk.
TEST(BuilderValidation, RejectsCycleNamingItsSteps) {
  std::string m = rejection(Builder("Loop")
                                .step("audit", ok_step)  // depends on the cycle, not on it
                                .argument("r", result("reserve"))
                                .step("prepare", ok_step)  // unrelated
                                .step("reserve", ok_step)
                                .wait_for("ship")
                                .step("charge", ok_step)
                                .argument("r", result("reserve"))
                                .step("ship", ok_step)
                                .argument("c", result("charge")));
  ASSERT_THAT(m, HasSubstr("cycle"));
  std::string walk = m.substr(m.find(": ", m.find("cycle")) + 2);
  std::vector<std::string> names;
  std::istringstream in(walk);
  for (std::string tok; in >> tok;) {
    if (tok != "->") names.push_back(tok);
  }
  ASSERT_EQ(names.size(), 4u) << m;
  EXPECT_EQ(names.front(), names.back()) << "not a closed walk: " << m;
  EXPECT_EQ(std::set<std::string>(names.begin(), names.end()),
            (std::set<std::string>{"reserve", "charge", "ship"}))
      << m;
  // Each arrow follows a dependency: reserve waits for ship, ship uses charge, charge uses reserve.
  const std::map<std::string, std::string> depends_on{
      {"reserve", "ship"}, {"ship", "charge"}, {"charge", "reserve"}};
  for (std::size_t k = 0; k + 1 < names.size(); ++k) {
    EXPECT_EQ(depends_on.at(names[k]), names[k + 1]) << m;
  }
  EXPECT_THAT(m, AllOf(Not(HasSubstr("audit")), Not(HasSubstr("prepare"))));
}

TEST(BuilderValidation, RejectsTwoStepCycleThroughWaitFor) {
  std::string m = rejection(Builder("Loop")
                                .step("left", ok_step)
                                .wait_for("right")
                                .step("right", ok_step)
                                .wait_for("left"));
  EXPECT_THAT(m, AllOf(HasSubstr("cycle"), HasSubstr("left"), HasSubstr("right")));
}

TEST(BuilderValidation, RejectsStepDependingOnItself) {
  EXPECT_THAT(rejection(Builder("Self").step("a", ok_step).argument("x", result("a"))),
              AllOf(HasSubstr("step 'a'"), HasSubstr("its own result")));
  EXPECT_THAT(rejection(Builder("Self").step("a", ok_step).wait_for("a")),
              AllOf(HasSubstr("step 'a'"), HasSubstr("itself")));
}

TEST(BuilderValidation, RejectsMaxAttemptsBelowOne) {
  for (int attempts : {0, -3}) {
    std::string m = rejection(Builder("Pay")
                                  .step("charge", ok_step)
                                  .retries(fixed_backoff(attempts, std::chrono::seconds(1))));
    EXPECT_THAT(m, AllOf(HasSubstr("step 'charge'"), HasSubstr("max_attempts"))) << attempts;
  }
}

TEST(BuilderValidation, RejectsNegativeRetryDelays) {
  using std::chrono::milliseconds;
  EXPECT_THAT(
      rejection(
          Builder("Pay").step("charge", ok_step).retries(exponential_backoff(3, milliseconds(-1)))),
      AllOf(HasSubstr("step 'charge'"), HasSubstr("delay must not be negative")));
  EXPECT_THAT(
      rejection(Builder("Pay")
                    .step("charge", ok_step)
                    .retries(fixed_backoff(3, milliseconds(10)).max_delay(milliseconds(-5)))),
      AllOf(HasSubstr("step 'charge'"), HasSubstr("max_delay")));
  EXPECT_THAT(rejection(Builder("Pay")
                            .step("charge", ok_step)
                            .retries(fixed_backoff(3, milliseconds(10)).jitter(milliseconds(-5)))),
              AllOf(HasSubstr("step 'charge'"), HasSubstr("jitter")));
}

TEST(BuilderValidation, RejectsNonPositiveTimeout) {
  EXPECT_THAT(rejection(Builder("Pay").step("charge", ok_step).timeout(Duration::zero())),
              AllOf(HasSubstr("step 'charge'"), HasSubstr("timeout")));
}

TEST(BuilderValidation, RejectsReturnsOfUnknownStep) {
  std::string m = rejection(Builder("OrderSaga").step("reserve", ok_step).returns("ship"));
  EXPECT_THAT(m, AllOf(HasSubstr("returns()"), HasSubstr("unknown step 'ship'")));
}

TEST(BuilderValidation, RejectsEveryModifierBeforeAnyStep) {
  const std::vector<std::pair<std::string, std::function<void(Builder&)>>> modifiers{
      {"argument", [](Builder& b) { b.argument("x", value(1)); }},
      {"wait_for", [](Builder& b) { b.wait_for("x"); }},
      {"compensate",
       [](Builder& b) {
         b.compensate([](const std::string&, const Args&, StepContext&) { return Success(); });
       }},
      {"undo",
       [](Builder& b) {
         b.undo([](const Value&, const Args&, StepContext&) { return Success(); });
       }},
      {"retries", [](Builder& b) { b.retries(fixed_backoff(2, Duration::zero())); }},
      {"timeout", [](Builder& b) { b.timeout(std::chrono::seconds(1)); }},
      {"validate_output", [](Builder& b) { b.validate_output(integer()); }},
      {"source", [](Builder& b) { b.source(value(Value::array())); }},
      {"atomic", [](Builder& b) { b.atomic(false); }},
      {"collect", [](Builder& b) { b.collect([](const MapResults&) { return Value(); }); }},
  };
  for (const auto& [name, apply] : modifiers) {
    Builder b("Early");
    b.input("x", any());
    apply(b);
    b.step("a", ok_step);
    EXPECT_THAT(rejection(b), HasSubstr(name + "() called before any step")) << name;
  }
}

TEST(BuilderValidation, RejectsElementOutsideItsMap) {
  EXPECT_THAT(
      rejection(Builder("Batch").step("charge", ok_step).argument("item", element("charge_all"))),
      AllOf(HasSubstr("step 'charge'"), HasSubstr("element(\"charge_all\")"),
            HasSubstr("only valid among the arguments of map 'charge_all'")));
  // Another map's element is outside this map too.
  EXPECT_THAT(rejection(Builder("Batch")
                            .input("items", array())
                            .map("first", element_reactor())
                            .source(input("items"))
                            .argument("item", element("first"))
                            .map("second", element_reactor())
                            .source(input("items"))
                            .argument("item", element("first"))),
              AllOf(HasSubstr("step 'second'"), HasSubstr("element(\"first\")")));
  // A map's source is the collection, not one of its elements.
  EXPECT_THAT(rejection(Builder("Batch")
                            .map("charge_all", element_reactor())
                            .source(element("charge_all"))
                            .argument("item", element("charge_all"))),
              AllOf(HasSubstr("step 'charge_all'"), HasSubstr("source() cannot be an element")));
}

TEST(BuilderValidation, RejectsComposeMissingRequiredChildInput) {
  std::string m = rejection(Builder("Order")
                                .input("note", string())
                                .compose("payment", child_reactor())
                                .argument("note", input("note")));
  EXPECT_THAT(m, AllOf(HasSubstr("step 'payment'"), HasSubstr("child reactor 'Payment'"),
                       HasSubstr("requires input 'amount'")));
}

TEST(BuilderValidation, RejectsComposeArgumentThatIsNotAChildInput) {
  std::string m = rejection(Builder("Order")
                                .compose("payment", child_reactor())
                                .argument("amount", value(5))
                                .argument("currency", value("EUR")));
  EXPECT_THAT(m, AllOf(HasSubstr("step 'payment'"), HasSubstr("argument 'currency'"),
                       HasSubstr("not an input of child reactor 'Payment'")));
}

TEST(BuilderValidation, AcceptsComposeThatOmitsOnlyOptionalChildInputs) {
  EXPECT_NO_THROW(
      Builder("Order").compose("payment", child_reactor()).argument("amount", value(5)).build());
}

TEST(BuilderValidation, RejectsMapWithoutSourceOrElementArgument) {
  EXPECT_THAT(rejection(Builder("Batch")
                            .map("charge_all", element_reactor())
                            .argument("item", element("charge_all"))),
              AllOf(HasSubstr("step 'charge_all'"), HasSubstr("source()")));
  EXPECT_THAT(rejection(Builder("Batch")
                            .input("items", array())
                            .map("charge_all", Builder("ChargeOne")
                                                   .input("item", any().optional())
                                                   .step("charge", ok_step)
                                                   .build())
                            .source(input("items"))),
              AllOf(HasSubstr("step 'charge_all'"), HasSubstr("element(\"charge_all\")")));
}

TEST(BuilderValidation, RejectsMapModifiersOnPlainSteps) {
  EXPECT_THAT(rejection(Builder("R").step("a", ok_step).atomic(false)),
              AllOf(HasSubstr("step 'a'"), HasSubstr("atomic() applies to map steps only")));
  EXPECT_THAT(rejection(Builder("R").step("a", ok_step).source(value(Value::array()))),
              AllOf(HasSubstr("step 'a'"), HasSubstr("source() applies to map steps only")));
  EXPECT_THAT(
      rejection(Builder("R").step("a", ok_step).collect([](const MapResults&) { return Value(); })),
      AllOf(HasSubstr("step 'a'"), HasSubstr("collect() applies to map steps only")));
}

TEST(BuilderValidation, RejectsStepModifiersThatDoNotApplyToComposeOrMap) {
  EXPECT_THAT(rejection(Builder("Order")
                            .compose("payment", child_reactor())
                            .argument("amount", value(1))
                            .retries(fixed_backoff(3, Duration::zero()))),
              AllOf(HasSubstr("step 'payment'"), HasSubstr("retries()")));
  EXPECT_THAT(rejection(Builder("Order")
                            .compose("payment", child_reactor())
                            .argument("amount", value(1))
                            .timeout(std::chrono::seconds(1))),
              AllOf(HasSubstr("step 'payment'"), HasSubstr("timeout()")));
  EXPECT_THAT(
      rejection(Builder("Order")
                    .compose("payment", child_reactor())
                    .argument("amount", value(1))
                    .undo([](const Value&, const Args&, StepContext&) { return Success(); })),
      AllOf(HasSubstr("step 'payment'"), HasSubstr("undo()")));
  // Output validation of a composed child or a map would never run: rejected, not ignored.
  EXPECT_THAT(rejection(Builder("Order")
                            .compose("payment", child_reactor())
                            .argument("amount", value(1))
                            .validate_output(integer())),
              AllOf(HasSubstr("step 'payment'"), HasSubstr("validate_output()")));
  EXPECT_THAT(rejection(Builder("Batch")
                            .input("items", array())
                            .map("charge_all", element_reactor())
                            .source(input("items"))
                            .argument("item", element("charge_all"))
                            .validate_output(array())),
              AllOf(HasSubstr("step 'charge_all'"), HasSubstr("validate_output()")));
}

namespace {
struct Reserve : Step {
  StepResult run(const Args&, StepContext&) override { return Success(); }
};
// "Shop": a map "charge_all" of `element_def` over input "items" (an input "claim" too), with
// nothing said of fan_out or claims yet.
Builder shop_map(const Definition& element_def) {
  Builder b("Shop");
  b.input("items", array())
      .input("claim", integer())
      .map("charge_all", element_def)
      .source(input("items"))
      .argument("item", element("charge_all"));
  return b;
}

// An element reactor that composes a child: not plain steps.
Definition composing_element() {
  return Builder("ChargeTwice")
      .input("item", any())
      .compose("pay", child_reactor())
      .argument("amount", value(1))
      .build();
}

// claim_batch() runs elements in memory, inside a claim's run: fan-out maps of plain steps only.
TEST(BuilderValidation, ClaimBatchNeedsFanOutAndAnElementOfPlainSteps) {
  EXPECT_THAT(rejection(shop_map(element_reactor()).claim_batch(8)),
              HasSubstr("claim_batch() applies to a map with fan_out() only"));
  EXPECT_THAT(rejection(shop_map(composing_element()).fan_out(4).claim_batch(8)),
              AllOf(HasSubstr("step 'pay'"), HasSubstr("plain steps only")));
  EXPECT_THAT(rejection(shop_map(element_reactor()).fan_out(4).claim_batch(0)),
              HasSubstr("claim_batch() needs at least 1 element a claim"));
  EXPECT_NO_THROW(shop_map(element_reactor()).fan_out(4).claim_batch(8).build());
}

TEST(BuilderValidation, CheckpointStepsNeedsFanOutAndExcludesClaims) {
  EXPECT_THAT(rejection(shop_map(element_reactor()).checkpoint_steps()),
              HasSubstr("checkpoint_steps() applies to a map with fan_out() only"));
  EXPECT_THAT(rejection(shop_map(element_reactor()).fan_out(4).checkpoint_steps().claim_batch(8)),
              HasSubstr("claim_batch(8) and checkpoint_steps() exclude each other"));
  EXPECT_THAT(rejection(Builder("Shop").input("x", any()).step("s", ok_step).checkpoint_steps()),
              HasSubstr("checkpoint_steps() applies to map steps only"));
  Definition d = shop_map(element_reactor()).fan_out(4).checkpoint_steps().build();
  EXPECT_EQ(d.steps().front().claim, 1u);
}

TEST(BuilderValidation, AClaimSizeFromAnInputIsCheckedAsAConstantOne) {
  EXPECT_THAT(rejection(shop_map(composing_element()).fan_out(4).claim_batch(input("claim"))),
              AllOf(HasSubstr("step 'pay'"), HasSubstr("plain steps only")));
  EXPECT_THAT(rejection(shop_map(element_reactor()).fan_out(4).claim_batch(element("charge_all"))),
              HasSubstr("claim_batch()'s size cannot be an element"));
  EXPECT_THAT(rejection(shop_map(element_reactor()).fan_out(4).claim_batch(input("nope"))),
              HasSubstr("nope"));
  EXPECT_THAT(
      rejection(
          shop_map(element_reactor()).fan_out(4).claim_batch(input("claim")).checkpoint_steps()),
      HasSubstr("claim_batch(claim) and checkpoint_steps() exclude each other"));
  EXPECT_NO_THROW(shop_map(element_reactor()).fan_out(4).claim_batch(input("claim")).build());
}

}  // namespace

TEST(BuilderValidation, RejectsRollbackFunctionsOnStepClasses) {
  EXPECT_THAT(rejection(Builder("R").step<Reserve>("reserve").compensate(
                  [](const std::string&, const Args&, StepContext&) { return Success(); })),
              AllOf(HasSubstr("step 'reserve'"), HasSubstr("compensate()")));
}

TEST(BuilderValidation, RejectsBadNamesAndSettings) {
  EXPECT_THAT(rejection(Builder("R").step("", ok_step)), HasSubstr("non-empty name"));
  EXPECT_THAT(rejection(Builder("R").step("pay/charge", ok_step)),
              AllOf(HasSubstr("step 'pay/charge'"), HasSubstr("'/'")));
  EXPECT_THAT(rejection(Builder("R").step("a", RunFn{})),
              AllOf(HasSubstr("step 'a'"), HasSubstr("no body")));
  EXPECT_THAT(rejection(Builder("R").max_concurrency(0).step("a", ok_step)),
              HasSubstr("max_concurrency"));
  EXPECT_THROW(Builder("").step("a", ok_step).build(), DefinitionError);
}

// The limits of reactor/limits.hpp a stored run is held to: no definition can make a run that
// its own workers would refuse as corrupt.
TEST(BuilderValidation, DefinitionsPastTheRunLimitsAreRejected) {
  Builder wide("Wide");
  for (std::size_t i = 0; i <= kMaxRunSteps; ++i) wide.step("s" + std::to_string(i), ok_step);
  EXPECT_THAT(rejection(wide), HasSubstr("more than 10000"));

  Definition deep = Builder("L1").step("a", ok_step).build();
  for (int level = 2; level <= kMaxRunNesting; ++level) {
    deep = Builder("L" + std::to_string(level)).compose("c", deep).build();
  }
  EXPECT_THAT(rejection(Builder("Deeper").compose("c", deep)),
              HasSubstr("65 levels deep, more than 64"));
}

// One hand-off point per reactor, at a step it has; it is no part of the graph's fingerprint.
TEST(BuilderValidation, AHandOffPointIsOneAndNamesAStep) {
  EXPECT_THAT(rejection(Builder("R")
                            .step("a", ok_step)
                            .step("b", ok_step)
                            .background_after("a")
                            .background_before("b")),
              AllOf(HasSubstr("reactor 'R'"), HasSubstr("background_after(\"a\")"),
                    HasSubstr("background_before(\"b\")"), HasSubstr("at most one")));
  EXPECT_THAT(
      rejection(Builder("R").step("a", ok_step).background_after("a").background_after("a")),
      HasSubstr("at most one"));
  EXPECT_THAT(rejection(Builder("R").step("a", ok_step).background_before("nope")),
              AllOf(HasSubstr("background_before(\"nope\")"), HasSubstr("unknown step")));

  const Definition plain = Builder("R").step("a", ok_step).step("b", ok_step).build();
  const Definition handed =
      Builder("R").step("a", ok_step).step("b", ok_step).background_before("b").build();
  ASSERT_TRUE(handed.hand_off().has_value());
  EXPECT_EQ(handed.hand_off()->kind, HandOff::Kind::kBefore);
  EXPECT_EQ(handed.hand_off()->step, 1u);
  EXPECT_FALSE(plain.hand_off().has_value());
  EXPECT_EQ(plain.fingerprint(), handed.fingerprint());
}

TEST(BuilderValidation, AsyncUnitsRejectWhatTheyCannotHonour) {
  const Definition child = Builder("Child").step("x", ok_step).build();
  EXPECT_THAT(
      rejection(
          Builder("R").async_step("a", ok_step).undo([](const Value&, const Args&, StepContext&) {
            return Success();
          })),
      AllOf(HasSubstr("step 'a'"), HasSubstr("undo() is not allowed on an async unit")));
  EXPECT_THAT(rejection(Builder("R")
                            .async_reactor("a", child)
                            .retries(fixed_backoff(3, std::chrono::seconds(1)))),
              AllOf(HasSubstr("step 'a'"), HasSubstr("retries() is not allowed")));
  EXPECT_THAT(rejection(Builder("R").async_step("a", ok_step).step("b", ok_step).returns("a")),
              AllOf(HasSubstr("returns() names async unit 'a'"), HasSubstr("result(\"a\")")));
  EXPECT_THAT(rejection(Builder("R").async_reactor("a", child).argument("y", value(1))),
              HasSubstr("argument 'y' is not an input of child reactor 'Child'"));
}

TEST(BuilderValidation, AnAsyncStepsBodyIsAReactorOfOneStepNamedAfterIt) {
  const Definition d = Builder("Order")
                           .input("id", integer())
                           .async_step("notify", ok_step)
                           .argument("who", input("id"))
                           .retries(fixed_backoff(3, std::chrono::seconds(1)))
                           .build();
  const StepSpec& s = d.steps()[0];
  EXPECT_EQ(s.kind, StepKind::kAsync);
  EXPECT_TRUE(s.own_body);
  ASSERT_TRUE(s.child != nullptr);
  EXPECT_EQ(s.child->name, "Order.notify");
  ASSERT_EQ(s.child->inputs.size(), 1u);
  EXPECT_EQ(s.child->inputs[0].name, "who");
  ASSERT_EQ(s.child->steps.size(), 1u);
  EXPECT_EQ(s.child->steps[0].retry.max_attempts(), 3);
  EXPECT_EQ(s.child->returns, 0u);
  Registry registry;
  registry.add(d);
  EXPECT_TRUE(registry.find("Order.notify").has_value());  // a worker resolves its runs by name
}
