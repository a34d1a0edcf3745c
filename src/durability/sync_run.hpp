// A durable run executed by its caller (Engine::run with a backend).
#pragma once

#include "durability/durable_env.hpp"
#include "reactor/run_result.hpp"

namespace reactor {

// Executes `run` in this thread, durably: it holds the run's lease (so the
// sweeper leaves it alone while this process lives, and hands it to a worker
// if this process dies), and commits every step.
RunResult run_synchronously(DurableEnv& env, const Definition& def, Run run);

// Whether a caller of `d` waits for its async units (DurabilityOptions::async_wait_timeout):
// only while a live worker serves their queue, or when told to wait all the same
// (wait_without_workers). One read of the store when `d` has units; none otherwise.
bool waits_for_a_worker(DurableEnv& env, const DefinitionData& d);

}  // namespace reactor
