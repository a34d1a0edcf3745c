// Async units in the driver (docs/async.md): an async_step's or async_reactor's run sent off as
// a job of its own — a fan-out map of one element, to the store — while the run goes on. Steps
// that do not read it run as soon as it is dispatched; its readers wait for it: in a caller, a
// wait the store wakes (async_wait_timeout); in a worker, the run parks (async_park_timeout).
#include "execution/async_unit.hpp"

#include <algorithm>

#include "base/run_errors.hpp"
#include "base/step_machine.hpp"
#include "definition/inputs.hpp"
#include "execution/run_driver.hpp"
#include "records/codec.hpp"

namespace reactor {

namespace {

std::string seconds_of(Duration d) {
  const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(d).count();
  if (ms % 1000 != 0) return std::to_string(ms) + " ms";
  return std::to_string(ms / 1000) + " s";
}

}  // namespace

// Dispatches unit i: its run created and its job enqueued in one write, through the port's
// FanOut. Without one (an in-process engine) the unit runs here, as a composed
// child whose outcome is the unit's. Inputs the unit's reactor rejects fail this step.
Attempt AsyncUnits::run_async(std::size_t i, const Launch& l) {
  const StepSpec& spec = l.spec(def_);
  Value inputs = child_inputs(spec, l.args);
  if (std::vector<FieldError> errors = validate_inputs(*spec.child, inputs); !errors.empty()) {
    Attempt a;
    a.result = Failure(
        "invalid inputs for async unit '" + spec.child->name + "': " + describe(errors), false);
    a.kind = ErrorKind::kInputInvalid;
    a.body_started = false;
    a.validation_errors = std::move(errors);
    return a;
  }
  if (ex_.fan_out() == nullptr) {
    Attempt a = d_.children_.run_compose(spec, l.args);
    if (a.cut_short()) return a;
    if (a.result.outcome() == Outcome::kHalt) {
      a.result = Failure("async unit '" + spec.name + "' halted", false);
    }
    a.came = Attempt::Came::kUnitOutcome;
    return a;
  }
  FanOut::Map map;
  map.map_id = d_.maps_.map_id_of(i);
  map.parent = &run_;
  map.path = d_.path_of(i);
  map.element = spec.child.get();
  map.fresh = !d_.relaunched_.contains(i);
  map.inputs = [&](std::uint32_t first, std::uint32_t, std::vector<Value>& out) {
    if (first == 0) out.push_back(inputs);
    return Status::Ok();
  };
  std::uint32_t total = 0;
  Attempt a;
  if (Status s = ex_.fan_out()->dispatch(map, total); !s.ok()) {
    Lock lock(ex_.mutex());
    ex_.unwinding().stop(s);
    a.came = Attempt::Came::kCutShort;
    return a;
  }
  a.came = Attempt::Came::kDispatched;
  return a;
}

// The unit's outcome, from its one slot — filed by the commit that ended its run, which
// settled its map — or nullopt while it has none. A store that cannot be read stops the tree.
std::optional<Attempt> AsyncUnits::collect_unit(std::size_t i) {
  const std::string map_id = d_.maps_.map_id_of(i);
  Attempt a;
  a.came = Attempt::Came::kUnitOutcome;
  std::vector<MapSlotRow> slot;
  Status s = ex_.fan_out() != nullptr ? ex_.fan_out()->slots(map_id, 0, 1, slot)
                                      : Status::Unavailable("no store to collect a unit from");
  if (s.ok() && slot.empty()) return std::nullopt;
  try {
    if (s.ok()) {
      records::SlotBody body = records::decode_slot_body(slot[0], ex_.max_value_bytes());
      if (slot[0].state == SlotState::kCompleted) {
        a.result = Success(std::move(body.value));
      } else if (slot[0].state == SlotState::kHalted) {
        a.result = Failure("async unit '" + def_.steps[i].name + "' halted", false);
      } else if (body.error) {
        a.result = Failure(body.error->message, false);
        a.child_error = std::move(*body.error);
      } else {  // a unit is never undone
        throw records::RecordError("its slot is filed " + std::string(to_string(slot[0].state)));
      }
    }
  } catch (const std::exception& e) {
    s = Status::Corruption("async unit " + map_id + ": unreadable slot: " + e.what());
  }
  if (!s.ok()) {
    Lock lock(ex_.mutex());
    ex_.unwinding().stop(s);
    a.came = Attempt::Came::kCutShort;
  }
  return a;
}

// Unit i is dispatched: the steps that do not read it go on, and so may the hand-off.
void AsyncUnits::record_dispatch(std::size_t i, int attempt_no, Lock& lock) {
  d_.attempts_.mark_done(i, StepAttempts::Unblock::kNonReaders);
  (void)d_.hands_off(i, HandOff::Kind::kAfter);
  if (ex_.observers().empty()) return;
  const std::string unit_run = element_run_id(d_.maps_.map_id_of(i), 0);
  lock.unlock();
  ex_.observers().notify("async_dispatch", [&](Observer& o) {
    o.on_async_dispatch(d_.event(i, attempt_no), unit_run);
  });
  lock.lock();
}

// Unit i finished: completed with its value, or failed — rolled back by itself, a failure of
// the run only for a step that reads it (failed_unit_read_by). Its readers go on.
void AsyncUnits::record_unit(std::size_t i, int attempt_no, Attempt a, Lock& lock) {
  StepRecord& rec = run_.steps[i];
  const bool was_dispatched = d_.dispatched_.erase(i) > 0 || rec.status == StepStatus::kDispatched;
  const std::int64_t now = ex_.now_ms();
  rec.finished_at_ms = now;
  const bool ok = a.result.ok();
  if (ok) {
    advance(rec, StepEvent::kSucceed);
    rec.completion_seq = run_.next_completion_seq++;
    rec.result = std::move(a.result).value();
  } else {
    advance(rec, StepEvent::kUnitFail);
    rec.error = a.result.message();
    RunError e = a.child_error ? *a.child_error : RunError{};
    if (!a.child_error) e.message = rec.error;
    rec.result = Value(e);
  }
  ex_.trace(TraceType::kRun, d_.path_of(i), attempt_no, ok ? "success" : "failure",
            ok ? "" : rec.error, now);
  d_.attempts_.mark_done(
      i, was_dispatched ? StepAttempts::Unblock::kReaders : StepAttempts::Unblock::kAll);
  if (!was_dispatched) (void)d_.hands_off(i, HandOff::Kind::kAfter);
  // From the store, the outcome is already durable in the unit's slot: its copy here rides on
  // the next commit (the reader's), and a crash before it reads the slot again. A resume then
  // costs the reader one commit, not two.
  ex_.touch_step(run_, i, /*derived=*/ex_.fan_out() != nullptr);
  ex_.touch_header(run_);
  if (ex_.observers().empty()) return;
  const std::string message = rec.error;
  lock.unlock();
  if (ok) {
    ex_.observers().notify("step_complete", [&](Observer& o) {
      o.on_step_complete(d_.event(i, attempt_no), Outcome::kSuccess);
    });
  } else {
    ex_.observers().notify("step_fail",
                           [&](Observer& o) { o.on_step_fail(d_.event(i, attempt_no), message); });
  }
  lock.lock();
}

// Step i reads an async unit that failed: its attempt, failed with that unit's failure.
std::optional<Attempt> AsyncUnits::failed_unit_read_by(std::size_t i) const {
  for (std::size_t u : def_.steps[i].dependencies) {
    if (run_.steps[u].status != StepStatus::kUnitFailed || !reads_result_of(def_, i, u)) continue;
    Attempt a;
    a.result = Failure("async unit '" + d_.path_of(u) + "' failed: " + run_.steps[u].error, false);
    a.kind = ErrorKind::kAsyncUnitFailed;
    a.body_started = false;
    return a;
  }
  return std::nullopt;
}

// Whether a step that has not started reads unit `unit`.
bool AsyncUnits::readers_waiting(std::size_t unit) const {
  for (std::size_t d : def_.steps[unit].dependents) {
    if (run_.steps[d].status == StepStatus::kPending && reads_result_of(def_, d, unit)) return true;
  }
  return false;
}

// Whether the run waits for runs of its own: a fan-out map always (its elements are rolled back
// with it), an async unit unless the run is failing or halting (a unit rolls itself back).
bool AsyncUnits::awaits_children() const {
  return std::any_of(d_.dispatched_.begin(), d_.dispatched_.end(), [&](std::size_t i) {
    return def_.steps[i].kind != StepKind::kAsync || (!d_.failing_ && !d_.halting_);
  });
}

// When the readers of unit `unit` stop waiting: a caller's wait ends async_wait_timeout after it
// began; a parked run's, async_park_timeout after the unit's dispatch. nullopt: not yet known.
std::optional<std::int64_t> AsyncUnits::read_deadline(std::size_t unit) const {
  if (def_.steps[unit].kind != StepKind::kAsync || !readers_waiting(unit)) return std::nullopt;
  if (caller_waits()) return d_.caller_wait_until_;
  return run_.steps[unit].started_at_ms +
         std::chrono::duration_cast<std::chrono::milliseconds>(unit_wait().park_for).count();
}

FanOut::UnitWait AsyncUnits::unit_wait() const {
  return ex_.fan_out() != nullptr ? ex_.fan_out()->unit_wait() : FanOut::UnitWait{};
}

bool AsyncUnits::caller_waits() const { return unit_wait().block_for.has_value(); }

// The readers of a unit still running past their deadline fail, typed, naming it: the run rolls
// back (without waiting for the unit). True when one did.
bool AsyncUnits::fail_overdue_readers(Lock& lock) {
  const std::int64_t now = ex_.now_ms();
  for (std::size_t u : d_.dispatched_) {
    std::optional<std::int64_t> until = read_deadline(u);
    if (!until || now < *until) continue;
    // Asked only now: how a unit's readers wait may cost a read of the store (DurableFanOut).
    const FanOut::UnitWait wait = unit_wait();
    const bool caller = wait.block_for.has_value();
    const std::string why = caller ? "async unit '" + d_.path_of(u) + "' did not finish within " +
                                         seconds_of(*wait.block_for)
                                   : "async unit '" + d_.path_of(u) + "' did not finish within " +
                                         seconds_of(wait.park_for) + " of its dispatch";
    for (std::size_t d : def_.steps[u].dependents) {
      if (run_.steps[d].status != StepStatus::kPending || !reads_result_of(def_, d, u)) continue;
      Attempt a;
      a.result = Failure(why, false);
      a.kind = caller ? ErrorKind::kAsyncWaitTimeout : ErrorKind::kAsyncParkTimeout;
      a.body_started = false;
      d_.attempts_.record_failure(d, run_.steps[d].attempts, std::move(a), lock);
    }
    return true;
  }
  return false;
}

// A caller with nothing to run but async units waits for one — a step's unit first — woken by
// the store, until async_wait_timeout since it began waiting; then the run is handed back
// (wait_for_maps) for a worker to go on with. True: a unit may have finished; look again.
bool AsyncUnits::wait_for_units(Lock& lock) {
  const std::optional<Duration> block_for = unit_wait().block_for;
  if (!block_for) return false;
  std::optional<std::size_t> unit;
  for (std::size_t i : d_.dispatched_) {
    if (def_.steps[i].kind != StepKind::kAsync) continue;
    if (!unit || (readers_waiting(i) && !readers_waiting(*unit))) unit = i;
  }
  if (!unit) return false;
  const std::int64_t now = ex_.now_ms();
  if (!d_.caller_wait_until_) {
    d_.caller_wait_until_ =
        now + std::chrono::duration_cast<std::chrono::milliseconds>(*block_for).count();
  }
  if (now >= *d_.caller_wait_until_) return false;
  const std::string map_id = d_.maps_.map_id_of(*unit);
  bool settled = false;
  lock.unlock();
  Status s = ex_.fan_out()->wait_for_settle(
      map_id, std::chrono::milliseconds(*d_.caller_wait_until_ - now), settled);
  lock.lock();
  if (!s.ok()) {
    ex_.unwinding().stop(s);
    return false;
  }
  return true;
}

}  // namespace reactor
