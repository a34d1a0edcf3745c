#include "reactor/clock.hpp"

#include <algorithm>
#include <chrono>
#include <thread>

namespace reactor {

bool Clock::backoff_until(TimePoint deadline, std::stop_token stop) {
  if (stop.stop_requested()) return false;
  sleep_until(deadline);
  return true;
}

// ---------------------------------------------------------------------------------------------
// SystemClock
// ---------------------------------------------------------------------------------------------

TimePoint SystemClock::now() const {
  return std::chrono::time_point_cast<Duration>(std::chrono::system_clock::now());
}

void SystemClock::sleep_until(TimePoint deadline) {
  // sleep_until may return early on some platforms (signals); callers rely on now() >= deadline.
  while (now() < deadline) std::this_thread::sleep_until(deadline);
}

bool SystemClock::wait_until(TimePoint deadline, std::stop_token stop) {
  // The stop_token overload of wait_until wakes this waiter when stop is requested, so a step
  // that finishes early releases its timeout watcher at once. Each call has its own
  // mutex/condition: nothing but the stop request ever notifies it.
  std::mutex mu;
  std::condition_variable_any cv;
  std::unique_lock lock(mu);
  // Waiting in slices keeps a far-off deadline (e.g. TimePoint::max()) from overflowing the
  // library's conversion to its internal clock.
  constexpr auto kSlice = std::chrono::hours(1);
  while (!stop.stop_requested()) {
    const TimePoint current = now();
    if (current >= deadline) break;
    const TimePoint until = deadline - current > kSlice ? current + kSlice : deadline;
    cv.wait_until(lock, stop, until, [] { return false; });
  }
  return now() >= deadline;
}

bool SystemClock::backoff_until(TimePoint deadline, std::stop_token stop) {
  return wait_until(deadline, std::move(stop));
}

std::shared_ptr<SystemClock> SystemClock::instance() {
  static const std::shared_ptr<SystemClock> clock = std::make_shared<SystemClock>();
  return clock;
}

// ---------------------------------------------------------------------------------------------
// ManualClock
// ---------------------------------------------------------------------------------------------

ManualClock::ManualClock(TimePoint start) : now_(start) {}

TimePoint ManualClock::now() const {
  std::lock_guard lock(mu_);
  return now_;
}

void ManualClock::sleep_until(TimePoint deadline) {
  {
    std::lock_guard lock(mu_);
    if (deadline > now_) {
      sleeps_.push_back(deadline - now_);
      now_ = deadline;
    } else {
      sleeps_.push_back(Duration::zero());
    }
  }
  // Jumping forward may pass the deadline of a concurrent wait_until().
  changed_.notify_all();
}

bool ManualClock::wait_until(TimePoint deadline, std::stop_token stop) {
  std::unique_lock lock(mu_);
  return changed_.wait(lock, stop, [&] { return now_ >= deadline; });
}

void ManualClock::advance(Duration d) {
  {
    std::lock_guard lock(mu_);
    now_ += d;
  }
  changed_.notify_all();
}

void ManualClock::set(TimePoint t) {
  {
    std::lock_guard lock(mu_);
    now_ = t;
  }
  changed_.notify_all();
}

std::vector<Duration> ManualClock::sleeps() const {
  std::lock_guard lock(mu_);
  return sleeps_;
}

}  // namespace reactor
