#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <future>
#include <stop_token>
#include <thread>

#include "reactor/clock.hpp"

namespace reactor {
namespace {

using namespace std::chrono_literals;
using ::testing::ElementsAre;

// Upper bound for a wait that must finish; reaching it means the clock never woke the waiter.
constexpr auto kBound = 10s;

TEST(ManualClockTest, StartsAtTheGivenTime) {
  ManualClock clock(from_unix_ms(1234));
  EXPECT_EQ(to_unix_ms(clock.now()), 1234);
  EXPECT_EQ(to_unix_ms(ManualClock().now()), 1'700'000'000'000);
}

TEST(ManualClockTest, AdvanceAndSetMoveTime) {
  ManualClock clock(from_unix_ms(0));
  clock.advance(1500ms);
  EXPECT_EQ(to_unix_ms(clock.now()), 1500);
  clock.set(from_unix_ms(99));
  EXPECT_EQ(to_unix_ms(clock.now()), 99);
}

TEST(ManualClockTest, SleepJumpsToTheDeadlineAndRecordsIt) {
  ManualClock clock(from_unix_ms(0));
  clock.sleep_until(from_unix_ms(200));
  EXPECT_EQ(to_unix_ms(clock.now()), 200);
  clock.sleep_until(from_unix_ms(100));  // already past: time stays, a zero wait is recorded
  EXPECT_EQ(to_unix_ms(clock.now()), 200);
  clock.sleep_until(from_unix_ms(1200));
  EXPECT_EQ(to_unix_ms(clock.now()), 1200);
  EXPECT_THAT(clock.sleeps(), ElementsAre(Duration(200ms), Duration::zero(), Duration(1s)));
}

TEST(ManualClockTest, WaitUntilPastDeadlineReturnsAtOnce) {
  ManualClock clock(from_unix_ms(1000));
  EXPECT_TRUE(clock.wait_until(from_unix_ms(1000), std::stop_token()));
  EXPECT_TRUE(clock.wait_until(from_unix_ms(10), std::stop_token()));
}

TEST(ManualClockTest, WaitUntilWakesWhenAnotherThreadAdvancesPastTheDeadline) {
  ManualClock clock(from_unix_ms(0));
  std::stop_source never;
  auto waiter = std::async(std::launch::async,
                           [&] { return clock.wait_until(from_unix_ms(5000), never.get_token()); });
  clock.advance(1s);
  // Short of the deadline: a correct clock cannot have released the waiter.
  EXPECT_EQ(waiter.wait_for(0s), std::future_status::timeout);
  clock.advance(4s);
  ASSERT_EQ(waiter.wait_for(kBound), std::future_status::ready);
  EXPECT_TRUE(waiter.get());
}

TEST(ManualClockTest, WaitUntilWakesOnSetAndOnSleep) {
  ManualClock clock(from_unix_ms(0));
  auto by_set = std::async(std::launch::async,
                           [&] { return clock.wait_until(from_unix_ms(100), std::stop_token()); });
  clock.set(from_unix_ms(150));
  ASSERT_EQ(by_set.wait_for(kBound), std::future_status::ready);
  EXPECT_TRUE(by_set.get());

  auto by_sleep = std::async(
      std::launch::async, [&] { return clock.wait_until(from_unix_ms(900), std::stop_token()); });
  clock.sleep_until(from_unix_ms(900));
  ASSERT_EQ(by_sleep.wait_for(kBound), std::future_status::ready);
  EXPECT_TRUE(by_sleep.get());
}

TEST(ManualClockTest, WaitUntilReturnsFalseWhenStopped) {
  ManualClock clock(from_unix_ms(0));
  std::stop_source stop;
  auto waiter = std::async(std::launch::async,
                           [&] { return clock.wait_until(from_unix_ms(5000), stop.get_token()); });
  stop.request_stop();
  ASSERT_EQ(waiter.wait_for(kBound), std::future_status::ready);
  EXPECT_FALSE(waiter.get());
  EXPECT_EQ(to_unix_ms(clock.now()), 0);
}

TEST(ManualClockTest, AlreadyStoppedTokenReturnsFalseBeforeTheDeadline) {
  ManualClock clock(from_unix_ms(0));
  std::stop_source stop;
  stop.request_stop();
  EXPECT_FALSE(clock.wait_until(from_unix_ms(1), stop.get_token()));
}

TEST(ManualClockTest, BackoffJumpsToTheDeadlineUnlessAlreadyStopped) {
  ManualClock clock(from_unix_ms(0));
  std::stop_source stop;
  EXPECT_TRUE(clock.backoff_until(from_unix_ms(300), stop.get_token()));
  stop.request_stop();
  EXPECT_FALSE(clock.backoff_until(from_unix_ms(900), stop.get_token()));
  EXPECT_EQ(to_unix_ms(clock.now()), 300);
  EXPECT_THAT(clock.sleeps(), ElementsAre(Duration(300ms)));
}

TEST(SystemClockTest, NowFollowsTheSystemClock) {
  const auto before = std::chrono::system_clock::now();
  const TimePoint now = SystemClock().now();
  const auto after = std::chrono::system_clock::now();
  EXPECT_GE(now, before);
  EXPECT_LE(now, after);
}

TEST(SystemClockTest, InstanceIsShared) {
  EXPECT_NE(SystemClock::instance(), nullptr);
  EXPECT_EQ(SystemClock::instance(), SystemClock::instance());
}

TEST(SystemClockTest, PastDeadlineNeitherSleepsNorWaits) {
  SystemClock clock;
  const TimePoint past = clock.now() - 1s;
  clock.sleep_until(past);
  EXPECT_TRUE(clock.wait_until(past, std::stop_token()));
}

TEST(SystemClockTest, WaitUntilWakesWhenStopped) {
  SystemClock clock;
  std::stop_source stop;
  const TimePoint far = clock.now() + std::chrono::hours(24);
  auto waiter =
      std::async(std::launch::async, [&] { return clock.wait_until(far, stop.get_token()); });
  stop.request_stop();
  ASSERT_EQ(waiter.wait_for(kBound), std::future_status::ready);
  EXPECT_FALSE(waiter.get());
}

TEST(SystemClockTest, BackoffEndsWhenStopped) {
  SystemClock clock;
  std::stop_source stop;
  const TimePoint far = clock.now() + std::chrono::hours(24);
  auto backoff =
      std::async(std::launch::async, [&] { return clock.backoff_until(far, stop.get_token()); });
  stop.request_stop();
  ASSERT_EQ(backoff.wait_for(kBound), std::future_status::ready);
  EXPECT_FALSE(backoff.get());
}

TEST(SystemClockTest, WaitUntilFarFutureStillStops) {
  SystemClock clock;
  std::stop_source stop;
  auto waiter = std::async(std::launch::async,
                           [&] { return clock.wait_until(TimePoint::max(), stop.get_token()); });
  stop.request_stop();
  ASSERT_EQ(waiter.wait_for(kBound), std::future_status::ready);
  EXPECT_FALSE(waiter.get());
}

}  // namespace
}  // namespace reactor
