// The resume of an interrupt (docs/interrupts.md): a payload claimed for a paused interrupt, in
// one commit fenced by the run's lease, so that the first valid resume wins under any race and
// every other one is told why it lost. Then the run goes on, in a worker (its job due at once,
// in that commit) or in the caller.
#pragma once

#include <string>

#include "durability/durable_env.hpp"
#include "reactor/result.hpp"
#include "reactor/run_result.hpp"
#include "reactor/value.hpp"

namespace reactor {

struct ResumeAsk {
  std::string run_id;
  std::string step;  // the interrupt's path: "approve", "child/approve"
  Value payload;
  // Go on with the run in this thread, to its end or its next pause; else in a worker.
  bool run_inline = false;
};

// Claims the interrupt for `ask.payload` and lets the run go on. The run as it stands after
// (or, inline, where it got to). Refusals, nothing claimed:
//   NotFound            no such run, or no such step in its reactor
//   InvalidArgument     the step is no interrupt; the payload is invalid (every field error named;
//                       counted towards max_attempts, whose last wakes the run to roll back)
//   AlreadyExists       the interrupt was resumed already
//   FailedPrecondition  the run ended, was cancelled or is rolling back; the interrupt is not
//                       reached yet (its dependencies are not complete) or failed
//   DeadlineExceeded    past its deadline: the run is woken to roll back
//   Unavailable         the store, or a run executing elsewhere that did not let go in time
Result<RunResult> resume_interrupt(DurableEnv& env, const ResumeAsk& ask);

// The same for the interrupt waiting under `correlation_id` (durability/correlation.hpp).
Result<RunResult> resume_by_correlation(DurableEnv& env, const std::string& correlation_id,
                                        Value payload, bool run_inline);

}  // namespace reactor
