// Interrupts: steps whose result is a payload from outside (Builder::interrupt). Reaching one
// marks it paused with its correlation id and deadline; once nothing else may run, the run
// pauses (Unwinding::pause) — or, past a deadline or out of attempts, the interrupt fails and
// the run rolls back. A payload completes the step outside any execution
// (complete_interrupt, claimed by the durable layer); the next execution finds it completed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <set>
#include <string>

#include "execution/attempt.hpp"
#include "execution/execution.hpp"

namespace reactor {

class Interrupts : public DriverPart {
 public:
  using DriverPart::DriverPart;

  // Step i, an interrupt, is ready: it is marked paused (its arguments resolved, its correlation
  // id held, its deadline set), or fails when one of those cannot be. Caller holds the lock.
  void reach(std::size_t i, Lock& lock);
  // An interrupt the records hold as paused (the schedule's rebuild).
  void note_paused(std::size_t i) { paused_.insert(i); }
  bool any_paused() const { return !paused_.empty(); }
  // Nothing else may run. True when an interrupt past its deadline, or out of attempts, was
  // failed (the run now fails); otherwise the run is to pause until its earliest active deadline
  // (Unwinding::pause), and false.
  bool fail_or_pause(Lock& lock);

 private:
  std::optional<Attempt> deadline_of(std::size_t i, std::int64_t& deadline_ms);
  std::optional<Attempt> why_it_fails(std::size_t i) const;

  std::set<std::size_t> paused_;
};

// Why a payload cannot complete the interrupt `rec` of `spec` now: past its deadline (when
// `now_ms` is past it) or out of attempts. nullopt: it may.
std::optional<std::string> interrupt_expired(const StepSpec& spec, const StepRecord& rec,
                                             std::int64_t now_ms);

// Completes the paused interrupt `rec` (step `path` of `run`) with `payload`, as a valid resume
// does: its result, its completion order, and "resumed" in `root`'s trace. The caller holds
// whatever makes it the only writer of the run (the durable layer: its lease).
void complete_interrupt(Run& root, Run& run, StepRecord& rec, const std::string& path,
                        Value payload, std::int64_t now_ms);

}  // namespace reactor
