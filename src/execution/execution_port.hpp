// ExecutionPort: all an execution asks of whoever keeps its run, in the execution's own terms
// — write what changed, may user code start now, where map elements and async units go, stop
// here, a step hung, which attempts an earlier execution lost. The durable layer implements
// it (durability/durable_port.hpp); an in-process execution has none: nothing is written,
// maps and units run inline, nothing was lost before it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "execution/checkpoint_delta.hpp"
#include "execution/fan_out_port.hpp"
#include "reactor/definition.hpp"
#include "reactor/error.hpp"
#include "reactor/run.hpp"
#include "reactor/status.hpp"

namespace reactor {

// Who executed an attempt, as the trace names it (TraceEvent's last two fields): opaque to the
// execution, which only copies it into the event that records the attempt lost.
struct Executor {
  std::string id;
  std::uint64_t epoch = 0;
};

// An attempt of a step that an earlier execution of the run lost (it ended without recording
// the attempt's end): recorded as interrupted, and the step pending again.
struct LostAttempt {
  std::size_t step = 0;
  Executor by;
  // The step's executions were lost too often: it fails (ErrorKind::kInterrupted) rather than
  // take down every execution that tries it.
  bool gives_up = false;
};

// What `lost_attempts` is asked about.
enum class AttemptsAre {
  kStarted,      // steps recorded as started, with no end recorded
  kAboutToStart  // the first steps this execution would start (the root's, when it goes on)
};

// What a step's coordination (reactor/coordination.hpp) decides before its body starts.
struct StepGate {
  enum class Verdict {
    kGo,    // start it
    kWait,  // not now: it stays pending, and the port asks for the run to be left (stop_requested)
    kSkip,  // do not run it: it is skipped with `value` (its period is done)
    kFail   // it fails before its body (`kind`, `message`), not retried, not compensated
  };
  Verdict verdict = Verdict::kGo;
  ErrorKind kind = ErrorKind::kContended;
  std::string message;
  Value value;
};

// The step about to start: step `step` of `run`, at `path`, with its resolved arguments.
struct StepAsk {
  const Run& run;
  std::size_t step;
  const std::string& path;
  const StepSpec& spec;
  const Args& args;
  bool first_attempt;  // none started before (a period is judged once)
};

class ExecutionPort {
 public:
  virtual ~ExecutionPort() = default;

  // Called (without the run's lock) before a step with coordination starts its body: whether
  // it may. In process there is nothing to coordinate with.
  virtual StepGate enter_step(const StepAsk& ask) {
    (void)ask;
    return {};
  }
  // Whether what has been recorded must be written before the next enter_step: the holds of a
  // step that ended are given back by the write that records its end, and a later step of the
  // same run taking one of them first would only re-enter it (the root's), then lose it to
  // that write.
  virtual bool gate_waits_for_write() const { return false; }
  // Writes what changed. Called under the run's lock after recorded steps (coalesced by
  // ExecuteOptions::checkpoint_min_interval) and always for terminal states. A non-ok status
  // stops the whole tree where it is.
  virtual Status write(Run& root, const CheckpointDelta& delta) = 0;
  // Called before every step body, compensate and undo starts (under the run's lock): a non-ok
  // status stops the tree there, the code not started.
  virtual Status may_start() { return Status::Ok(); }
  // Where fan-out maps send their elements and async units their runs; nullptr: they run
  // inline.
  virtual FanOut* fan_out() { return nullptr; }
  // While true, no further step starts; once the steps in flight are recorded the run is left
  // unfinished in one write (CheckpointDelta::leave_unfinished), for another execution.
  virtual bool stop_requested() const { return false; }
  // A step kept running past its timeout and ExecuteOptions::hung_step_grace: its thread is
  // given up on. Called once per such step.
  virtual void step_hung() {}
  // Which of `steps` of `run` an earlier execution lost, in the order given.
  virtual std::vector<LostAttempt> lost_attempts(const Run& run,
                                                 const std::vector<std::size_t>& steps,
                                                 AttemptsAre are) {
    (void)run, (void)steps, (void)are;
    return {};
  }
  // An interrupt of root `root_id` at step `path` waits under `correlation_id` until `until_ms`
  // (0: no deadline): a resume may find it by that id. AlreadyExists naming the holder when
  // another waiting interrupt holds the id (the step then fails). In process nobody can look
  // it up, and it is Ok.
  virtual Status hold_correlation(const std::string& correlation_id, const std::string& root_id,
                                  const std::string& path, std::int64_t until_ms) {
    (void)correlation_id, (void)root_id, (void)path, (void)until_ms;
    return Status::Ok();
  }
};

}  // namespace reactor
