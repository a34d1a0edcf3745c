#include "execution/execute.hpp"

#include "base/run_machine.hpp"
#include "execution/execution.hpp"
#include "execution/run_driver.hpp"

namespace reactor {

namespace {

// Observers hear of a hand-off once it is committed, as of any event, without the run's lock.
void notify_hand_off(Execution& ex, const Definition& def, std::unique_lock<RunMutex>& lock) {
  if (ex.observers().empty()) return;
  const std::string step = ex.unwinding().hand_off_step();
  const std::string where = ex.unwinding().hand_off_where();
  lock.unlock();
  ex.observers().notify("hand_off", [&](Observer& o) {
    o.on_hand_off(EventContext{ex.origin(), def.name(), step, 0}, where);
  });
}

}  // namespace

ExecuteOutcome execute_run(Run& root, const Definition& def, const ExecuteEnv& env,
                           const ExecuteOptions& options, bool root_is_new) {
  Execution ex(root, env, options, root_is_new);
  RunDriver(ex, *def.data(), root).drive();
  ExecuteOutcome out;
  std::unique_lock lock(ex.mutex());
  if (!ex.unwinding().stopped() && ex.unwinding().yielded()) {
    // Every driver of the tree has unwound: the root is suspended in one
    // commit, with whatever its branches recorded meanwhile.
    advance(root, RunEvent::kSuspend);
    // A retry's due time wakes it by then; its fan-out maps, when they settle.
    root.suspension =
        ex.unwinding().yield_at_ms()
            ? Suspension{SuspensionKind::kUntil, *ex.unwinding().yield_at_ms(), {}, 0}
            : Suspension{SuspensionKind::kChildren, ex.unwinding().children_give_up_ms(), {}, 0};
    ex.touch_header(root);
    ex.checkpoint(/*force=*/true);
    out.end = ExecuteOutcome::End::kSuspended;
  } else if (!ex.unwinding().stopped() && ex.unwinding().pausing()) {
    // Every driver has unwound: the root pauses at its interrupts in one commit, its lease let
    // go; an active timeout's deadline is when a job wakes it.
    advance(root, RunEvent::kPause);
    root.suspension =
        Suspension{SuspensionKind::kEvent, ex.unwinding().pause_wake_ms(), "interrupt", 0};
    ex.touch_header(root);
    ex.checkpoint(/*force=*/true);
    out.end = ExecuteOutcome::End::kSuspended;
  } else if (!ex.unwinding().stopped() && ex.unwinding().leaving() && !is_terminal(root.status)) {
    // Every driver has unwound with what was in flight recorded: leave the run. At the
    // hand-off point the trace says so: what precedes ran in the caller.
    if (ex.unwinding().handing_off()) {
      ex.trace(TraceType::kHandOff, ex.unwinding().hand_off_step(), 0,
               ex.unwinding().hand_off_where(), {}, ex.now_ms());
    }
    ex.leave_unfinished();
    out.end = ex.unwinding().handing_off() ? ExecuteOutcome::End::kHandedOff
                                           : ExecuteOutcome::End::kLeftUnfinished;
  }
  if (ex.unwinding().stopped()) {
    out.end = ExecuteOutcome::End::kStopped;
    out.stop_reason = ex.unwinding().stop_reason();
  }
  if (out.end == ExecuteOutcome::End::kHandedOff) notify_hand_off(ex, def, lock);
  return out;
}

ExecuteOutcome execute_undo(Run& root, const Definition& def, const ExecuteEnv& env,
                            const ExecuteOptions& options, std::vector<RollbackFailure>& failures) {
  Execution ex(root, env, options, /*root_is_new=*/false);
  {
    std::unique_lock lock(ex.mutex());
    RunDriver(ex, *def.data(), root).undo_completed(lock, failures);
  }
  ExecuteOutcome out;
  std::lock_guard lock(ex.mutex());
  if (ex.unwinding().stopped()) {
    out.end = ExecuteOutcome::End::kStopped;
    out.stop_reason = ex.unwinding().stop_reason();
  }
  return out;
}

}  // namespace reactor
