// The driver's schedule rebuilt from the step records alone — what makes any snapshot
// resumable —, and the attempts an earlier execution lost, found on the way
// (ExecutionPort::lost_attempts).
#include "base/run_errors.hpp"
#include "base/step_machine.hpp"
#include "definition/inputs.hpp"
#include "execution/run_driver.hpp"

namespace reactor {

// The schedule is derived from the step records alone, so a run restored
// from any snapshot continues exactly where the snapshot was taken.
void RunDriver::rebuild_schedule() {
  const auto n = def_.steps.size();
  waiting_on_.assign(n, 0);
  std::vector<std::size_t> started;  // steps recorded as started whose end is not recorded
  for (std::size_t i = 0; i < n; ++i) {
    StepRecord& rec = run_.steps[i];
    if (rec.status != StepStatus::kRunning) continue;
    if (def_.steps[i].kind == StepKind::kStep) {
      started.push_back(i);
      continue;
    }
    // A composed child, an inline map or an async unit's dispatch has no side effect of its
    // own: it carries on with its runs, whose steps account for their own executions. A
    // unit's dispatch may have been written: it is done again only if it was not.
    if (def_.steps[i].kind == StepKind::kAsync) relaunched_.insert(i);
    advance(rec, StepEvent::kRestart);
    rec.attempts = rec.attempts > 0 ? rec.attempts - 1 : 0;
  }
  restart_unrecorded(started);
  for (std::size_t i = 0; i < n; ++i) {
    for (auto dep : def_.steps[i].dependencies) {
      if (!attempts_.dependency_met(i, dep)) ++waiting_on_[i];
    }
  }
  for (std::size_t i = 0; i < n; ++i) {
    auto st = run_.steps[i].status;
    if (st == StepStatus::kRetryScheduled) retry_waiting_.insert(i);
    if (st == StepStatus::kDispatched) dispatched_.insert(i);
    if (st == StepStatus::kPaused) interrupts_.note_paused(i);
    if (st == StepStatus::kPending && waiting_on_[i] == 0) ready_.push(i);
    // A snapshot taken right after a final failure or a Halt was recorded: the run must go on
    // to roll back or halt, not launch the steps that were still ready.
    if (st == StepStatus::kFailed) failing_ = true;
    if (st == StepStatus::kHalted) halting_ = true;
  }
  if (&run_ == &ex_.root() && run_.status == RunStatus::kRunning && !failing_ && !halting_) {
    check_first_steps_lost();
  }
}

// Steps recorded as started with no end recorded: an earlier execution lost them
// (ExecutionPort::lost_attempts), or a snapshot was taken mid-attempt in process, whose attempt
// never finished and runs again.
void RunDriver::restart_unrecorded(const std::vector<std::size_t>& started) {
  if (started.empty()) return;
  std::vector<LostAttempt> lost;
  if (ex_.port() != nullptr) lost = ex_.port()->lost_attempts(run_, started, AttemptsAre::kStarted);
  auto next_lost = lost.begin();
  for (std::size_t i : started) {
    if (next_lost != lost.end() && next_lost->step == i) {
      record_lost(*next_lost++, /*stored_as_started=*/true);
      continue;
    }
    StepRecord& rec = run_.steps[i];
    advance(rec, StepEvent::kRestart);
    rec.attempts = rec.attempts > 0 ? rec.attempts - 1 : 0;
  }
}

// The execution before this one may have lost the steps it was about to start, having written
// nothing of them: the first ready ones, in definition order, up to max_concurrency, as
// forward() starts them (ExecutionPort::lost_attempts says whether it did).
void RunDriver::check_first_steps_lost() {
  if (ex_.port() == nullptr) return;
  std::vector<std::size_t> first;
  auto ready = ready_;
  for (int k = 0; k < def_.max_concurrency && !ready.empty(); ++k, ready.pop()) {
    if (def_.steps[ready.top()].kind == StepKind::kStep) first.push_back(ready.top());
  }
  if (first.empty()) return;
  for (const LostAttempt& l : ex_.port()->lost_attempts(run_, first, AttemptsAre::kAboutToStart)) {
    record_lost(l, /*stored_as_started=*/false);
  }
}

// An attempt of a step lost by an earlier execution (or about to start when it was lost):
// traced under who executed it, counted, and when the port gives up on the step
// (LostAttempt::gives_up) it fails — its executions keep dying, a poison pill — instead of
// taking every execution down with it. Caller holds the lock.
void RunDriver::record_lost(const LostAttempt& l, bool stored_as_started) {
  const std::size_t i = l.step;
  StepRecord& rec = run_.steps[i];
  if (!stored_as_started) ++rec.attempts;
  ++rec.interrupted;
  advance(rec, StepEvent::kLose);
  ex_.trace_as(TraceType::kInterrupted, path_of(i), rec.attempts, "interrupted",
               "the execution was lost with its worker", l.by);
  ex_.touch_step(run_, i);
  ex_.observers().notify("step_interrupted",
                         [&](Observer& o) { o.on_step_interrupted(event(i, rec.attempts)); });
  if (!l.gives_up) return;
  advance(rec, StepEvent::kFail);
  rec.body_started = true;  // it may have had its side effect: it is compensated
  rec.error = "step '" + path_of(i) + "' was interrupted " + std::to_string(rec.interrupted) +
              " times: its executions keep dying with their worker";
  if (!failing_) {
    failing_ = true;
    run_.failed_step = i;
    RunError e = engine_error(ErrorKind::kInterrupted, def_.name, rec.error);
    e.step = path_of(i);
    e.attempts = rec.attempts;
    e.inputs = redact_inputs(def_, run_.inputs);
    run_.error = std::move(e);
    ex_.touch_header(run_);
  }
}

}  // namespace reactor
