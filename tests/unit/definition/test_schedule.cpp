// Schedules' arithmetic (reactor/schedule.hpp): cron expressions parsed and matched, periods,
// what is due under each missed-period policy, and the UTC times run ids carry.
#include <gtest/gtest.h>

#include "reactor/schedule.hpp"
#include "support/result_testing.hpp"

namespace reactor {
namespace {

using namespace std::chrono_literals;

TimePoint at(const char* iso) {
  Result<TimePoint> t = parse_utc(iso);
  EXPECT_TRUE(t.ok()) << iso << ": " << t.status().to_string();
  return t.ok() ? *t : TimePoint{};
}

CronExpression cron(const char* text) {
  Result<CronExpression> c = CronExpression::parse(text);
  EXPECT_TRUE(c.ok()) << text << ": " << c.status().to_string();
  return c.ok() ? *c : *CronExpression::parse("* * * * *");
}

std::string next(const char* expr, const char* from) {
  std::optional<TimePoint> t = cron(expr).next_after(at(from));
  return t ? format_utc(*t) : "none";
}

std::string last(const char* expr, const char* from) {
  std::optional<TimePoint> t = cron(expr).last_at_or_before(at(from));
  return t ? format_utc(*t) : "none";
}

TEST(Cron, StarsListsRangesAndSteps) {
  EXPECT_EQ(next("* * * * *", "2026-12-03T19:00:30Z"), "2026-12-03T19:01:00Z");
  EXPECT_EQ(next("*/15 * * * *", "2026-12-03T19:00:00Z"), "2026-12-03T19:15:00Z");
  EXPECT_EQ(next("5,35 * * * *", "2026-12-03T19:06:00Z"), "2026-12-03T19:35:00Z");
  EXPECT_EQ(next("0 9-17/4 * * *", "2026-12-03T13:00:00Z"), "2026-12-03T17:00:00Z");
  EXPECT_EQ(next("0 9-17/4 * * *", "2026-12-03T17:00:00Z"), "2026-12-04T09:00:00Z");
  EXPECT_EQ(next("30 2 1 * *", "2026-12-03T00:00:00Z"), "2027-01-01T02:30:00Z");
  EXPECT_EQ(next("0 0 * 2 *", "2026-12-03T00:00:00Z"), "2027-02-01T00:00:00Z");
  EXPECT_EQ(next("10/20 * * * *", "2026-12-03T19:31:00Z"), "2026-12-03T19:50:00Z");
}

TEST(Cron, DaysOfWeekAndTheDayFieldsTogether) {
  // 2026-12-03 is a Thursday.
  EXPECT_EQ(next("0 8 * * 1-5", "2026-12-04T09:00:00Z"), "2026-12-07T08:00:00Z");  // Monday
  EXPECT_EQ(next("0 0 * * 0", "2026-12-03T00:00:00Z"), "2026-12-06T00:00:00Z");
  EXPECT_EQ(next("0 0 * * 7", "2026-12-03T00:00:00Z"), "2026-12-06T00:00:00Z");  // 7 = Sunday
  // Both restricted: either matches (the 15th, or a Monday), as cron has it.
  EXPECT_EQ(next("0 0 15 * 1", "2026-12-08T00:00:00Z"), "2026-12-14T00:00:00Z");
  EXPECT_EQ(next("0 0 15 * 1", "2026-12-14T00:00:00Z"), "2026-12-15T00:00:00Z");
  EXPECT_EQ(next("0 0 29 2 *", "2026-12-03T00:00:00Z"), "2028-02-29T00:00:00Z");
  EXPECT_EQ(next("0 0 30 2 *", "2026-12-03T00:00:00Z"), "none");
}

TEST(Cron, TheLastMatchAtOrBefore) {
  EXPECT_EQ(last("0 * * * *", "2026-12-03T19:00:00Z"), "2026-12-03T19:00:00Z");
  EXPECT_EQ(last("0 * * * *", "2026-12-03T19:59:59Z"), "2026-12-03T19:00:00Z");
  EXPECT_EQ(last("0 3 * * *", "2026-12-03T02:59:00Z"), "2026-12-02T03:00:00Z");
  EXPECT_EQ(last("0 0 1 1 *", "2026-12-03T00:00:00Z"), "2026-01-01T00:00:00Z");
}

TEST(Cron, ABadExpressionNamesItsField) {
  const auto why = [](const char* text) {
    Result<CronExpression> c = CronExpression::parse(text);
    EXPECT_FALSE(c.ok()) << text;
    EXPECT_EQ(c.status().code(), StatusCode::kInvalidArgument);
    return c.status().message();
  };
  EXPECT_NE(why("* * * *").find("expected 5 fields"), std::string::npos);
  EXPECT_NE(why("60 * * * *").find("field 1 (minute): 60 is out of 0-59"), std::string::npos);
  EXPECT_NE(why("0 24 * * *").find("field 2 (hour)"), std::string::npos);
  EXPECT_NE(why("0 0 0 * *").find("field 3 (day of month)"), std::string::npos);
  EXPECT_NE(why("0 0 * 13 *").find("field 4 (month)"), std::string::npos);
  EXPECT_NE(why("0 0 * * 8").find("field 5 (day of week)"), std::string::npos);
  EXPECT_NE(why("*/0 * * * *").find("step"), std::string::npos);
  EXPECT_NE(why("5-1 * * * *").find("backwards"), std::string::npos);
  EXPECT_NE(why("1,,2 * * * *").find("empty item"), std::string::npos);
  EXPECT_NE(why("a * * * *").find("not a number"), std::string::npos);
}

TEST(ScheduleTimes, UtcTextBothWays) {
  EXPECT_EQ(format_utc(at("2026-12-03T19:00:00Z")), "2026-12-03T19:00:00Z");
  EXPECT_EQ(format_utc(at("2026-12-03T19:00Z")), "2026-12-03T19:00:00Z");
  EXPECT_EQ(format_utc(at("2026-12-03T21:00:00+02:00")), "2026-12-03T19:00:00Z");
  EXPECT_EQ(format_utc(at("2026-12-03T19:00:00.250Z")), "2026-12-03T19:00:00.250Z");
  for (const char* bad : {"", "2026-12-03", "2026-13-03T00:00:00Z", "2026-02-30T00:00:00Z",
                          "2026-12-03T19:00:00", "2026-12-03T19:00:00Zjunk", "tomorrow"}) {
    EXPECT_EQ(parse_utc(bad).status().code(), StatusCode::kInvalidArgument) << bad;
  }
  EXPECT_EQ(scheduled_run_id("nightly-report", at("2026-12-03T19:00:00Z")),
            "nightly-report@20261203T190000Z");
}

TEST(ScheduleTimes, PeriodsOfAFixedLengthStartAtItsMultiplesSinceTheEpoch) {
  Schedule s{.name = "s", .reactor = "R", .every = 10min};
  std::optional<Period> p = period_at(s, at("2026-12-03T19:07:30Z"));
  ASSERT_TRUE(p);
  EXPECT_EQ(format_utc(p->start), "2026-12-03T19:00:00Z");
  EXPECT_EQ(format_utc(p->next), "2026-12-03T19:10:00Z");
  s.every = Duration::zero();
  EXPECT_FALSE(period_at(s, at("2026-12-03T19:07:30Z")));
  s.cron = "0 0 30 2 *";
  EXPECT_FALSE(period_at(s, at("2026-12-03T19:07:30Z")));
}

TEST(ScheduleTimes, WhatIsDueUnderEachPolicy) {
  Schedule once{.name = "s", .reactor = "R", .every = 1h};
  const TimePoint ten = at("2026-12-03T10:00:00Z");
  // Fired 10:00; at 10:59 nothing is due, the next at 11:00.
  NextFire f = next_fire(once, ten, at("2026-12-03T10:59:00Z"));
  EXPECT_FALSE(f.due);
  EXPECT_EQ(format_utc(*f.next), "2026-12-03T11:00:00Z");
  // Missed 11:00 to 14:00: fire_once starts the current period's run, however late.
  f = next_fire(once, ten, at("2026-12-03T14:40:00Z"));
  ASSERT_TRUE(f.due);
  EXPECT_EQ(format_utc(*f.due), "2026-12-03T14:00:00Z");
  // skip: the current period is late past its grace: none now, the next at 15:00 ...
  Schedule skip = once;
  skip.missed = MissedPeriods::kSkip;
  skip.grace = 1min;
  f = next_fire(skip, ten, at("2026-12-03T14:40:00Z"));
  EXPECT_FALSE(f.due);
  EXPECT_EQ(format_utc(*f.next), "2026-12-03T15:00:00Z");
  // ... and a period seen within its grace is on time.
  f = next_fire(skip, ten, at("2026-12-03T14:00:59Z"));
  ASSERT_TRUE(f.due);
  EXPECT_EQ(format_utc(*f.due), "2026-12-03T14:00:00Z");
  // Never fired: the current period is due.
  EXPECT_TRUE(next_fire(once, std::nullopt, at("2026-12-03T14:40:00Z")).due);
  EXPECT_EQ(to_string(MissedPeriods::kSkip), std::string("skip"));
  EXPECT_EQ(missed_periods_from_string("fire_once"), MissedPeriods::kFireOnce);
  EXPECT_FALSE(missed_periods_from_string("sometimes"));
}

}  // namespace
}  // namespace reactor
