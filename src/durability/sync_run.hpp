// A durable run executed by its caller (Engine::run with a backend).
#pragma once

#include "durability/durable_env.hpp"
#include "reactor/run_result.hpp"

namespace reactor {

// Executes `run` in this thread, durably: it holds the run's lease (so the
// sweeper leaves it alone while this process lives, and hands it to a worker
// if this process dies), and commits every step.
RunResult run_synchronously(DurableEnv& env, const Definition& def, Run run);

// Executes the stored run `run` in this thread under `lease`, the run's, taken by the caller
// (a resume run inline): as run_synchronously goes on after its start. The execution's end (or
// its pause, its suspension) lets the lease go.
RunResult execute_held(DurableEnv& env, const Definition& def, Run run, const Lease& lease);

// What a caller of `d` does about its async units (docs/async.md): it never waits (inline_jobs
// run them in the caller; an async_wait_timeout of 0 hands the run to the workers), it waits
// (no units to wait for, a live worker serves their queue, or wait_without_workers), or nobody
// serves their queue and the run goes to the workers at once. One read of the store when the
// caller may wait and `d` has units; none otherwise.
enum class CallerWait { kNever, kWaits, kNobodyServes };
CallerWait caller_wait(DurableEnv& env, const DefinitionData& d);

}  // namespace reactor
