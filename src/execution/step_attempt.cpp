// One attempt of one step, and how its outcome is recorded.
#include "execution/step_attempt.hpp"

#include <chrono>
#include <optional>
#include <vector>

#include "base/step_machine.hpp"
#include "definition/coordination_of.hpp"
#include "definition/inputs.hpp"
#include "execution/argument_resolver.hpp"
#include "execution/run_driver.hpp"
#include "execution/step_invoker.hpp"
#include "reactor/limits.hpp"
#include "records/value_limits.hpp"

namespace reactor {

// Readies step i to start (the caller holds the lock; it is released around
// the arguments' transforms, user code): its arguments (a map's source) are
// resolved — one that cannot be is recorded as such, the body never started
// and no attempt counted —, the port allows a body to start, and the attempt
// is counted and marked as started by this execution (written before it
// starts, with the rest of the burst). nullopt: the step does not start.
std::optional<Launch> StepAttempts::prepare(std::size_t i, Lock& lock) {
  Launch l;
  l.i = i;
  l.args = std::move(d_.spare_args_);  // empty: only its storage is reused
  mock_if_overridden(i, l);
  const StepSpec& spec = l.spec(def_);
  if (std::optional<Attempt> failed = d_.units_.failed_unit_read_by(i)) {
    // It reads an async unit that failed: that failure is its own, and it never starts.
    record_failure(i, run_.steps[i].attempts, std::move(*failed), lock);
    return std::nullopt;
  }
  lock.unlock();
  std::optional<ArgumentError> unresolved = spec.kind == StepKind::kMap
                                                ? resolve_map_source(spec, l)
                                                : resolve_arguments(spec, run_, nullptr, l.args);
  lock.lock();
  if (ex_.unwinding().stopped()) return std::nullopt;
  if (unresolved) {
    record_failure(i, run_.steps[i].attempts, Attempt::unresolved(*unresolved), lock);
    return std::nullopt;
  }
  if (!pass_gate(i, l, lock)) return std::nullopt;
  if (!ex_.may_start_body()) return std::nullopt;
  StepRecord& rec = run_.steps[i];
  advance(rec, StepEvent::kStart);
  l.attempt_no = ++rec.attempts;
  rec.started_at_ms = ex_.now_ms();
  ex_.touch_mark(run_, i);
  return l;
}

bool StepAttempts::pass_gate(std::size_t i, const Launch& l, Lock& lock) {
  const StepSpec& spec = l.spec(def_);
  ExecutionPort* port = ex_.port();
  if (port == nullptr || step_coordination(spec).empty() || l.mocked) return true;
  if (port->gate_waits_for_write()) {
    // An earlier step's holds are given back first: taken again now, they would be its.
    ex_.checkpoint(/*force=*/true);
    if (ex_.unwinding().stopped()) return false;
  }
  const StepAsk ask{run_, i, d_.path_of(i), spec, l.args, run_.steps[i].attempts == 0};
  lock.unlock();
  StepGate gate = port->enter_step(ask);
  lock.lock();
  if (ex_.unwinding().stopped()) return false;
  switch (gate.verdict) {
    case StepGate::Verdict::kGo:
      return true;
    case StepGate::Verdict::kWait:
      d_.ready_.push(i);  // ready for whoever goes on with the run
      return false;
    case StepGate::Verdict::kSkip:
      skip_unstarted(i, std::move(gate.value));
      return false;
    case StepGate::Verdict::kFail: {
      Attempt a;
      a.result = Failure(gate.message, false);
      a.kind = gate.kind;
      a.body_started = false;
      record_failure(i, run_.steps[i].attempts, std::move(a), lock);
      return false;
    }
  }
  return false;
}

// Its period is done: the step is skipped, as if it had returned Skipped(value), its body not
// started.
void StepAttempts::skip_unstarted(std::size_t i, Value value) {
  StepRecord& rec = run_.steps[i];
  advance(rec, StepEvent::kSkip);
  rec.finished_at_ms = ex_.now_ms();
  rec.result = std::move(value);
  ex_.trace(TraceType::kRun, d_.path_of(i), 0, "skipped", {}, rec.finished_at_ms);
  mark_done(i);
  ex_.touch_step(run_, i);
}

// Attempts a prepared step (once; a failure with attempts left is recorded as
// a scheduled retry and picked up again by the scheduler). Called without the
// lock; returns holding it, the attempt recorded under it.
void StepAttempts::execute(Launch& l, Lock& lock) {
  const std::size_t i = l.i;
  const StepSpec& spec = l.spec(def_);
  ex_.observers().notify("step_start",
                         [&](Observer& o) { o.on_step_start(d_.event(i, l.attempt_no)); });
  Attempt a = spec.kind == StepKind::kMap       ? d_.children_.run_map(i, l)
              : spec.kind == StepKind::kCompose ? d_.children_.run_compose(spec, l.args)
              : spec.kind == StepKind::kAsync   ? d_.units_.run_async(i, l)
                                                : run_plain(spec, l.args, l.attempt_no);
  lock.lock();
  if (a.cut_short() || ex_.unwinding().stopped()) return;
  record(i, l.attempt_no, std::move(a), lock);
}

// A test's override of step i makes it a plain step (a mocked map runs once:
// its element() arguments have no value).
void StepAttempts::mock_if_overridden(std::size_t i, Launch& l) const {
  const RunFn* mock = ex_.override_for(d_.path_of(i));
  if (mock == nullptr) return;
  StepSpec& mocked = l.mocked.emplace(def_.steps[i]);
  if (mocked.kind == StepKind::kAsync && mocked.own_body) {
    // An async_step stays a unit: the mock is its body.
    auto unit = std::make_shared<DefinitionData>(*mocked.child);
    unit->steps[0].run = *mock;
    unit->steps[0].factory = nullptr;
    mocked.child = std::move(unit);
    return;
  }
  mocked.kind = StepKind::kStep;
  mocked.run = *mock;
  mocked.factory = nullptr;
  std::erase_if(mocked.arguments, [](const ArgumentSpec& arg) {
    return arg.source.kind() == ArgumentSource::Kind::kElement;
  });
}

// A map's items (its source()), or for source_pages() the arguments its pages are asked with.
std::optional<ArgumentError> StepAttempts::resolve_map_source(const StepSpec& spec, Launch& l) {
  if (!spec.map_source) {
    StepSpec without_element = spec;
    std::erase_if(without_element.arguments, [](const ArgumentSpec& arg) {
      return arg.source.kind() == ArgumentSource::Kind::kElement;
    });
    return resolve_arguments(without_element, run_, nullptr, l.args);
  }
  Value& items = l.items;
  if (auto err = resolve_source(*spec.map_source, run_, def_, items)) {
    err->message = "source: " + err->message;
    return err;
  }
  if (!items.is_array()) {
    return ArgumentError{"source of map '" + spec.name + "' is not an array", {}};
  }
  if (items.size() > kMaxMapElements) {
    return ArgumentError{"source of map '" + spec.name + "' has " + std::to_string(items.size()) +
                             " elements, more than " + std::to_string(kMaxMapElements),
                         {}};
  }
  return std::nullopt;
}

Attempt StepAttempts::run_plain(const StepSpec& spec, const Args& args, int attempt_no) {
  const std::string& path = d_.path_of(spec.index);
  auto body = [&](std::stop_token stop) {
    StepContext ctx(ex_.origin(), def_.name, path, attempt_no, stop, ex_.clock());
    if (spec.factory) return spec.factory()->run(args, ctx);
    return spec.run(args, ctx);
  };
  Invocation inv = spec.timeout ? invoke_user_code(
                                      body, spec.timeout, ex_.clock(), [this] { step_hung(); },
                                      ex_.options().hung_step_grace)
                                : Invocation{call_user_code(body), false};
  Attempt a;
  a.kind = inv.timed_out ? ErrorKind::kTimeout : ErrorKind::kStepFailed;
  a.result = std::move(inv.result);
  check_value_limits(spec, a);
  validate_output(spec, a);
  return a;
}

// A value past the limits (reactor/limits.hpp) could be neither stored nor read back: the
// step fails, not retried (it would return the same), and is compensated (its side effect
// exists).
void StepAttempts::check_value_limits(const StepSpec& spec, Attempt& a) const {
  const records::ValueSize size = records::measure_value(a.result.value(), ex_.max_value_bytes());
  if (size.within_limits()) return;  // the message is built only for a refusal
  a.result = Failure(records::limit_error(size, ex_.max_value_bytes(),
                                          "the value step '" + spec.name + "' returned"),
                     false);
  a.kind = ErrorKind::kValueTooLarge;
}

// An output that fails its schema is a failure of a step whose side effect
// exists: not retried, but compensated.
void StepAttempts::validate_output(const StepSpec& spec, Attempt& a) {
  if (!spec.output_schema || !a.result.ok()) return;
  std::vector<FieldError> errors = spec.output_schema->validate(spec.name, a.result.value());
  if (errors.empty()) return;
  a.result = Failure("invalid output: " + describe(errors), false);
  a.kind = ErrorKind::kOutputInvalid;
  a.validation_errors = std::move(errors);
}

void StepAttempts::mark_done(std::size_t i, Unblock which) {
  for (auto d : def_.steps[i].dependents) {
    if (which != Unblock::kAll && reads_result_of(def_, d, i) != (which == Unblock::kReaders)) {
      continue;
    }
    if (--d_.waiting_on_[d] == 0 && run_.steps[d].status == StepStatus::kPending) d_.ready_.push(d);
  }
}

// Whether `step` no longer waits for its dependency `dep`: a step finished, or an async unit
// that `step` does not read dispatched (one it reads: finished, whatever its outcome).
bool StepAttempts::dependency_met(std::size_t step, std::size_t dep) const {
  const StepStatus st = run_.steps[dep].status;
  if (def_.steps[dep].kind == StepKind::kAsync) {
    if (st == StepStatus::kCompleted || st == StepStatus::kUnitFailed) return true;
    return st == StepStatus::kDispatched && !reads_result_of(def_, step, dep);
  }
  return st == StepStatus::kCompleted || st == StepStatus::kSkipped;
}

void StepAttempts::record(std::size_t i, int attempt_no, Attempt a, Lock& lock) {
  StepRecord& rec = run_.steps[i];
  const std::int64_t now = ex_.now_ms();
  const std::string& path = d_.path_of(i);
  if (a.came == Attempt::Came::kUnitOutcome) {
    d_.units_.record_unit(i, attempt_no, std::move(a), lock);
    return;
  }
  if (a.came == Attempt::Came::kDispatched) {
    // Its elements run as jobs of their own; it is collected when the map settles.
    advance(rec, StepEvent::kDispatch);
    d_.dispatched_.insert(i);
    ex_.trace(TraceType::kRun, path, attempt_no, "dispatched", {}, now);
    ex_.touch_step(run_, i);
    if (def_.steps[i].kind == StepKind::kAsync) d_.units_.record_dispatch(i, attempt_no, lock);
    return;
  }
  rec.finished_at_ms = now;
  const Outcome outcome = a.result.outcome();
  switch (outcome) {
    case Outcome::kSuccess:
      advance(rec, StepEvent::kSucceed);
      rec.completion_seq = run_.next_completion_seq++;
      break;
    case Outcome::kSkipped:
      advance(rec, StepEvent::kSkip);
      break;
    case Outcome::kHalt:
      advance(rec, StepEvent::kHalt);
      rec.resumable = a.result.resumable();
      d_.halting_ = true;
      break;
    case Outcome::kFailure:
      record_failure(i, attempt_no, std::move(a), lock);
      return;
  }
  rec.result = std::move(a.result).value();
  ex_.trace(TraceType::kRun, path, attempt_no, to_string(outcome), {}, now);
  if (outcome != Outcome::kHalt) mark_done(i);
  if (outcome != Outcome::kHalt) (void)d_.hands_off(i, HandOff::Kind::kAfter);  // a Halt halts
  ex_.touch_step(run_, i);
  ex_.touch_header(run_);  // its completion counter moved
  // Committed before the next step starts (RunDriver::save_before_next_step)
  // or with the run's end: the last step and the terminal state are one write.
  if (ex_.observers().empty()) return;
  lock.unlock();
  ex_.observers().notify(
      "step_complete", [&](Observer& o) { o.on_step_complete(d_.event(i, attempt_no), outcome); });
  lock.lock();
}

// A failed attempt: schedule the next one, or make the failure final and
// start the rollback. Caller holds the lock; it is released around observers.
// Step i's attempt failed and may be tried again: it waits for its retry's due time, its
// backoff's jitter drawn now.
void StepAttempts::schedule_retry(std::size_t i, int attempt_no, const std::string& message,
                                  Lock& lock) {
  const StepSpec& spec = def_.steps[i];
  StepRecord& rec = run_.steps[i];
  Duration delay = spec.retry.delay_before_jitter(attempt_no) + ex_.jitter(spec.retry.jitter());
  advance(rec, StepEvent::kRetryLater);
  rec.retry_at_ms = to_unix_ms(ex_.clock().now() + delay);
  d_.retry_waiting_.insert(i);
  ex_.touch_step(run_, i);
  if (ex_.observers().empty()) return;
  lock.unlock();
  ex_.observers().notify(
      "step_retry", [&](Observer& o) { o.on_step_retry(d_.event(i, attempt_no), delay, message); });
  lock.lock();
}

// Step i failed for good and is the first to: its error (a child's, or its own) is the run's,
// and the run rolls back once nothing else runs.
void StepAttempts::fail_at(std::size_t i, int attempt_no, Attempt a) {
  d_.failing_ = true;
  run_.failed_step = i;
  if (a.child_error) {
    run_.error = std::move(a.child_error);
  } else {
    RunError e;
    e.kind = a.kind;
    e.step = d_.path_of(i);
    e.reactor = def_.name;
    e.exception_type = a.exception_type.empty() ? a.result.exception_type() : a.exception_type;
    e.message = a.result.message();
    e.details = a.result.value();
    e.attempts = attempt_no;
    e.retryable = a.result.retryable();
    e.validation_errors = std::move(a.validation_errors);
    run_.error = std::move(e);
  }
  run_.error->inputs = redact_inputs(def_, run_.inputs);
  ex_.touch_header(run_);
}

void StepAttempts::record_failure(std::size_t i, int attempt_no, Attempt a, Lock& lock) {
  StepRecord& rec = run_.steps[i];
  const StepSpec& spec = def_.steps[i];
  const std::string message = a.result.message();
  rec.error = message;
  rec.body_started = a.body_started;
  // A step that failed before its body could start is no execution of it: its arguments could
  // not be resolved, or the async unit it reads failed or did not finish in time.
  const bool unresolved = a.kind == ErrorKind::kArgumentResolution;
  const bool not_started = a.kind == ErrorKind::kAsyncUnitFailed ||
                           a.kind == ErrorKind::kAsyncWaitTimeout ||
                           a.kind == ErrorKind::kAsyncParkTimeout;
  if ((unresolved || not_started) && !a.body_started) {
    ex_.trace(TraceType::kUnresolved, d_.path_of(i), attempt_no,
              unresolved ? "failure" : "not_started", message);
  } else if (spec.kind == StepKind::kInterrupt) {
    // Traced by Interrupts as what ended its wait (timed out, too many invalid payloads).
  } else {
    ex_.trace(TraceType::kRun, d_.path_of(i), attempt_no, "failure", message);
  }

  const bool may_retry = !a.child_error && a.result.retryable() && !d_.failing_ && !d_.halting_ &&
                         attempt_no < spec.retry.max_attempts();
  if (may_retry) {
    schedule_retry(i, attempt_no, message, lock);
    return;
  }
  advance(rec, StepEvent::kFail);
  if (!d_.failing_) fail_at(i, attempt_no, std::move(a));
  ex_.touch_step(run_, i);
  if (ex_.observers().empty()) return;
  lock.unlock();
  ex_.observers().notify("step_fail",
                         [&](Observer& o) { o.on_step_fail(d_.event(i, attempt_no), message); });
  lock.lock();
}

}  // namespace reactor
