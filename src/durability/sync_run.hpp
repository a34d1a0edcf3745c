// A durable run executed by its caller (Engine::run with a backend).
#pragma once

#include "durability/durable_env.hpp"
#include "reactor/run_result.hpp"

namespace reactor {

// Executes `run` in this thread, durably: it holds the run's lease (so the
// sweeper leaves it alone while this process lives, and hands it to a worker
// if this process dies), and commits every step.
RunResult run_synchronously(DurableEnv& env, const Definition& def, Run run);

}  // namespace reactor
