#include "execution/interrupts.hpp"

#include <limits>

#include "base/step_machine.hpp"
#include "execution/argument_resolver.hpp"
#include "execution/run_driver.hpp"
#include "execution/step_invoker.hpp"

namespace reactor {

void Interrupts::reach(std::size_t i, Lock& lock) {
  const StepSpec& spec = def_.steps[i];
  const std::string& path = d_.path_of(i);
  Args args;
  std::string correlation;
  std::optional<Attempt> failed;
  lock.unlock();
  if (auto unresolved = resolve_arguments(spec, run_, nullptr, args)) {
    failed = Attempt::unresolved(*unresolved);
  } else if (spec.interrupt->correlation) {
    // User code: what it throws fails the step as a body's would.
    auto correlate = [&](std::stop_token) {
      return Success(Value(spec.interrupt->correlation(args)));
    };
    StepResult r = call_user_code(correlate);
    if (r.ok()) {
      correlation = r.value().get<std::string>();
    } else {
      failed = Attempt::unresolved(ArgumentError{"correlation_id: " + r.message(), {}});
    }
  }
  lock.lock();
  if (ex_.unwinding().stopped()) return;
  std::int64_t deadline = 0;
  if (!failed) failed = deadline_of(i, deadline);
  if (!failed && !correlation.empty() && ex_.port() != nullptr) {
    Status held = ex_.port()->hold_correlation(correlation, ex_.root().id, path, deadline);
    if (!held.ok()) failed = Attempt::unresolved(ArgumentError{held.message(), {}});
  }
  if (failed) {
    d_.attempts_.record_failure(i, 0, std::move(*failed), lock);
    return;
  }
  StepRecord& rec = run_.steps[i];
  advance(rec, StepEvent::kPause);
  rec.correlation_id = std::move(correlation);
  rec.deadline_ms = deadline;
  rec.started_at_ms = ex_.now_ms();
  ex_.trace(TraceType::kInterrupt, path, 0, "paused", rec.correlation_id);
  ex_.touch_step(run_, i);
  paused_.insert(i);
}

// When the interrupt's wait ends (0: never): its timeout from now, fixed or read in seconds.
std::optional<Attempt> Interrupts::deadline_of(std::size_t i, std::int64_t& deadline_ms) {
  const InterruptSpec& in = *def_.steps[i].interrupt;
  if (in.timeout) {
    deadline_ms =
        ex_.now_ms() + std::chrono::duration_cast<std::chrono::milliseconds>(*in.timeout).count();
    return std::nullopt;
  }
  if (!in.timeout_seconds) return std::nullopt;
  Value seconds;
  if (auto err = resolve_source(*in.timeout_seconds, run_, def_, seconds)) {
    err->message = "timeout: " + err->message;
    return Attempt::unresolved(*err);
  }
  if (!seconds.is_number() || seconds.get<double>() <= 0 ||
      seconds.get<double>() > static_cast<double>(std::numeric_limits<std::int32_t>::max())) {
    return Attempt::unresolved(
        ArgumentError{"timeout: " + seconds.dump() + " is not a positive number of seconds", {}});
  }
  deadline_ms = ex_.now_ms() + static_cast<std::int64_t>(seconds.get<double>() * 1000.0);
  return std::nullopt;
}

std::optional<std::string> interrupt_expired(const StepSpec& spec, const StepRecord& rec,
                                             std::int64_t now_ms) {
  if (rec.deadline_ms > 0 && now_ms >= rec.deadline_ms) {
    return "interrupt '" + spec.name + "' timed out: no payload came before its deadline";
  }
  const int max = spec.interrupt->max_attempts;
  if (max > 1 && rec.attempts >= max) {
    return "interrupt '" + spec.name + "' refused " + std::to_string(rec.attempts) +
           " invalid payloads (max_attempts " + std::to_string(max) + ")";
  }
  return std::nullopt;
}

std::optional<Attempt> Interrupts::why_it_fails(std::size_t i) const {
  const StepRecord& rec = run_.steps[i];
  std::optional<std::string> why = interrupt_expired(def_.steps[i], rec, ex_.now_ms());
  if (!why) return std::nullopt;
  Attempt a;
  const bool timed_out = rec.deadline_ms > 0 && ex_.now_ms() >= rec.deadline_ms;
  a.result = Failure(*why, false);
  a.kind = timed_out ? ErrorKind::kTimeout : ErrorKind::kInputInvalid;
  a.body_started = false;  // nothing of the step ran: nothing to compensate
  return a;
}

bool Interrupts::fail_or_pause(Lock& lock) {
  std::int64_t wake = 0;
  for (auto it = paused_.begin(); it != paused_.end();) {
    const std::size_t i = *it;
    if (run_.steps[i].status != StepStatus::kPaused) {
      it = paused_.erase(it);
      continue;
    }
    if (std::optional<Attempt> a = why_it_fails(i)) {
      paused_.erase(it);
      ex_.trace(TraceType::kInterrupt, d_.path_of(i), run_.steps[i].attempts,
                a->kind == ErrorKind::kTimeout ? "timed_out" : "invalid_payload",
                a->result.message());
      d_.attempts_.record_failure(i, run_.steps[i].attempts, std::move(*a), lock);
      return true;
    }
    const StepRecord& rec = run_.steps[i];
    if (rec.deadline_ms > 0 && def_.steps[i].interrupt->timeout_mode == TimeoutMode::kActive &&
        (wake == 0 || rec.deadline_ms < wake)) {
      wake = rec.deadline_ms;
    }
    ++it;
  }
  if (paused_.empty()) return false;
  ex_.unwinding().pause(wake);
  return false;
}

void complete_interrupt(Run& root, Run& run, StepRecord& rec, const std::string& path,
                        Value payload, std::int64_t now_ms) {
  advance(rec, StepEvent::kSucceed);
  rec.result = std::move(payload);
  rec.completion_seq = run.next_completion_seq++;
  rec.finished_at_ms = now_ms;
  TraceEvent e;
  e.type = TraceType::kInterrupt;
  e.step = path;
  e.outcome = "resumed";
  e.at_ms = now_ms;
  root.trace.push_back(std::move(e));
}

}  // namespace reactor
