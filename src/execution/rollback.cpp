// Rollback: compensate what failed, then undo what completed, newest first.
// Every action is recorded before the next starts, so a rollback cut short
// by a crash resumes without repeating finished compensations or undos.
#include "execution/rollback.hpp"

#include <algorithm>

#include "base/run_machine.hpp"
#include "base/step_machine.hpp"
#include "definition/coordination_of.hpp"
#include "execution/argument_resolver.hpp"
#include "execution/run_driver.hpp"
#include "execution/step_invoker.hpp"

namespace reactor {
namespace {

RollbackFailure failure_of(const std::string& path, const char* kind, const StepResult& r) {
  const bool raised = !r.exception_type().empty();
  return RollbackFailure{path, kind, raised ? "raised" : "returned_failure", r.message()};
}

}  // namespace

bool Rollback::prepare_code(std::size_t i, const char* kind, Lock& lock, Args& args,
                            std::optional<RollbackFailure>& refused) {
  const StepSpec& spec = def_.steps[i];
  const std::string path = d_.path_of(i);
  if (auto err = resolve_arguments(spec, run_, nullptr, args)) {
    refused = failure_of(path, kind, Failure("arguments: " + err->message, false));
    return true;
  }
  ExecutionPort* port = ex_.port();
  const CoordinationSpec& wants = step_coordination(spec);
  if (port == nullptr || (wants.locks.empty() && wants.semaphores.empty())) return true;
  if (port->gate_waits_for_write()) {
    ex_.checkpoint(/*force=*/true);  // holds given back are written before any is taken again
    if (ex_.unwinding().stopped()) return false;
  }
  lock.unlock();
  const Status s = port->enter_rollback(StepAsk{run_, i, path, spec, args, false});
  lock.lock();
  if (s.code() == StatusCode::kDeadlineExceeded || s.code() == StatusCode::kInvalidArgument) {
    const bool held = s.code() == StatusCode::kDeadlineExceeded;
    refused = RollbackFailure{path, kind, held ? "contended" : "coordination_key", s.message()};
  } else if (!s.ok()) {
    ex_.unwinding().stop(s);
  }
  return !ex_.unwinding().stopped();
}

void Rollback::rollback(Lock& lock) {
  if (!run_.error) run_.error = RunError{};
  // Steps waiting for a retry get no further attempt: their last one failed.
  for (auto& rec : run_.steps) {
    if (rec.status == StepStatus::kRetryScheduled) {
      advance(rec, StepEvent::kFail);
      ex_.touch_step(run_, static_cast<std::size_t>(&rec - run_.steps.data()));
    }
  }
  // The step whose failure started the rollback is compensated first, then
  // any sibling branch that failed while it was in flight.
  std::vector<std::size_t> failed;
  if (run_.failed_step) failed.push_back(*run_.failed_step);
  for (std::size_t i = 0; i < run_.steps.size(); ++i) {
    if (run_.steps[i].status == StepStatus::kFailed && i != run_.failed_step) failed.push_back(i);
  }
  for (auto i : failed) {
    if (ex_.unwinding().any()) return;
    compensate(i, lock);
  }
  undo_completed(lock, run_.error->rollback_failures);
  if (ex_.unwinding().any()) return;
  // An operator's undo (Engine::undo) says so in the run's error: it ends cancelled, not failed.
  const bool undone = run_.error->kind == ErrorKind::kUndone;
  advance(run_, undone ? RunEvent::kUndone : RunEvent::kRolledBack);
  ex_.touch_header(run_);
  ex_.checkpoint(/*force=*/true);
  if (ex_.unwinding().stopped()) return;  // refused: a newer execution reports the run's end
  RunError error = *run_.error;
  lock.unlock();
  if (undone) {
    ex_.observers().notify("run_complete", [&](Observer& o) {
      o.on_run_complete(d_.run_event(), RunStatus::kCancelled);
    });
  } else {
    ex_.observers().notify("run_fail", [&](Observer& o) { o.on_run_fail(d_.run_event(), error); });
  }
  lock.lock();
}

// Compensates failed step i once, if its body started. A composed child or
// map has already rolled itself back; there is nothing left to compensate.
// Step i's compensate, called with the error it failed with and its arguments (prepare_code).
// The caller does not hold the lock.
StepResult Rollback::call_compensate(std::size_t i, const Args& args, const std::string& error) {
  const StepSpec& spec = def_.steps[i];
  const std::string path = d_.path_of(i);
  auto body = [&](std::stop_token stop) {
    StepContext ctx(ex_.origin(), def_.name, path, run_.steps[i].attempts, stop, ex_.clock());
    if (spec.factory) return spec.factory()->compensate(error, args, ctx);
    return spec.compensate(error, args, ctx);
  };
  return invoke_user_code(body, std::nullopt, ex_.clock()).result;
}

void Rollback::compensate(std::size_t i, Lock& lock) {
  StepRecord& rec = run_.steps[i];
  if (rec.status != StepStatus::kFailed) return;
  const StepSpec& spec = def_.steps[i];
  if (d_.maps_.fanned_out(i)) {
    // A fan-out map that failed: its completed elements are rolled back now, before the steps
    // before it (an inline map rolled its elements back itself as it failed).
    d_.maps_.roll_back_elements(i, lock, run_.error->rollback_failures);
    if (ex_.unwinding().any()) return;
    advance(rec, StepEvent::kCompensate);
    ex_.touch_step(run_, i);
    ex_.touch_header(run_);
    ex_.checkpoint();
    return;
  }
  const bool has_code = spec.factory || spec.compensate;
  if (spec.kind != StepKind::kStep || !rec.body_started || !has_code) {
    advance(rec, StepEvent::kCompensate);
    ex_.touch_step(run_, i);
    ex_.checkpoint();
    return;
  }
  if (!ex_.may_start_body()) return;
  const std::string path = d_.path_of(i);
  const std::string error = rec.error;
  std::optional<RollbackFailure> refused;
  Args args;
  if (!prepare_code(i, "compensate", lock, args, refused)) return;
  lock.unlock();
  ex_.observers().notify("compensate_start",
                         [&](Observer& o) { o.on_compensate_start(d_.event(i, 0)); });
  const StepResult r = refused ? Failure(refused->message, false) : call_compensate(i, args, error);
  lock.lock();
  ex_.trace(TraceType::kCompensate, path, rec.attempts, r.ok() ? "success" : "failure",
            r.ok() ? "" : r.message());
  if (!r.ok()) {
    run_.error->rollback_failures.push_back(refused ? *refused : failure_of(path, "compensate", r));
    // The saga is now in a state nobody undid: say so in the error's kind.
    run_.error->kind = ErrorKind::kCompensationFailed;
    run_.error->message =
        "compensation of step '" + path + "' failed: " + r.message() + " (after: " + error + ")";
  }
  advance(rec, StepEvent::kCompensate);
  ex_.touch_step(run_, i);
  ex_.touch_header(run_);  // the error may name a compensation failure
  ex_.checkpoint();
  lock.unlock();
  if (r.ok()) {
    ex_.observers().notify("compensate_complete",
                           [&](Observer& o) { o.on_compensate_complete(d_.event(i, 0)); });
  } else {
    ex_.observers().notify("compensate_fail",
                           [&](Observer& o) { o.on_compensate_fail(d_.event(i, 0), r.message()); });
  }
  lock.lock();
}

// Step i's undo, with the value it completed with and its arguments (prepare_code). The caller
// does not hold the lock.
StepResult Rollback::call_undo(std::size_t i, const Args& args, const std::string& path) {
  const StepSpec& spec = def_.steps[i];
  const StepRecord& rec = run_.steps[i];
  auto body = [&](std::stop_token stop) {
    StepContext ctx(ex_.origin(), def_.name, path, rec.attempts, stop, ex_.clock());
    if (spec.factory) return spec.factory()->undo(rec.result, args, ctx);
    return spec.undo(rec.result, args, ctx);
  };
  return invoke_user_code(body, std::nullopt, ex_.clock()).result;
}

void Rollback::undo_completed(Lock& lock, std::vector<RollbackFailure>& failures) {
  std::vector<std::size_t> completed;
  for (std::size_t i = 0; i < run_.steps.size(); ++i) {
    // An async unit is never undone by the run: it rolls itself back.
    if (run_.steps[i].status == StepStatus::kCompleted && def_.steps[i].kind != StepKind::kAsync) {
      completed.push_back(i);
    }
  }
  std::sort(completed.begin(), completed.end(), [&](std::size_t a, std::size_t b) {
    return run_.steps[a].completion_seq > run_.steps[b].completion_seq;
  });
  for (auto i : completed) {
    if (ex_.unwinding().any()) return;
    undo(i, lock, failures);
  }
}

void Rollback::undo(std::size_t i, Lock& lock, std::vector<RollbackFailure>& failures) {
  StepRecord& rec = run_.steps[i];
  const StepSpec& spec = def_.steps[i];
  if (spec.kind != StepKind::kStep) {
    // A composed child or a map: undo what its runs completed, the map's
    // elements highest index first.
    if (d_.maps_.fanned_out(i)) {
      d_.maps_.roll_back_elements(i, lock, failures);
      if (ex_.unwinding().any()) return;
    }
    for (std::size_t k = rec.children.size(); k-- > 0;) {
      RunDriver(ex_, *spec.child, rec.children[k]).undo_completed(lock, failures);
    }
    advance(rec, StepEvent::kUndo);
    ex_.touch_step(run_, i);
    ex_.checkpoint();
    return;
  }
  if (!spec.factory && !spec.undo) {
    advance(rec, StepEvent::kUndo);
    ex_.touch_step(run_, i);
    ex_.checkpoint();
    return;
  }
  if (!ex_.may_start_body()) return;
  const std::string path = d_.path_of(i);
  std::optional<RollbackFailure> refused;
  Args args;
  if (!prepare_code(i, "undo", lock, args, refused)) return;
  lock.unlock();
  ex_.observers().notify("undo_start", [&](Observer& o) { o.on_undo_start(d_.event(i, 0)); });
  const StepResult r = refused ? Failure(refused->message, false) : call_undo(i, args, path);
  lock.lock();
  ex_.trace(TraceType::kUndo, path, rec.attempts, r.ok() ? "success" : "failure",
            r.ok() ? "" : r.message());
  if (!r.ok()) failures.push_back(refused ? *refused : failure_of(path, "undo", r));
  advance(rec, StepEvent::kUndo);
  ex_.touch_step(run_, i);
  ex_.touch_header(run_);
  ex_.checkpoint();
  lock.unlock();
  if (r.ok()) {
    ex_.observers().notify("undo_complete",
                           [&](Observer& o) { o.on_undo_complete(d_.event(i, 0)); });
  } else {
    ex_.observers().notify("undo_fail",
                           [&](Observer& o) { o.on_undo_fail(d_.event(i, 0), r.message()); });
  }
  lock.lock();
}

}  // namespace reactor
