// Sweeper: finds runs that nobody is executing and hands them back to the
// queue — runs `running` or `rolling_back` whose lease lapsed (their worker
// died), runs `enqueued` whose job is gone, and runs `waiting` with a wake
// time and no job (woken then) — and purges expired terminal runs. A run
// waiting only for an event has no job on purpose: the commit that delivers
// the event enqueues it. Every worker process runs one by itself; a claim on the current
// interval's window makes exactly one process sweep per interval.
#pragma once

#include <functional>
#include <string>

#include "reactor/backend.hpp"

namespace reactor {

// The key of the claim on the window of `interval` that `at` falls in.
std::string sweeper_lease_key(TimePoint at, Duration interval);

struct SweepReport {
  bool swept = false;  // false: another process holds this window
  std::size_t requeued = 0;
  std::size_t purged = 0;
  Status status;
};

class Sweeper {
 public:
  // `queue_for` names the queue of a reactor's jobs.
  Sweeper(Backend& backend, Clock& clock, Duration interval, std::size_t limit,
          std::function<std::string(const std::string& reactor)> queue_for);

  // Sweeps if this process wins the claim of the current window.
  SweepReport sweep_if_due(const std::string& owner);
  // Sweeps now, without a window claim (`reactor sweep`).
  SweepReport sweep_now();

  Duration interval() const { return interval_; }

 private:
  Backend& backend_;
  Clock& clock_;
  Duration interval_;
  std::size_t limit_;
  std::function<std::string(const std::string&)> queue_for_;
};

}  // namespace reactor
