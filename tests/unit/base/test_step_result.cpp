#include <gtest/gtest.h>

#include <stop_token>
#include <string>

#include "reactor/argument.hpp"
#include "reactor/clock.hpp"
#include "reactor/map_results.hpp"
#include "reactor/step.hpp"
#include "reactor/step_result.hpp"

namespace reactor {
namespace {

TEST(StepResultTest, OutcomeNames) {
  EXPECT_STREQ(to_string(Outcome::kSuccess), "success");
  EXPECT_STREQ(to_string(Outcome::kFailure), "failure");
  EXPECT_STREQ(to_string(Outcome::kHalt), "halt");
  EXPECT_STREQ(to_string(Outcome::kSkipped), "skipped");
}

TEST(StepResultTest, SuccessAndSkippedCarryAValue) {
  const StepResult s = Success({{"id", 1}});
  EXPECT_EQ(s.outcome(), Outcome::kSuccess);
  EXPECT_TRUE(s.ok());
  EXPECT_EQ(s.value(), (Value{{"id", 1}}));
  EXPECT_TRUE(Success().value().is_null());

  const StepResult k = Skipped("cached");
  EXPECT_EQ(k.outcome(), Outcome::kSkipped);
  EXPECT_TRUE(k.ok());
  EXPECT_EQ(k.value(), "cached");
}

TEST(StepResultTest, FailureCarriesMessageDetailsAndRetryability) {
  const StepResult f = Failure("declined");
  EXPECT_EQ(f.outcome(), Outcome::kFailure);
  EXPECT_FALSE(f.ok());
  EXPECT_EQ(f.message(), "declined");
  EXPECT_TRUE(f.retryable());
  EXPECT_TRUE(f.value().is_null());
  EXPECT_EQ(f.exception_type(), "");

  const StepResult final_failure = Failure("fraud", {{"score", 99}}, false);
  EXPECT_FALSE(final_failure.retryable());
  EXPECT_EQ(final_failure.value(), (Value{{"score", 99}}));
  EXPECT_FALSE(Failure("no", false).retryable());
}

TEST(StepResultTest, HaltCarriesItsReason) {
  const StepResult h = Halt("manual review");
  EXPECT_EQ(h.outcome(), Outcome::kHalt);
  EXPECT_FALSE(h.ok());
  EXPECT_EQ(h.value(), "manual review");
}

TEST(StepResultTest, FailureFromExceptionIsRetryableAndNamesTheType) {
  const StepResult f = FailureFromException("std::runtime_error", "socket closed");
  EXPECT_EQ(f.outcome(), Outcome::kFailure);
  EXPECT_TRUE(f.retryable());
  EXPECT_EQ(f.exception_type(), "std::runtime_error");
  EXPECT_EQ(f.message(), "socket closed");
}

TEST(StepResultTest, ValueCanBeMovedOut) {
  StepResult s = Success(std::string(100, 'x'));
  const Value taken = std::move(s).value();
  EXPECT_EQ(taken.get<std::string>().size(), 100u);
}

class OnlyRun final : public Step {
 public:
  StepResult run(const Args&, StepContext&) override { return Success(1); }
};

TEST(StepTest, RollbackActionsDefaultToSuccess) {
  OnlyRun step;
  Args args;
  ManualClock clock;
  const std::string run_id = "r", reactor = "R", path = "p";
  StepContext ctx(run_id, reactor, path, 1, std::stop_token(), clock);
  EXPECT_EQ(step.compensate("boom", args, ctx).outcome(), Outcome::kSuccess);
  EXPECT_EQ(step.undo(Value(1), args, ctx).outcome(), Outcome::kSuccess);
  EXPECT_EQ(ctx.idempotency_key(), "r:p");
}

TEST(ArgumentSourceTest, FactoriesRecordWhereTheValueComesFrom) {
  const ArgumentSource in = input("address", "shipping.city");
  EXPECT_EQ(in.kind(), ArgumentSource::Kind::kInput);
  EXPECT_EQ(in.name(), "address");
  EXPECT_EQ(in.path(), "shipping.city");

  const ArgumentSource res = result("reserve");
  EXPECT_EQ(res.kind(), ArgumentSource::Kind::kResult);
  EXPECT_EQ(res.name(), "reserve");
  EXPECT_EQ(res.path(), "");
  EXPECT_FALSE(res.transform_fn());

  const ArgumentSource lit = value({{"mode", "strict"}});
  EXPECT_EQ(lit.kind(), ArgumentSource::Kind::kValue);
  EXPECT_EQ(lit.literal(), (Value{{"mode", "strict"}}));

  const ArgumentSource el = element("charge_all");
  EXPECT_EQ(el.kind(), ArgumentSource::Kind::kElement);
  EXPECT_EQ(el.name(), "charge_all");
}

TEST(ArgumentSourceTest, TransformIsKept) {
  const ArgumentSource cents =
      result("quote").transform([](const Value& v) { return v.get<int>() * 100; });
  ASSERT_TRUE(cents.transform_fn());
  EXPECT_EQ(cents.transform_fn()(Value(3)), 300);
}

TEST(MapResultsTest, SplitsSuccessesAndFailuresInIndexOrder) {
  const MapResults results({{0, true, "a", ""},
                            {1, false, nullptr, "boom"},
                            {2, true, "c", ""},
                            {3, false, nullptr, "bang"}});
  EXPECT_EQ(results.elements().size(), 4u);
  EXPECT_EQ(results.successes(), (std::vector<Value>{"a", "c"}));
  const std::vector<ElementOutcome> failures = results.failures();
  ASSERT_EQ(failures.size(), 2u);
  EXPECT_EQ(failures[0].index, 1u);
  EXPECT_EQ(failures[0].error, "boom");
  EXPECT_EQ(failures[1].index, 3u);
}

}  // namespace
}  // namespace reactor
