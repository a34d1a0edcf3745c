// The injected clock: every wait in the engine (retry backoff, step timeouts,
// lease heartbeats, sweeps) goes through it, so tests never sleep.
#pragma once

#include <condition_variable>
#include <memory>
#include <mutex>
#include <stop_token>
#include <vector>

#include "reactor/value.hpp"

namespace reactor {

class Clock {
 public:
  virtual ~Clock() = default;

  virtual TimePoint now() const = 0;

  // Blocks until now() >= deadline. Used for retry backoff.
  virtual void sleep_until(TimePoint deadline) = 0;

  // Blocks until now() >= deadline or `stop` is requested, whichever comes
  // first. Returns true when the deadline was reached. Used by step timeouts.
  // Thread-safe.
  virtual bool wait_until(TimePoint deadline, std::stop_token stop) = 0;

  // A backoff that gives up when `stop` is requested: true when it ran to the
  // deadline. Used by a retry waiting beside running siblings, which a failing
  // run must not wait out. This default sleeps unless already stopped; a clock
  // that can be woken overrides it. Thread-safe.
  virtual bool backoff_until(TimePoint deadline, std::stop_token stop);
};

// Real time.
class SystemClock final : public Clock {
 public:
  TimePoint now() const override;
  void sleep_until(TimePoint deadline) override;
  bool wait_until(TimePoint deadline, std::stop_token stop) override;
  bool backoff_until(TimePoint deadline, std::stop_token stop) override;

  // A process-wide instance, the default of every Engine.
  static std::shared_ptr<SystemClock> instance();
};

// Time that moves only when told. sleep_until() jumps straight to the deadline
// (and records the wait), so a test of a 30-second backoff takes no time;
// wait_until() blocks until another thread advance()s past the deadline.
// Thread-safe.
class ManualClock final : public Clock {
 public:
  explicit ManualClock(TimePoint start = from_unix_ms(1'700'000'000'000));

  TimePoint now() const override;
  void sleep_until(TimePoint deadline) override;
  bool wait_until(TimePoint deadline, std::stop_token stop) override;

  void advance(Duration d);
  void set(TimePoint t);

  // Every sleep_until() duration, in call order.
  std::vector<Duration> sleeps() const;

 private:
  mutable std::mutex mu_;
  std::condition_variable_any changed_;
  TimePoint now_;
  std::vector<Duration> sleeps_;
};

}  // namespace reactor
