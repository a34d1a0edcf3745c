#include "base/step_machine.hpp"

namespace reactor {

namespace {

using S = StepStatus;
using E = StepEvent;

bool none(StepStatus) { return false; }  // every row names its status

// A step's life. Read a row as "from, on event, to".
StateMachine<StepStatus, StepEvent, 25> machine{
    {{
        {S::kPending, E::kStart, S::kRunning},
        {S::kRetryScheduled, E::kStart, S::kRunning},
        {S::kRunning, E::kRestart, S::kPending},
        {S::kRunning, E::kLose, S::kPending},
        {S::kPending, E::kLose, S::kPending},
        {S::kRunning, E::kDispatch, S::kDispatched},
        {S::kRunning, E::kSucceed, S::kCompleted},
        {S::kDispatched, E::kSucceed, S::kCompleted},
        {S::kRunning, E::kSkip, S::kSkipped},
        {S::kPending, E::kSkip, S::kSkipped},
        {S::kRunning, E::kHalt, S::kHalted},
        {S::kDispatched, E::kHalt, S::kHalted},
        {S::kRunning, E::kRetryLater, S::kRetryScheduled},
        {S::kRunning, E::kFail, S::kFailed},
        {S::kPending, E::kFail, S::kFailed},
        {S::kDispatched, E::kFail, S::kFailed},
        {S::kRetryScheduled, E::kFail, S::kFailed},
        {S::kRunning, E::kUnitFail, S::kUnitFailed},
        {S::kDispatched, E::kUnitFail, S::kUnitFailed},
        {S::kFailed, E::kCompensate, S::kCompensated},
        {S::kCompleted, E::kUndo, S::kUndone},
        {S::kPending, E::kPause, S::kPaused},
        {S::kPaused, E::kSucceed, S::kCompleted},
        {S::kPaused, E::kFail, S::kFailed},
        {S::kHalted, E::kResume, S::kPending},
    }},
    none};

}  // namespace

const char* to_string(StepEvent e) {
  switch (e) {
    case E::kStart:
      return "start";
    case E::kRestart:
      return "restart";
    case E::kLose:
      return "lose";
    case E::kDispatch:
      return "dispatch";
    case E::kSucceed:
      return "succeed";
    case E::kSkip:
      return "skip";
    case E::kHalt:
      return "halt";
    case E::kRetryLater:
      return "retry_later";
    case E::kFail:
      return "fail";
    case E::kUnitFail:
      return "unit_fail";
    case E::kCompensate:
      return "compensate";
    case E::kUndo:
      return "undo";
    case E::kPause:
      return "pause";
    case E::kResume:
      return "resume";
  }
  return "unknown";
}

std::span<const StepTransition> step_transitions() { return machine.rows(); }

std::optional<StepStatus> next_status(StepStatus from, StepEvent event) {
  return machine.next(from, event);
}

void advance(StepRecord& rec, StepEvent event) { machine.apply(rec.status, event); }

std::vector<std::uint64_t> step_transitions_taken() { return machine.taken(); }

std::uint64_t illegal_step_events() { return machine.illegal(); }

}  // namespace reactor
