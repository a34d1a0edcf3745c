#include "execution/run_driver.hpp"

#include "base/event_context.hpp"
#include "base/run_errors.hpp"
#include "base/run_machine.hpp"
#include "base/step_machine.hpp"
#include "definition/inputs.hpp"
#include "reactor/ids.hpp"

namespace reactor {

DriverPart::DriverPart(RunDriver& driver)
    : d_(driver), ex_(driver.ex_), def_(driver.def_), run_(driver.run_) {}

RunDriver::RunDriver(Execution& ex, const DefinitionData& def, Run& run)
    : ex_(ex), def_(def), run_(run) {
  if (!run_.path.empty()) {
    paths_.reserve(def_.steps.size());
    for (const auto& s : def_.steps) paths_.push_back(run_.path + "/" + s.name);
  }
}

const std::string& RunDriver::path_of(std::size_t i) const {
  return paths_.empty() ? def_.steps[i].name : paths_[i];
}

EventContext RunDriver::event(std::size_t i, int attempt) const {
  return event_context(ex_.origin(), def_.name, path_of(i), attempt, run_, ex_.root());
}

EventContext RunDriver::run_event() const {
  return event_context(ex_.origin(), def_.name, run_.path, 0, run_, ex_.root());
}

void RunDriver::undo_completed(Lock& lock, std::vector<RollbackFailure>& failures) {
  rollback_.undo_completed(lock, failures);
}

void RunDriver::drive() {
  Lock lock(ex_.mutex());
  if (run_.status == RunStatus::kWaiting || run_.status == RunStatus::kPaused) {
    // Resumed: whatever it waited for is re-checked where it waited (an interrupt's deadline).
    advance(run_, RunEvent::kResume);
    run_.suspension.reset();
    ex_.touch_header(run_);
  }
  if (run_.status == RunStatus::kPending && !start(lock)) return;
  if (run_.status == RunStatus::kRunning) forward(lock);
  if (ex_.unwinding().any()) return;
  if (run_.status == RunStatus::kRollingBack) rollback_.rollback(lock);
}

// Validates the inputs and makes the run `running`. False when they were
// rejected: the run is then failed, and no step has run.
bool RunDriver::start(Lock& lock) {
  std::vector<FieldError> errors = validate_inputs(def_, run_.inputs);
  if (!errors.empty()) {
    RunError e =
        engine_error(ErrorKind::kInputInvalid, def_.name, "invalid inputs: " + describe(errors));
    e.validation_errors = std::move(errors);
    e.inputs = redact_inputs(def_, run_.inputs);
    advance(run_, RunEvent::kRejectInputs);
    run_.error = e;
    ex_.touch_header(run_);
    ex_.checkpoint(/*force=*/true);
    lock.unlock();
    ex_.observers().notify("run_fail", [&](Observer& o) { o.on_run_fail(run_event(), e); });
    lock.lock();
    return false;
  }
  advance(run_, RunEvent::kStart);
  ex_.touch_header(run_);
  // Written before the first step starts: a run a worker took is seen as
  // running (and a new synchronous run exists in storage) from then on.
  // When the fetch that delivered the root run filed it as running already,
  // its header goes with the first step's commit instead. A composed child
  // always is: it must exist in storage before its first step runs.
  const bool stored = ex_.options().start_written && &run_ == &ex_.root();
  if (!stored) ex_.checkpoint();
  if (!ex_.observers().empty()) {
    Value redacted = redact_inputs(def_, run_.inputs);
    lock.unlock();
    ex_.observers().notify("run_start",
                           [&](Observer& o) { o.on_run_start(run_event(), redacted); });
    lock.lock();
  }
  return true;
}

bool RunDriver::stop_launching() const { return halting_ || failing_ || ex_.unwinding().any(); }

// Whether step i is where the root hands off, `kind` of it: then no further step starts, and
// execute_run leaves the run to another execution once the steps in flight are recorded. Only
// the caller of a durable run hands off (ExecuteOptions::hand_off), and only at its own
// reactor's point.
bool RunDriver::hands_off(std::size_t i, HandOff::Kind kind) {
  const std::optional<HandOff>& h = def_.hand_off;
  if (!h || h->step != i || h->kind != kind || !ex_.options().hand_off || &run_ != &ex_.root()) {
    return false;
  }
  ex_.unwinding().hand_off_at(path_of(i), to_string(kind));
  return true;
}

void RunDriver::forward(Lock& lock) {
  rebuild_schedule();
  if (&run_ == &ex_.root()) run_.trace.reserve(run_.trace.size() + def_.steps.size());
  for (;;) {
    if (run_next(lock)) continue;
    if (in_flight_ == 0) {
      if (ex_.unwinding().any()) break;
      if (maps_.collect_settled(lock)) continue;
      if (units_.awaits_children()) {
        if (units_.fail_overdue_readers(lock) || units_.wait_for_units(lock) ||
            maps_.cancel_maps(lock))
          continue;
        wait_for_maps();
        break;
      }
      if (stop_launching() || (ready_.empty() && retry_waiting_.empty())) {
        // Only interrupts are left: one past its deadline fails, or the run pauses.
        if (!stop_launching() && interrupts_.any_paused() && interrupts_.fail_or_pause(lock)) {
          continue;
        }
        break;
      }
      if (ready_.empty()) sleep_until_next_retry(lock);
      continue;
    }
    if (retry_beside_siblings(lock)) continue;
    save_before_next_step();  // a branch finished while its siblings run on
    wait_settled(lock);
  }
  while (helpers_ > 0) wait_settled(lock);  // they run on this driver
  // A run handed back with nothing left to run ends here rather than for the next worker.
  const bool all_ran = !failing_ && !halting_ && ready_.empty() && retry_waiting_.empty() &&
                       !units_.awaits_children();
  if (ex_.unwinding().stopped() || ex_.unwinding().yielded() || ex_.unwinding().pausing() ||
      (ex_.unwinding().leaving() && !all_ran))
    return;
  if (failing_) {
    advance(run_, RunEvent::kFail);
    ex_.touch_header(run_);
    ex_.checkpoint(/*force=*/true);
  } else if (halting_) {
    finish_halted(lock);
  } else {
    finish_completed(lock);
  }
}

// Side effect → record → checkpoint → next step: what the last steps
// recorded is committed before another step starts, and before the driver
// waits on running branches. The run's end commits whatever is left, so the
// last step and the terminal state cost one write.
void RunDriver::save_before_next_step(std::optional<std::int64_t> at_ms) {
  if (ex_.has_unsaved_steps()) ex_.checkpoint(/*force=*/false, at_ms);
}

// Runs a step on this thread: one a burst left for any thread to take, or the first of a new
// burst. False when none may start now. The caller holds the lock; it is released around the
// step.
bool RunDriver::run_next(Lock& lock) {
  if (next_launch_ == launched_.size() && !prepare_burst(lock)) return false;
  Launch l = std::move(launched_[next_launch_++]);
  lock.unlock();
  attempts_.execute(l, lock);
  --in_flight_;
  spare_args_ = std::move(l.args);
  spare_args_.clear();  // its views and owned values go with the step; its storage stays
  notify_settled();
  return true;
}

// Prepares the ready steps that may start now, up to max_concurrency in flight: each is marked
// as started under this execution, and the marks go out in one commit, with what the last
// steps recorded, before any of them starts. One burst at a time: attempts_.prepare() lets go of
// the lock around argument transforms, and no step of a burst may start before its commit. The
// steps this thread will not take get helpers from the pool, which go on taking steps as they
// become ready: a wave of parallel work costs one hand-off per helper, not one per step.
bool RunDriver::prepare_burst(Lock& lock) {
  if (bursting_) return false;
  const int max = def_.max_concurrency;
  bursting_ = true;
  burst_.clear();  // a member: no allocation per step
  while (!stop_launching() && in_flight_ < max && !ready_.empty()) {
    std::size_t i = ready_.top();
    if (hands_off(i, HandOff::Kind::kBefore)) break;  // it stays ready, for whoever goes on
    ready_.pop();
    // Nothing starts: it waits for its payload (a test's mock of it runs as a plain step).
    if (def_.steps[i].kind == StepKind::kInterrupt && ex_.override_for(path_of(i)) == nullptr) {
      interrupts_.reach(i, lock);
      continue;
    }
    ++in_flight_;  // its place is taken while the lock is let go
    if (std::optional<Launch> l = attempts_.prepare(i, lock)) {
      burst_.push_back(std::move(*l));
    } else {
      --in_flight_;
    }
  }
  // The last mark's start time is the commit's: no user code ran since it was read.
  if (!burst_.empty()) save_before_next_step(run_.steps[burst_.back().i].started_at_ms);
  bursting_ = false;
  if (ex_.unwinding().stopped())
    in_flight_ -= static_cast<int>(burst_.size());  // none of them starts
  if (burst_.empty() || ex_.unwinding().stopped()) return false;
  launched_.swap(burst_);  // every launch of the last burst was taken: none is dropped
  next_launch_ = 0;
  if (max == 1) return true;
  const int more = std::min(static_cast<int>(launched_.size()) - 1, max - 1 - helpers_);
  for (int k = 0; k < more; ++k) {
    ++helpers_;
    ex_.pool().submit([this] { help(); });
  }
  notify_settled();
  return true;
}

// Siblings are running and nothing is ready: a branch waiting for its retry waits for it on the
// pool, beside them (whichever thread finds it so: the driver may be running a sibling itself).
bool RunDriver::retry_beside_siblings(Lock& lock) {
  if (in_flight_ == 0 || in_flight_ >= def_.max_concurrency || !ready_.empty() ||
      retry_waiting_.empty() || stop_launching()) {
    return false;
  }
  save_before_next_step();
  if (stop_launching()) return false;
  std::size_t i = *retry_waiting_.begin();
  retry_waiting_.erase(retry_waiting_.begin());
  launch_after_retry_wait(i, lock);
  return true;
}

// Waits until a step is recorded or a helper leaves. The caller holds the lock. A sibling's step
// usually ends within microseconds: spun for first, since sleeping costs more than that.
void RunDriver::wait_settled(Lock& lock) {
  const std::uint64_t seen = settled_epoch_.load(std::memory_order_relaxed);
  lock.unlock();
  for (int k = 0; k < kSettleSpins && settled_epoch_.load(std::memory_order_acquire) == seen; ++k) {
    relax_cpu();
  }
  lock.lock();
  if (settled_epoch_.load(std::memory_order_relaxed) != seen) return;
  ++settled_waiters_;
  settled_.wait(lock);
  --settled_waiters_;
}

// Wakes the threads waiting in wait_settled (a wake-up nobody sleeps for would still cost a
// lock of the condition's own). The caller holds the lock.
void RunDriver::notify_settled() {
  if (retry_waits_.stop_possible() && stop_launching()) retry_waits_.request_stop();
  settled_epoch_.fetch_add(1, std::memory_order_acq_rel);
  if (settled_waiters_ > 0) settled_.notify_all();
}

// A pool thread lending a hand with a burst: it takes steps until none may start.
void RunDriver::help() {
  Lock lock(ex_.mutex());
  while (run_next(lock) || retry_beside_siblings(lock)) {
  }
  --helpers_;
  notify_settled();
}

// A branch whose retry is due later, beside running siblings: it waits for it on the pool,
// then starts as any step does. Should a sibling fail (or halt) meanwhile, its wait ends there
// and it never starts: it waits for its retry again, which the run's rollback files as failed.
void RunDriver::launch_after_retry_wait(std::size_t i, Lock&) {
  ++in_flight_;
  const std::int64_t due = run_.steps[i].retry_at_ms;
  if (!retry_waits_.stop_possible()) retry_waits_ = std::stop_source();
  ex_.pool().submit([this, i, due, stop = retry_waits_.get_token()] {
    ex_.clock().backoff_until(from_unix_ms(due), stop);
    Lock lock(ex_.mutex());
    std::optional<Launch> l;
    if (stop_launching()) {
      retry_waiting_.insert(i);
    } else {
      l = attempts_.prepare(i, lock);
    }
    if (l) {
      // Its mark goes out with the next commit; nothing else is due to be written now.
      lock.unlock();
      attempts_.execute(*l, lock);
    }
    --in_flight_;
    notify_settled();
  });
}

// Nothing runs but fan-out maps and async units (and maybe retries waiting): the run is handed
// back until one settles — its last run enqueues the run's resume —, the earliest retry is due,
// or a step reading a unit has waited async_park_timeout for it (a parked run). A failing run
// still waits for its maps' elements already running (cancel_maps filed the others), to roll
// back what they completed; a halting one for all of them.
void RunDriver::wait_for_maps() {
  std::int64_t due = INT64_MAX;
  if (!stop_launching()) {
    for (auto i : retry_waiting_) due = std::min(due, run_.steps[i].retry_at_ms);
  }
  if (due != INT64_MAX) {
    ex_.unwinding().yield_until(due);
    return;
  }
  std::int64_t give_up = INT64_MAX;  // a parked reader's deadline wakes the run to fail it
  for (auto i : dispatched_) {
    if (std::optional<std::int64_t> until = units_.read_deadline(i);
        until && !units_.caller_waits()) {
      give_up = std::min(give_up, *until);
    }
  }
  ex_.unwinding().yield_for_children(give_up == INT64_MAX ? 0 : give_up);
}

// Nothing else can run: wait on the clock for the earliest retry, then make
// every retry that is due ready.
void RunDriver::sleep_until_next_retry(Lock& lock) {
  std::int64_t due = INT64_MAX;
  for (auto i : retry_waiting_) due = std::min(due, run_.steps[i].retry_at_ms);
  if (due > ex_.now_ms() && ex_.options().suspend_on_retry_wait) {
    // A worker does not hold a thread through a backoff: the root is
    // suspended until the retry is due (execute_run), and every driver unwinds.
    ex_.unwinding().yield_until(due);
    return;
  }
  save_before_next_step();  // the failed attempt is durable before the backoff
  if (ex_.unwinding().stopped()) return;
  lock.unlock();
  ex_.clock().sleep_until(from_unix_ms(due));
  lock.lock();
  const std::int64_t now = ex_.now_ms();
  for (auto it = retry_waiting_.begin(); it != retry_waiting_.end();) {
    if (run_.steps[*it].retry_at_ms <= now) {
      ready_.push(*it);
      it = retry_waiting_.erase(it);
    } else {
      ++it;
    }
  }
}

void RunDriver::finish_completed(Lock& lock) {
  if (def_.returns) {
    run_.value = run_.steps[*def_.returns].result;
  } else {
    run_.value = Value::object();
    for (const auto& rec : run_.steps) run_.value[rec.name] = rec.result;
  }
  advance(run_, RunEvent::kComplete);
  ex_.touch_header(run_);
  ex_.checkpoint(/*force=*/true);
  // A refused end (a newer execution holds the run) is not this execution's to report.
  if (ex_.unwinding().stopped()) return;
  lock.unlock();
  ex_.observers().notify(
      "run_complete", [&](Observer& o) { o.on_run_complete(run_event(), RunStatus::kCompleted); });
  lock.lock();
}

void RunDriver::finish_halted(Lock& lock) {
  for (const auto& rec : run_.steps) {
    if (rec.status == StepStatus::kHalted) run_.value = rec.result;
  }
  advance(run_, RunEvent::kHalt);
  ex_.touch_header(run_);
  ex_.checkpoint(/*force=*/true);
  if (ex_.unwinding().stopped()) return;  // refused: see finish_completed
  lock.unlock();
  ex_.observers().notify("run_complete",
                         [&](Observer& o) { o.on_run_complete(run_event(), RunStatus::kHalted); });
  lock.lock();
}

}  // namespace reactor
