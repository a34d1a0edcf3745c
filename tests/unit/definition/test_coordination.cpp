// Coordination as declared (reactor/coordination.hpp): the Builder's modifiers, their misuse,
// named rate limits, UTC period buckets and the plan a run's keys make (hold_plan.hpp).
#include <gtest/gtest.h>

#include "durability/coordination/hold_plan.hpp"
#include "reactor/builder.hpp"
#include "reactor/registry.hpp"

namespace reactor {
namespace {

using namespace std::chrono_literals;

StepResult ok(const Args&) { return Success(1); }

std::int64_t utc(int y, unsigned m, unsigned d, int h = 0, int min = 0) {
  namespace c = std::chrono;
  const c::sys_days date = c::year{y} / c::month{m} / c::day{d};
  return c::duration_cast<c::milliseconds>(
             (date + c::hours{h} + c::minutes{min}).time_since_epoch())
      .count();
}

TEST(CoordinationBuilder, BeforeTheFirstStepItIsTheReactorsAfterAStepThatSteps) {
  Definition d = Builder("Pay")
                     .input("acct")
                     .with_lock("global")
                     .with_period(PeriodSpec::day())
                     .step("charge", ok)
                     .with_semaphore("bank-api", 2)
                     .with_rate_limit(constant_key("bank"), {RateWindow{1s, 5}})
                     .build();
  const CoordinationSpec& reactor = d.data()->coordination;
  EXPECT_EQ(reactor.locks.size(), 1u);
  EXPECT_TRUE(reactor.period.has_value());
  EXPECT_TRUE(reactor.semaphores.empty());
  const CoordinationSpec& step = d.steps()[0].coordination;
  ASSERT_EQ(step.semaphores.size(), 1u);
  EXPECT_EQ(step.semaphores[0].limit, 2);
  ASSERT_EQ(step.rate_limits.size(), 1u);
  EXPECT_EQ(step.rate_limits[0].windows[0].limit, 5);
}

TEST(CoordinationBuilder, MisuseIsADefinitionErrorNamingIt) {
  auto fails = [](Builder b, const std::string& says) {
    try {
      b.build();
      ADD_FAILURE() << "built; expected: " << says;
    } catch (const DefinitionError& e) {
      EXPECT_NE(std::string(e.what()).find(says), std::string::npos) << e.what();
    }
  };
  fails(std::move(Builder("A").with_semaphore("k", 0).step("s", ok)), "limit 0");
  fails(std::move(Builder("A").with_rate_limit(constant_key("k"), {}).step("s", ok)), "no window");
  fails(
      std::move(Builder("A").with_rate_limit(constant_key("k"), {RateWindow{1s, 0}}).step("s", ok)),
      "limit >= 1");
  fails(std::move(Builder("A").step("s", ok).with_ordered_lock(constant_key("k"))),
        "before the first step");
  fails(std::move(Builder("A")
                      .with_period(PeriodSpec::day())
                      .with_period(PeriodSpec::hour())
                      .step("s", ok)),
        "declared twice");
  fails(std::move(Builder("A").with_lock(KeyFn{}).step("s", ok)), "no key function");
  Definition child = Builder("C").step("s", ok).build();
  fails(std::move(Builder("A").compose("c", child).with_lock("k")), "applies to plain steps");
}

TEST(CoordinationRegistry, ANamedRateLimitMustBeRegisteredFirst) {
  Registry registry;
  Definition d = Builder("Call").step("call", ok).with_rate_limit("bank").build();
  EXPECT_THROW(registry.add(d), DefinitionError);
  registry.rate_limits().add("bank", {RateWindow{1s, 20}});
  EXPECT_NO_THROW(registry.add(d));
  EXPECT_THROW(registry.rate_limits().add("bad", {}), DefinitionError);
  EXPECT_THROW(registry.rate_limits().add("bad", {RateWindow{0s, 1}}), DefinitionError);
}

TEST(PeriodBucket, NamesUtcCalendarBuckets) {
  const std::int64_t t = utc(2026, 12, 4, 14, 5);
  EXPECT_EQ(period_bucket(PeriodSpec::minute(), t), "2026-12-04T14:05");
  EXPECT_EQ(period_bucket(PeriodSpec::hour(), t), "2026-12-04T14");
  EXPECT_EQ(period_bucket(PeriodSpec::day(), t), "2026-12-04");
  EXPECT_EQ(period_bucket(PeriodSpec::month(), t), "2026-12");
  EXPECT_EQ(period_bucket(PeriodSpec::year(), t), "2026");
  EXPECT_EQ(period_bucket(PeriodSpec::every_seconds(3600), t),
            "s3600:" + std::to_string(t / 1000 / 3600));
}

TEST(PeriodBucket, WeeksAreIsoWeeks) {
  EXPECT_EQ(period_bucket(PeriodSpec::week(), utc(2026, 12, 4)), "2026-W49");
  // 2027-01-01 is a Friday: its week is the last of 2026 (53 weeks: 2026 starts on a Thursday).
  EXPECT_EQ(period_bucket(PeriodSpec::week(), utc(2027, 1, 1)), "2026-W53");
  EXPECT_EQ(period_bucket(PeriodSpec::week(), utc(2027, 1, 4)), "2027-W01");
  // 2024-12-30 is a Monday in the week of 2025-01-02, a Thursday: week 1 of 2025.
  EXPECT_EQ(period_bucket(PeriodSpec::week(), utc(2024, 12, 30)), "2025-W01");
}

TEST(HoldPlan, LocksAreTakenInKeyOrderOnceAfterThePeriodsBucketLock) {
  CoordinationSpec spec;
  spec.locks.push_back(LockSpec{constant_key("b"), {}});
  spec.locks.push_back(LockSpec{constant_key("a"), LockOptions{2s}});
  spec.locks.push_back(LockSpec{constant_key("b"), {}});
  spec.semaphores.push_back(SemaphoreSpec{constant_key("api"), 2, {}});
  spec.period = PeriodDedupSpec{{}, PeriodSpec::day()};
  Args none;
  Result<HoldPlan> plan =
      plan_holds(spec, none, PlanContext{"r1", "r1", "Report", utc(2026, 12, 4), nullptr});
  ASSERT_TRUE(plan.ok()) << plan.status().to_string();
  std::vector<std::string> keys;
  for (const HoldClaim& h : plan->holds) keys.push_back(h.key);
  EXPECT_EQ(keys, (std::vector<std::string>{"period:Report@2026-12-04", "a", "b", "api"}));
  EXPECT_EQ(plan->holds.back().kind, HoldKind::kSemaphore);
  EXPECT_EQ(plan->periods, std::vector<std::string>{"Report@2026-12-04"});
  ASSERT_EQ(plan->marks.size(), 1u);
  EXPECT_EQ(plan->marks[0].run_id, "r1");
  EXPECT_EQ(plan->wait, 2s);
}

TEST(HoldPlan, AKeyThatThrowsOrIsEmptyIsAnError) {
  CoordinationSpec spec;
  spec.locks.push_back(LockSpec{[](const Args&) -> std::string { return ""; }, {}});
  Args none;
  Result<HoldPlan> plan = plan_holds(spec, none, PlanContext{"r", "r", "X", 0, nullptr});
  ASSERT_FALSE(plan.ok());
  EXPECT_NE(plan.status().message().find("with_lock returned an empty key"), std::string::npos);
  spec.locks[0].key = [](const Args& a) { return a["missing"].get<std::string>(); };
  plan = plan_holds(spec, none, PlanContext{"r", "r", "X", 0, nullptr});
  ASSERT_FALSE(plan.ok());
  EXPECT_NE(plan.status().message().find("with_lock threw"), std::string::npos);
}

}  // namespace
}  // namespace reactor
