#include "durability/sync_run.hpp"

#include "base/run_errors.hpp"
#include "durability/writer.hpp"
#include "reactor/ids.hpp"

namespace reactor {

RunResult run_synchronously(DurableEnv& env, const Definition& def, Run run) {
  const std::string owner = new_run_id();
  bool granted = false;
  Lease lease;
  Status s = env.backend.acquire_lease(run_lease_key(run.id), owner, env.options.lease_ttl, granted,
                                       lease);
  if (!s.ok() || !granted) {
    return failed_result(run.id, run.reactor, ErrorKind::kInternal,
                         s.ok() ? "run " + run.id + " is already held by another execution"
                                : "cannot take the run's lease: " + s.to_string());
  }
  Writer w{env, lease, std::nullopt, ""};
  auto entry = env.keeper.keep(lease, env.options.lease_ttl);
  ExecuteOutcome out = env.execute(run, def, hooks_for(w, *entry, false), /*run_is_new=*/true);
  env.keeper.drop(entry);
  RunResult r = make_run_result(run);
  if (out.stopped) {
    // The run did not advance durably past its last commit: say so, and let
    // recovery (the sweeper, once the lease lapses) carry it on.
    r.error = engine_error(ErrorKind::kInternal, run.reactor,
                           "stopped: " + out.stop_reason.to_string() +
                               "; the run continues from its last checkpoint under recovery");
  }
  return r;
}

}  // namespace reactor
