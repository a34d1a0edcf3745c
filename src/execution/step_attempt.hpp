// StepAttempts: one attempt of one step of a run — readied (arguments resolved, marked
// started), run (a plain body, a composed child, a map, a unit), and recorded as one outcome
// that releases the steps waiting for it, schedules a retry or fails the run.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "execution/attempt.hpp"
#include "execution/execution.hpp"

namespace reactor {

// The attempts of `driver`'s run.
class StepAttempts : public DriverPart {
 public:
  using DriverPart::DriverPart;

  // Readies step i to start; nullopt: it does not start. Caller holds the lock.
  std::optional<Launch> prepare(std::size_t i, Lock& lock);
  // Attempts a prepared step once, called without the lock; returns holding it, the attempt
  // recorded.
  void execute(Launch& l, Lock& lock);
  void record(std::size_t i, int attempt_no, Attempt a, Lock& lock);
  void record_failure(std::size_t i, int attempt_no, Attempt a, Lock& lock);
  // Which dependents of a finished step to release: an async unit releases the steps that do
  // not read it when it is dispatched, and its readers when it finishes.
  enum class Unblock { kAll, kNonReaders, kReaders };
  void mark_done(std::size_t i, Unblock which = Unblock::kAll);
  bool dependency_met(std::size_t step, std::size_t dep) const;
  void validate_output(const StepSpec& spec, Attempt& a);
  void check_value_limits(const StepSpec& spec, Attempt& a) const;

 private:
  void mock_if_overridden(std::size_t i, Launch& l) const;
  std::optional<ArgumentError> resolve_map_source(const StepSpec& spec, Launch& l);
  Attempt run_plain(const StepSpec& spec, const Args& args, int attempt_no);
  // Whether step i's coordination lets its body start now (ExecutionPort::enter_step); if not,
  // what it came to is recorded (skipped, failed) or it waits, ready again.
  bool pass_gate(std::size_t i, const Launch& l, Lock& lock);
  void skip_unstarted(std::size_t i, Value value);
  void schedule_retry(std::size_t i, int attempt_no, const std::string& message, Lock& lock);
  void fail_at(std::size_t i, int attempt_no, Attempt a);
  void step_hung() const {
    if (ex_.port() != nullptr) ex_.port()->step_hung();
  }
};

}  // namespace reactor
