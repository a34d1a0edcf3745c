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
  out.stopped = ex.stopped();
  out.stop_reason = ex.stop_reason();
  if (!out.stopped && !is_terminal(root.status)) out.resume_at_ms = ex.yield_at_ms();
  return out;
}

}  // namespace reactor
