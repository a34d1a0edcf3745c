#include <gtest/gtest.h>

#include <chrono>

#include "reactor/retry_policy.hpp"

namespace reactor {
namespace {

using namespace std::chrono_literals;

TEST(RetryPolicyTest, DefaultIsOneAttemptWithoutDelay) {
  RetryPolicy p;
  EXPECT_EQ(p.max_attempts(), 1);
  EXPECT_EQ(p.backoff(), Backoff::kFixed);
  EXPECT_EQ(p.delay_before_jitter(1), Duration::zero());
  EXPECT_FALSE(p.max_delay().has_value());
  EXPECT_EQ(p.jitter(), Duration::zero());
}

TEST(RetryPolicyTest, FixedWaitsTheSameEveryTime) {
  const RetryPolicy p = fixed_backoff(5, 300ms);
  EXPECT_EQ(p.max_attempts(), 5);
  EXPECT_EQ(p.delay_before_jitter(1), Duration(300ms));
  EXPECT_EQ(p.delay_before_jitter(4), Duration(300ms));
}

TEST(RetryPolicyTest, LinearGrowsWithTheAttempt) {
  const RetryPolicy p = linear_backoff(5, 100ms);
  EXPECT_EQ(p.delay_before_jitter(1), Duration(100ms));
  EXPECT_EQ(p.delay_before_jitter(2), Duration(200ms));
  EXPECT_EQ(p.delay_before_jitter(5), Duration(500ms));
}

TEST(RetryPolicyTest, ExponentialDoubles) {
  const RetryPolicy p = exponential_backoff(6, 200ms);
  EXPECT_EQ(p.delay_before_jitter(1), Duration(200ms));
  EXPECT_EQ(p.delay_before_jitter(2), Duration(400ms));
  EXPECT_EQ(p.delay_before_jitter(3), Duration(800ms));
  EXPECT_EQ(p.delay_before_jitter(5), Duration(3200ms));
}

TEST(RetryPolicyTest, MaxDelayCapsEveryKind) {
  EXPECT_EQ(exponential_backoff(10, 1s).max_delay(5s).delay_before_jitter(4), Duration(5s));
  EXPECT_EQ(exponential_backoff(10, 1s).max_delay(5s).delay_before_jitter(2), Duration(2s));
  EXPECT_EQ(linear_backoff(10, 1s).max_delay(3s).delay_before_jitter(7), Duration(3s));
  EXPECT_EQ(fixed_backoff(10, 10s).max_delay(1s).delay_before_jitter(1), Duration(1s));
}

TEST(RetryPolicyTest, HugeAttemptsSaturateInsteadOfOverflowing) {
  const RetryPolicy exp = exponential_backoff(1000, 200ms);
  EXPECT_EQ(exp.delay_before_jitter(40), Duration::max());
  EXPECT_EQ(exp.delay_before_jitter(64), Duration::max());
  EXPECT_EQ(exp.delay_before_jitter(1000), Duration::max());
  EXPECT_EQ(RetryPolicy(exp).max_delay(30s).delay_before_jitter(1000), Duration(30s));
  EXPECT_EQ(linear_backoff(2'000'000'000, Duration::max() / 2).delay_before_jitter(3),
            Duration::max());
  EXPECT_EQ(exponential_backoff(100, Duration::zero()).delay_before_jitter(100), Duration::zero());
}

TEST(RetryPolicyTest, DelaysAreMonotonic) {
  const RetryPolicy p = exponential_backoff(100, 1ms);
  for (int attempt = 1; attempt < 100; ++attempt) {
    EXPECT_LE(p.delay_before_jitter(attempt), p.delay_before_jitter(attempt + 1)) << attempt;
    EXPECT_GT(p.delay_before_jitter(attempt), Duration::zero()) << attempt;
  }
}

TEST(RetryPolicyTest, JitterIsKeptForTheCaller) {
  const RetryPolicy p = fixed_backoff(3, 1s).jitter(250ms);
  EXPECT_EQ(p.jitter(), Duration(250ms));
  EXPECT_EQ(p.delay_before_jitter(2), Duration(1s));
}

}  // namespace
}  // namespace reactor
