// Operator control of stored runs (docs/operator.md): cancel, undo, retry and the resume of a
// halt. Each is a durability path over the Backend's facets, fenced by the run's lease like
// every other write; none branches on a backend.
#pragma once

#include <string>

#include "durability/durable_env.hpp"
#include "reactor/result.hpp"
#include "reactor/run_result.hpp"

namespace reactor {

// The stored root run `run_id`, read for an operator: NotFound for no run; InvalidArgument for
// an element run of a fan-out map or a composed child (an operator acts on their root).
Result<Run> load_operated_run(DurableEnv& env, const std::string& run_id);

// Stops a live run for good: it becomes `cancelled` (its error kCancelled, `reason` its
// message) in one commit fenced by its lease, seized from whoever holds it — so an execution
// of it stops at its next commit, refused as a lost lease is. Nothing is rolled back. Its jobs
// stay queued, harmless: a delivery of a terminal run only acknowledges it.
// FailedPrecondition for a terminal or rolling-back run.
Status cancel_run(DurableEnv& env, const std::string& run_id, const std::string& reason);

// Rolls back the completed steps of a paused, halted, failed (not rolled back) or completed
// run, here in the caller, holding the run's lease: the run is written `rolling_back` first,
// then every compensate and undo is committed before the next, then it is `cancelled` (error
// kUndone). A caller that dies midway leaves it rolling back: the sweeper hands it to a worker,
// which goes on from the last commit. FailedPrecondition while it is live elsewhere (its lease
// held), rolling back, or has nothing to undo.
Result<RunResult> undo_run(DurableEnv& env, const std::string& run_id);

// Persists `retry` (a new run of the inputs of `original`, which ended) enqueued with its job,
// recording the run it retries. FailedPrecondition for an original that is not terminal.
Status persist_retry(DurableEnv& env, const Run& original, Run& retry);
// Then the original's header lists the retry, in a commit fenced by its lease (free: it ended).
// The retry's own record is the truth of the link: a caller that dies between the two calls
// leaves only this list short.
Status list_retry(DurableEnv& env, const std::string& original_id, const std::string& retry_id);

// Continues a halted run whose halt said it may be resumed (ResumableHalt):
// its halted steps start again (their records reset), and the run is written running with its
// job due now, in one commit; a worker goes on with it. FailedPrecondition for a run that is
// not halted, or whose halt may not be resumed.
Status resume_halted_run(DurableEnv& env, const std::string& run_id);

}  // namespace reactor
