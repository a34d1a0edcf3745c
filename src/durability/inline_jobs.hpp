// Inline jobs: the caller of run_in_background plays the worker for the jobs
// due on a queue, so tests and scripts get background semantics (persist,
// enqueue, lease, commit per step) without a worker thread.
#pragma once

#include <string>

#include "durability/delivery.hpp"

namespace reactor {

// Executes every job due on `queue` now, one after another, until none is
// due. Jobs put off to later (a snoozed duplicate) stay queued for a worker.
Status drain_inline(DurableEnv& env, const std::string& queue);

}  // namespace reactor
