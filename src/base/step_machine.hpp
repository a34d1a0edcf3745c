// A step's life as one state machine: every change of a StepRecord's status is an event
// applied by advance(), which follows one table (step_machine.cpp), in one screen, as the run's
// does (run_machine.hpp). Rows are counted as they are taken (scripts/check_transitions.sh).
//
// An attempt goes: ready (pending, or a retry due) → started → recorded as one outcome
// (completed, skipped, halted, a retry scheduled, failed) or dispatched (its runs go out: a
// fan-out map, an async unit) → collected. Rolling back: failed → compensated; completed →
// undone. A started attempt nobody recorded goes back to pending: restarted (it never
// finished here) or lost (an earlier execution lost it).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "base/state_machine.hpp"
#include "reactor/run.hpp"
#include "reactor/run_status.hpp"

namespace reactor {

enum class StepEvent {
  kStart,       // its attempt is counted and marked started
  kRestart,     // an attempt that never finished here starts over (a snapshot taken mid-
                // attempt; a child, map or unit whose runs carry on)
  kLose,        // an earlier execution lost the attempt (started, or about to start)
  kDispatch,    // its runs went out (a fan-out map's elements, an async unit)
  kSucceed,     // its outcome, or its runs', is a value
  kSkip,        // it returned Skipped
  kHalt,        // it returned Halt
  kRetryLater,  // its attempt failed with attempts left: the next is due later
  kFail,        // it failed for good (or never could start: an argument, a unit it reads)
  kUnitFail,    // an async unit failed and rolled itself back
  kCompensate,  // its compensation ran (or it needed none)
  kUndo,        // its undo ran (or it needed none)
  kPause,       // an interrupt was reached: it waits for its payload
  kResume,      // an operator resumed its resumable Halt: it runs again (Engine::resume_halted)
};

const char* to_string(StepEvent e);

using StepTransition = Transition<StepStatus, StepEvent>;

// Every legal change of a step's status.
std::span<const StepTransition> step_transitions();

// The status `from` goes to on `event`; nullopt when the table has no such row.
std::optional<StepStatus> next_status(StepStatus from, StepEvent event);

// Applies `event` to `rec`: its status becomes the row's, and the row is counted. An event the
// table does not allow is counted as illegal and applied all the same (StateMachine::apply).
void advance(StepRecord& rec, StepEvent event);

// How often each row of step_transitions() was taken in this process; the illegal events.
std::vector<std::uint64_t> step_transitions_taken();
std::uint64_t illegal_step_events();

}  // namespace reactor
