#include "execution/execute.hpp"

#include "execution/execution.hpp"
#include "execution/run_driver.hpp"

namespace reactor {

ExecuteOutcome execute_run(Run& root, const Definition& def, const ExecuteEnv& env,
                           const ExecuteHooks& hooks, bool root_is_new) {
  Execution ex(root, env, hooks, root_is_new);
  RunDriver(ex, *def.data(), root).drive();
  ExecuteOutcome out;
  std::lock_guard lock(ex.mutex());
  if (!ex.stopped() && ex.yielded()) {
    // Every driver of the tree has unwound: the root is suspended in one
    // commit, with whatever its branches recorded meanwhile.
    root.status = RunStatus::kWaiting;
    // A retry's due time wakes it by then; its fan-out maps, when they settle.
    root.suspension = ex.yield_at_ms()
                          ? Suspension{SuspensionKind::kUntil, *ex.yield_at_ms(), {}, 0}
                          : Suspension{SuspensionKind::kChildren, 0, {}, 0};
    ex.touch_header(root);
    ex.checkpoint(/*force=*/true);
    out.suspended = !ex.stopped();
  } else if (!ex.stopped() && ex.handing_back() && !is_terminal(root.status)) {
    // Every driver has unwound with what was in flight recorded: hand the run back.
    ex.hand_back();
    out.handed_back = !ex.stopped();
  }
  out.stopped = ex.stopped();
  out.stop_reason = ex.stop_reason();
  return out;
}

ExecuteOutcome execute_undo(Run& root, const Definition& def, const ExecuteEnv& env,
                            const ExecuteHooks& hooks, std::vector<RollbackFailure>& failures) {
  Execution ex(root, env, hooks, /*root_is_new=*/false);
  {
    std::unique_lock lock(ex.mutex());
    RunDriver(ex, *def.data(), root).undo_completed(lock, failures);
  }
  ExecuteOutcome out;
  std::lock_guard lock(ex.mutex());
  out.stopped = ex.stopped();
  out.stop_reason = ex.stop_reason();
  return out;
}

}  // namespace reactor
