#include "execution/run_driver.hpp"

#include "base/run_errors.hpp"
#include "definition/inputs.hpp"
#include "reactor/ids.hpp"

namespace reactor {

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
  return EventContext{run_.root_id, def_.name, path_of(i), attempt};
}

EventContext RunDriver::run_event() const {
  return EventContext{run_.root_id, def_.name, run_.path, 0};
}

void RunDriver::drive() {
  Lock lock(ex_.mutex());
  if (run_.status == RunStatus::kWaiting) {
    // Resumed: whatever it waited for is re-checked where it waited.
    run_.status = RunStatus::kRunning;
    run_.suspension.reset();
    ex_.touch_header(run_);
  }
  if (run_.status == RunStatus::kPending && !start(lock)) return;
  if (run_.status == RunStatus::kRunning) forward(lock);
  if (ex_.halted_from_outside()) return;
  if (run_.status == RunStatus::kRollingBack) rollback(lock);
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
    run_.status = RunStatus::kFailed;
    run_.error = e;
    ex_.touch_header(run_);
    ex_.checkpoint(/*force=*/true);
    lock.unlock();
    ex_.observers().notify("run_fail", [&](Observer& o) { o.on_run_fail(run_event(), e); });
    lock.lock();
    return false;
  }
  run_.status = RunStatus::kRunning;
  ex_.touch_header(run_);
  // Written before the first step starts: a run a worker took is seen as
  // running (and a new synchronous run exists in storage) from then on.
  // When the fetch that delivered the root run filed it as running already,
  // its header goes with the first step's commit instead. A composed child
  // always is: it must exist in storage before its first step runs.
  const bool stored = ex_.hooks().start_is_stored && &run_ == &ex_.root();
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

// The schedule is derived from the step records alone, so a run restored
// from any snapshot continues exactly where the snapshot was taken.
void RunDriver::rebuild_schedule() {
  const auto n = def_.steps.size();
  waiting_on_.assign(n, 0);
  for (std::size_t i = 0; i < n; ++i) {
    StepRecord& rec = run_.steps[i];
    if (rec.status == StepStatus::kRunning) {
      // Interrupted mid-attempt: that attempt never finished, run it again.
      rec.status = StepStatus::kPending;
      rec.attempts = rec.attempts > 0 ? rec.attempts - 1 : 0;
    }
    for (auto dep : def_.steps[i].dependencies) {
      auto st = run_.steps[dep].status;
      if (st != StepStatus::kCompleted && st != StepStatus::kSkipped) ++waiting_on_[i];
    }
  }
  for (std::size_t i = 0; i < n; ++i) {
    auto st = run_.steps[i].status;
    if (st == StepStatus::kRetryScheduled) retry_waiting_.insert(i);
    if (st == StepStatus::kPending && waiting_on_[i] == 0) ready_.push(i);
    // A snapshot taken right after a final failure or a Halt was recorded: the run must go on
    // to roll back or halt, not launch the steps that were still ready.
    if (st == StepStatus::kFailed) failing_ = true;
    if (st == StepStatus::kHalted) halting_ = true;
  }
}

bool RunDriver::stop_launching() const { return halting_ || failing_ || ex_.halted_from_outside(); }

void RunDriver::forward(Lock& lock) {
  rebuild_schedule();
  if (&run_ == &ex_.root()) run_.trace.reserve(run_.trace.size() + def_.steps.size());
  const int max = def_.max_concurrency;
  for (;;) {
    while (!stop_launching() && in_flight_ < max && !ready_.empty()) {
      save_before_next_step();
      if (stop_launching()) break;
      std::size_t i = ready_.top();
      ready_.pop();
      launch(i, lock, false);
    }
    if (in_flight_ == 0) {
      if (stop_launching() || (ready_.empty() && retry_waiting_.empty())) break;
      if (ready_.empty()) sleep_until_next_retry(lock);
      continue;
    }
    // Siblings are running: a branch waiting for its retry waits beside them.
    if (ready_.empty() && !retry_waiting_.empty() && !stop_launching() && in_flight_ < max) {
      save_before_next_step();
      if (stop_launching()) continue;
      std::size_t i = *retry_waiting_.begin();
      retry_waiting_.erase(retry_waiting_.begin());
      launch(i, lock, true);
      continue;
    }
    save_before_next_step();  // a branch finished while its siblings run on
    settled_.wait(lock);
  }
  if (ex_.halted_from_outside()) return;
  if (failing_) {
    run_.status = RunStatus::kRollingBack;
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
void RunDriver::save_before_next_step() {
  if (ex_.has_unsaved_steps()) ex_.checkpoint();
}

// Runs step i: inline when the run is sequential, else on the pool. With
// `wait_for_retry`, the attempt first waits until its retry is due.
void RunDriver::launch(std::size_t i, Lock& lock, bool wait_for_retry) {
  if (def_.max_concurrency == 1) {
    lock.unlock();
    execute(i);
    lock.lock();
    return;
  }
  ++in_flight_;
  std::int64_t due = run_.steps[i].retry_at_ms;
  ex_.pool().submit([this, i, wait_for_retry, due] {
    if (wait_for_retry) ex_.clock().sleep_until(from_unix_ms(due));
    execute(i);
    Lock l(ex_.mutex());
    --in_flight_;
    settled_.notify_all();
  });
}

// Nothing else can run: wait on the clock for the earliest retry, then make
// every retry that is due ready.
void RunDriver::sleep_until_next_retry(Lock& lock) {
  std::int64_t due = INT64_MAX;
  for (auto i : retry_waiting_) due = std::min(due, run_.steps[i].retry_at_ms);
  if (due > ex_.now_ms() && ex_.hooks().yield_on_retry_wait) {
    // A worker does not hold a thread through a backoff: the root is
    // suspended until the retry is due (execute_run), and every driver unwinds.
    ex_.yield_until(due);
    return;
  }
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
  run_.status = RunStatus::kCompleted;
  ex_.touch_header(run_);
  ex_.checkpoint(/*force=*/true);
  lock.unlock();
  ex_.observers().notify(
      "run_complete", [&](Observer& o) { o.on_run_complete(run_event(), RunStatus::kCompleted); });
  lock.lock();
}

void RunDriver::finish_halted(Lock& lock) {
  for (const auto& rec : run_.steps) {
    if (rec.status == StepStatus::kHalted) run_.value = rec.result;
  }
  run_.status = RunStatus::kHalted;
  ex_.touch_header(run_);
  ex_.checkpoint(/*force=*/true);
  lock.unlock();
  ex_.observers().notify("run_complete",
                         [&](Observer& o) { o.on_run_complete(run_event(), RunStatus::kHalted); });
  lock.lock();
}

Run make_child_run(const DefinitionData& def, const Run& parent, std::string path, Value inputs,
                   std::int64_t now_ms) {
  Run child;
  child.id = new_run_id();
  child.reactor = def.name;
  child.root_id = parent.root_id;
  child.parent_id = parent.id;
  child.path = std::move(path);
  child.fingerprint = def.fingerprint;
  child.inputs = std::move(inputs);
  child.steps.resize(def.steps.size());
  for (std::size_t i = 0; i < def.steps.size(); ++i) child.steps[i].name = def.steps[i].name;
  child.created_at_ms = child.updated_at_ms = now_ms;
  return child;
}

}  // namespace reactor
