// Unwinding: why every driver of a run tree stops launching and unwinds — stopped (a write
// refused, a record unreadable), suspended (a retry's backoff, its maps and units), pausing (at
// its interrupts), or leaving
// (a stop request, the reactor's hand-off point). The caller holds the run's lock, but any
// thread may read stopped().
#pragma once

#include <atomic>
#include <cstdint>
#include <optional>
#include <string>

#include "execution/execution_port.hpp"
#include "reactor/status.hpp"

namespace reactor {

class Unwinding {
 public:
  explicit Unwinding(const ExecutionPort* port) : port_(port) {}

  // Stops the whole tree where it is, as a refused write does.
  void stop(const Status& why) {
    stop_reason_ = why;
    stopped_.store(true, std::memory_order_relaxed);
  }
  bool stopped() const { return stopped_.load(std::memory_order_relaxed); }
  const Status& stop_reason() const { return stop_reason_; }

  // Suspends the run instead of waiting for a retry due at `due_ms`
  // (ExecuteOptions::suspend_on_retry_wait).
  void yield_until(std::int64_t due_ms) {
    if (!yield_at_ms_ || due_ms < *yield_at_ms_) yield_at_ms_ = due_ms;
  }
  // Suspends the run until its fan-out maps and units settle (their last run enqueues its
  // resume). `give_up_ms` (0: none): when it is woken anyway, to give up waiting (a parked
  // reader's async_park_timeout).
  void yield_for_children(std::int64_t give_up_ms = 0) {
    yield_for_children_ = true;
    if (give_up_ms != 0 && (children_give_up_ms_ == 0 || give_up_ms < children_give_up_ms_)) {
      children_give_up_ms_ = give_up_ms;
    }
  }
  std::int64_t children_give_up_ms() const { return children_give_up_ms_; }
  bool yielded() const { return yield_at_ms_.has_value() || yield_for_children_; }
  // Pauses the run at its interrupts (nothing else may run): until a payload comes, or
  // `wake_ms` (0: none), an active timeout's deadline.
  void pause(std::int64_t wake_ms) {
    pausing_ = true;
    if (wake_ms != 0 && (pause_wake_ms_ == 0 || wake_ms < pause_wake_ms_)) pause_wake_ms_ = wake_ms;
  }
  bool pausing() const { return pausing_; }
  std::int64_t pause_wake_ms() const { return pause_wake_ms_; }
  const std::optional<std::int64_t>& yield_at_ms() const { return yield_at_ms_; }

  // Whether the run is to be left unfinished: on a stop request (ExecutionPort::stop_requested),
  // or at the reactor's hand-off point (hand_off_at).
  bool leaving() const { return hand_off_ || (port_ != nullptr && port_->stop_requested()); }
  // The root reached its hand-off point at step `path` ("after" or "before" it): no further
  // step starts, and once those in flight are recorded the rest is left to another execution
  // (execute_run).
  void hand_off_at(std::string path, const char* where) {
    if (hand_off_) return;
    hand_off_ = true;
    hand_off_step_ = std::move(path);
    hand_off_where_ = where;
  }
  bool handing_off() const { return hand_off_; }
  const std::string& hand_off_step() const { return hand_off_step_; }
  const char* hand_off_where() const { return hand_off_where_; }

  // Stop launching steps and rollback actions: stopped, yielded, pausing or leaving.
  bool any() const { return stopped() || yielded() || pausing_ || leaving(); }

 private:
  const ExecutionPort* port_;
  std::atomic<bool> stopped_{false};
  Status stop_reason_;
  std::optional<std::int64_t> yield_at_ms_;
  bool yield_for_children_ = false;
  std::int64_t children_give_up_ms_ = 0;
  bool pausing_ = false;
  std::int64_t pause_wake_ms_ = 0;
  bool hand_off_ = false;
  std::string hand_off_step_;
  const char* hand_off_where_ = "";
};

}  // namespace reactor
