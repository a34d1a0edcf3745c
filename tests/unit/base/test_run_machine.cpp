// The run's state machine (src/base/run_machine.hpp): the table is one function of (status,
// event), advance() follows it, counts what it takes, and counts — and still applies — an event
// the table does not allow. This binary's coverage goes to support/transition_log.hpp.
#include <gtest/gtest.h>

#include <map>

#include "base/run_machine.hpp"
#include "support/transition_log.hpp"

namespace reactor {
namespace {

TEST(RunMachine, EachStatusAndEventHasOneRowAndEachEventOneTarget) {
  std::map<RunEvent, RunStatus> target;
  for (RunStatus from : all_run_statuses()) {
    for (const RunTransition& row : run_transitions()) {
      const bool applies = row.from ? *row.from == from : !is_terminal(from);
      if (!applies) continue;
      EXPECT_EQ(next_status(from, row.event), row.to)
          << to_string(from) << " on " << to_string(row.event) << " is listed twice";
    }
  }
  for (const RunTransition& row : run_transitions()) {
    auto [it, fresh] = target.try_emplace(row.event, row.to);
    EXPECT_EQ(it->second, row.to) << to_string(row.event) << " leads to two statuses";
    if (row.from && is_terminal(*row.from)) {
      EXPECT_TRUE(row.event == RunEvent::kUndo || row.event == RunEvent::kResume)
          << "a row leaves " << to_string(*row.from) << " on " << to_string(row.event);
    }
  }
  // One row per (status, event): a row that a wildcard row also covers is a second one.
  for (const RunTransition& a : run_transitions()) {
    for (const RunTransition& b : run_transitions()) {
      if (&a == &b || a.event != b.event) continue;
      EXPECT_FALSE(a.from && b.from && *a.from == *b.from) << to_string(a.event) << " twice";
      EXPECT_FALSE(a.from && !b.from) << to_string(a.event) << " from " << to_string(*a.from)
                                      << " is also covered by its row from any live status";
    }
  }
}

// Only an operator reopens an ended run: undo (of a halted, failed or completed run) and the
// resume of a halted one. A cancelled or quarantined run is never left.
TEST(RunMachine, OnlyAnOperatorLeavesATerminalStatus) {
  for (RunStatus s : all_run_statuses()) {
    if (!is_terminal(s)) continue;
    for (const RunTransition& row : run_transitions()) {
      const bool operator_event = row.event == RunEvent::kUndo || row.event == RunEvent::kResume;
      const bool reopens =
          s == RunStatus::kHalted || s == RunStatus::kFailed || s == RunStatus::kCompleted;
      if (operator_event && reopens) continue;
      EXPECT_FALSE(next_status(s, row.event)) << to_string(s) << " on " << to_string(row.event);
    }
  }
  EXPECT_FALSE(next_status(RunStatus::kCancelled, RunEvent::kResume));
  EXPECT_FALSE(next_status(RunStatus::kQuarantined, RunEvent::kUndo));
}

TEST(RunMachine, AdvanceFollowsTheTableAndCountsTheRow) {
  reactor::Run run;
  run.status = RunStatus::kPending;
  const std::vector<std::uint64_t> before = run_transitions_taken();
  advance(run, RunEvent::kStart);
  EXPECT_EQ(run.status, RunStatus::kRunning);
  advance(run, RunEvent::kFail);
  EXPECT_EQ(run.status, RunStatus::kRollingBack);
  advance(run, RunEvent::kRolledBack);
  EXPECT_EQ(run.status, RunStatus::kFailed);
  const std::vector<std::uint64_t> after = run_transitions_taken();
  std::uint64_t more = 0;
  for (std::size_t k = 0; k < after.size(); ++k) more += after[k] - before[k];
  EXPECT_EQ(more, 3u);
}

// A bug of the engine's is counted, never thrown, and the event applied as asked: no run is
// left half-done by the check.
TEST(RunMachine, AnIllegalEventIsCountedAndAppliedAllTheSame) {
  reactor::Run run;
  run.status = RunStatus::kCompleted;
  const std::uint64_t before = illegal_run_events();
  advance(run, RunEvent::kResume);
  ++reactor_test::deliberate_illegal_events;
  EXPECT_EQ(run.status, RunStatus::kRunning);
  EXPECT_EQ(illegal_run_events(), before + 1);
}

}  // namespace
}  // namespace reactor
