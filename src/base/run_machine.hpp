// The run's life as one state machine: every change of a run's status is an event applied by
// advance(), which follows one table (run_machine.cpp) — the whole life of a run in one screen.
// Rows are counted as they are taken, so that the test suite can say which were never reached
// (scripts/check_transitions.sh), as Temporal's sdk-core keeps one table per machine.
//
// The store makes two moves of its own, as rows of this table say: a fetch files a run it
// leases `running`, and a map's settle releases an element (pending → enqueued, kEnqueue).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "base/state_machine.hpp"
#include "reactor/run.hpp"
#include "reactor/run_status.hpp"

namespace reactor {

enum class RunEvent {
  kEnqueue,       // its job is queued: a background start, a map element released
  kDeliver,       // a worker's delivery takes an enqueued run up: it starts here
  kStart,         // its inputs were valid: its steps may run
  kRejectInputs,  // its inputs were not: it fails before any step runs
  kSuspend,       // nothing may run now: it waits (Run::suspension says for what)
  kResume,        // what it waited for came (or its deadline): it runs on
  kFail,          // a step failed for good: it rolls back
  kRolledBack,    // its rollback is done: it has failed
  kComplete,      // every step is done
  kHalt,          // a step returned Halt: it stops without rollback
  kReplan,        // taken up on a new definition, no step having run: it starts over
  // The engine cannot run it, whatever its state: an unreadable record, an unknown reactor, a
  // changed definition, a crash loop, its owner ended before it started.
  kFailOutright,
  kQuarantine,  // even failing it did not end its crash loop: set aside
  kSchedule,    // started to run later: its job is due at its start time
  kPause,       // it reached an interrupt and nothing else may run: it waits for a payload
  kCancel,      // an operator stopped it: nothing more runs, nothing is rolled back
  kUndo,        // an operator asked to undo it: its completed steps are rolled back
  kUndone,      // that undo is done: it is cancelled
};

const char* to_string(RunEvent e);

// A row; `from` nullopt: from any status that is not terminal.
using RunTransition = Transition<RunStatus, RunEvent>;

// Every legal change of a run's status.
std::span<const RunTransition> run_transitions();

// The status `from` goes to on `event`; nullopt when the table has no such row.
std::optional<RunStatus> next_status(RunStatus from, RunEvent event);

// Applies `event` to `run`: its status becomes the row's, and the row is counted. Each event
// leads to one status whatever the row. An event the table does not allow from the run's status
// (a bug of the engine's) is counted as illegal — the test suite fails on any — and applied all
// the same: it never throws, so that no run is left half-done by it.
void advance(Run& run, RunEvent event);

// How often each row of run_transitions() was taken in this process, in table order; and how
// many events were refused.
std::vector<std::uint64_t> run_transitions_taken();
std::uint64_t illegal_run_events();

}  // namespace reactor
