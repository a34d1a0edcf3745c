// Starting runs in the background: each run is persisted as `enqueued`
// together with its start job, in one commit.
#pragma once

#include <cstddef>
#include <vector>

#include "durability/durable_env.hpp"

namespace reactor {

// Persists `run` as `enqueued` with its start job, in one commit.
Status persist_background_run(DurableEnv& env, const Run& run);

// Persists each of `runs` so, in input order, kBackgroundRunsPerCommit runs
// per commit. `persisted` counts the runs of the commits that succeeded
// before the first error (all of them when ok).
Status persist_background_runs(DurableEnv& env, const std::vector<Run>& runs,
                               std::size_t& persisted);

}  // namespace reactor
