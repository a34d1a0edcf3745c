// RetryPolicy: how many times a step runs and how long it waits in between.
//
//   .retries(exponential_backoff(5, 200ms).max_delay(5s).jitter(100ms))
#pragma once

#include <optional>

#include "reactor/value.hpp"

namespace reactor {

enum class Backoff { kFixed, kLinear, kExponential };

class RetryPolicy {
 public:
  // One attempt, no retry: the default of every step.
  RetryPolicy() = default;
  RetryPolicy(int max_attempts, Backoff backoff, Duration base_delay)
      : max_attempts_(max_attempts), backoff_(backoff), base_delay_(base_delay) {}

  // Caps every delay.
  RetryPolicy& max_delay(Duration d) {
    max_delay_ = d;
    return *this;
  }
  // Adds a uniformly random extra delay in [0, j].
  RetryPolicy& jitter(Duration j) {
    jitter_ = j;
    return *this;
  }

  // Counts the first attempt: 1 means never retry. Must be >= 1.
  int max_attempts() const { return max_attempts_; }
  Backoff backoff() const { return backoff_; }
  Duration base_delay() const { return base_delay_; }
  const std::optional<Duration>& max_delay() const { return max_delay_; }
  Duration jitter() const { return jitter_; }

  // Delay after failed attempt `attempt` (1-based), before jitter:
  // fixed: base; linear: base * attempt; exponential: base * 2^(attempt-1);
  // then capped by max_delay.
  Duration delay_before_jitter(int attempt) const;

 private:
  int max_attempts_ = 1;
  Backoff backoff_ = Backoff::kFixed;
  Duration base_delay_{0};
  std::optional<Duration> max_delay_;
  Duration jitter_{0};
};

inline RetryPolicy fixed_backoff(int max_attempts, Duration delay) {
  return {max_attempts, Backoff::kFixed, delay};
}
inline RetryPolicy linear_backoff(int max_attempts, Duration base) {
  return {max_attempts, Backoff::kLinear, base};
}
inline RetryPolicy exponential_backoff(int max_attempts, Duration base) {
  return {max_attempts, Backoff::kExponential, base};
}

}  // namespace reactor
