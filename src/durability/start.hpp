// Starting runs in the background: each run is persisted as `enqueued`
// together with its start job, in one commit.
#pragma once

#include <cstddef>
#include <vector>

#include "durability/durable_env.hpp"

namespace reactor {

// Persists `run` as `enqueued` with its start job, in one commit; with `start_at_ms` in the
// future, as `scheduled` (suspended until then: its header's wake time, for the sweeper) with its
// job due then. A run with its id exists already: AlreadyExists, nothing written (see
// match_existing).
Status persist_background_run(DurableEnv& env, const Run& run, std::int64_t start_at_ms = 0);

// What a start under an id that exists comes to: Ok when the stored run is of
// the same reactor with the same inputs (the start is that run, as a Temporal
// workflow id or a BullMQ job id is), AlreadyExists naming the id when it
// differs, or the store's error reading it.
Status match_existing(RunStore& store, const Run& asked);

// Persists each of `runs` so, in input order, kBackgroundRunsPerCommit runs
// per commit. `persisted` counts the runs of the commits that succeeded
// before the first error (all of them when ok).
Status persist_background_runs(DurableEnv& env, const std::vector<Run>& runs,
                               std::size_t& persisted);

}  // namespace reactor
