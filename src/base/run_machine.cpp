#include "base/run_machine.hpp"

namespace reactor {

namespace {

using S = RunStatus;
using E = RunEvent;
constexpr std::optional<RunStatus> kAnyLive;  // any status that is not terminal

bool live(RunStatus s) { return !is_terminal(s); }

// The run's life. Read a row as "from, on event, to".
// clang-format off
StateMachine<RunStatus, RunEvent, 25> machine{{{
    {S::kPending,     E::kEnqueue,      S::kEnqueued},
    {S::kEnqueued,    E::kDeliver,      S::kPending},
    {S::kPending,     E::kStart,        S::kRunning},
    {S::kPending,     E::kRejectInputs, S::kFailed},
    {S::kRunning,     E::kSuspend,      S::kWaiting},
    {S::kWaiting,     E::kResume,       S::kRunning},
    {S::kRunning,     E::kFail,         S::kRollingBack},
    {S::kRollingBack, E::kRolledBack,   S::kFailed},
    {S::kRunning,     E::kComplete,     S::kCompleted},
    {S::kRunning,     E::kHalt,         S::kHalted},
    {S::kPending,     E::kHalt,         S::kHalted},
    {S::kRunning,     E::kReplan,       S::kEnqueued},
    {S::kPending,     E::kSchedule,     S::kScheduled},
    {S::kScheduled,   E::kDeliver,      S::kPending},
    {S::kRunning,     E::kPause,        S::kPaused},
    {S::kPaused,      E::kResume,       S::kRunning},
    {S::kHalted,      E::kResume,       S::kRunning},
    {kAnyLive,        E::kCancel,       S::kCancelled},
    {S::kPaused,      E::kUndo,         S::kRollingBack},
    {S::kHalted,      E::kUndo,         S::kRollingBack},
    {S::kFailed,      E::kUndo,         S::kRollingBack},
    {S::kCompleted,   E::kUndo,         S::kRollingBack},
    {S::kRollingBack, E::kUndone,       S::kCancelled},
    {kAnyLive,        E::kFailOutright, S::kFailed},
    {kAnyLive,        E::kQuarantine,   S::kQuarantined},
}}, live};
// clang-format on

}  // namespace

const char* to_string(RunEvent e) {
  switch (e) {
    case E::kEnqueue:
      return "enqueue";
    case E::kDeliver:
      return "deliver";
    case E::kStart:
      return "start";
    case E::kRejectInputs:
      return "reject_inputs";
    case E::kSuspend:
      return "suspend";
    case E::kResume:
      return "resume";
    case E::kFail:
      return "fail";
    case E::kRolledBack:
      return "rolled_back";
    case E::kComplete:
      return "complete";
    case E::kHalt:
      return "halt";
    case E::kReplan:
      return "replan";
    case E::kFailOutright:
      return "fail_outright";
    case E::kQuarantine:
      return "quarantine";
    case E::kSchedule:
      return "schedule";
    case E::kPause:
      return "pause";
    case E::kCancel:
      return "cancel";
    case E::kUndo:
      return "undo";
    case E::kUndone:
      return "undone";
  }
  return "unknown";
}

std::span<const RunTransition> run_transitions() { return machine.rows(); }

std::optional<RunStatus> next_status(RunStatus from, RunEvent event) {
  return machine.next(from, event);
}

void advance(Run& run, RunEvent event) { machine.apply(run.status, event); }

std::vector<std::uint64_t> run_transitions_taken() { return machine.taken(); }

std::uint64_t illegal_run_events() { return machine.illegal(); }

}  // namespace reactor
