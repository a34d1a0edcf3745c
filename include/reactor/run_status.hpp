// The statuses of a run and of a step record.
#pragma once

#include <string>
#include <vector>

namespace reactor {

enum class RunStatus {
  kPending,   // created, not started
  kEnqueued,  // waiting for a worker
  // Its start is due later (BackgroundOptions::start_at / delay): its job is due then, and a
  // worker delivers it as an enqueued run once it is.
  kScheduled,
  kRunning,
  // Suspended (Run::suspension says until what): it holds no lease and no
  // thread; what ends the suspension enqueues its job.
  kWaiting,
  // At an interrupt (Builder::interrupt): it holds no lease and no thread until a payload
  // resumes it (Engine::resume_interrupt), or its active timeout wakes it to roll it back.
  kPaused,
  kRollingBack,  // a step failed; compensation and undo in progress
  kCompleted,
  kFailed,
  kHalted,  // a step returned Halt: stopped without rollback
  // Set aside, its job removed: its deliveries kept ending without progress and even failing
  // it did (DurabilityOptions::max_deliveries_without_progress). Its records are kept as they
  // were, unread, for an operator; its error is ErrorKind::kPoisonDelivery.
  kQuarantined,
  // Stopped by an operator (Engine::cancel), or undone by one (Engine::undo): it never runs
  // again; cancel itself rolls nothing back.
  kCancelled,
};

const char* to_string(RunStatus s);
// Every RunStatus, in declaration order.
const std::vector<RunStatus>& all_run_statuses();
// Throws std::invalid_argument for an unknown name.
RunStatus run_status_from_string(const std::string& s);
bool is_terminal(RunStatus s);

enum class StepStatus {
  kPending,
  kRunning,         // body started, outcome not recorded yet
  kRetryScheduled,  // an attempt failed; the next one is due at retry_at
  kCompleted,       // Success: on the undo stack
  kSkipped,         // Skipped: value flows on, never undone
  kHalted,
  kFailed,       // last attempt failed; compensation pending or not needed
  kCompensated,  // failed, then compensated (or compensation failed)
  kUndone,       // completed, then undone (or undo failed)
  // Its work runs as jobs of their own (a fan-out map's elements): the run
  // goes on with other branches, or waits, until they report.
  kDispatched,
  // An async unit that failed and rolled itself back: the run fails only if a
  // step reads it (docs/async.md).
  kUnitFailed,
  // An interrupt waiting for its payload (Builder::interrupt): completed by the first valid
  // resume, failed by its timeout or by too many invalid payloads.
  kPaused,
};

const char* to_string(StepStatus s);
StepStatus step_status_from_string(const std::string& s);

}  // namespace reactor
