// A step's state machine (src/base/step_machine.hpp): one row per (status, event), each event
// one target, the outcomes of rolling back final, and advance() follows the table, counts what
// it takes, and counts — and still applies — an event the table does not allow. Coverage of the
// rows by the whole suite: scripts/check_transitions.sh.
#include <gtest/gtest.h>

#include <map>

#include "base/step_machine.hpp"
#include "support/transition_log.hpp"

namespace reactor {
namespace {

constexpr StepStatus kAll[] = {
    StepStatus::kPending,    StepStatus::kRunning,     StepStatus::kRetryScheduled,
    StepStatus::kCompleted,  StepStatus::kSkipped,     StepStatus::kHalted,
    StepStatus::kFailed,     StepStatus::kCompensated, StepStatus::kUndone,
    StepStatus::kDispatched, StepStatus::kUnitFailed,
};

TEST(StepMachine, EachStatusAndEventHasOneRowAndEachEventOneTarget) {
  std::map<StepEvent, StepStatus> target;
  for (const StepTransition& a : step_transitions()) {
    ASSERT_TRUE(a.from) << "every row names the status it leaves";
    auto [it, fresh] = target.try_emplace(a.event, a.to);
    EXPECT_EQ(it->second, a.to) << to_string(a.event) << " leads to two statuses";
    for (const StepTransition& b : step_transitions()) {
      EXPECT_FALSE(&a != &b && a.event == b.event && *a.from == *b.from)
          << to_string(*a.from) << " on " << to_string(a.event) << " is listed twice";
    }
    EXPECT_EQ(next_status(*a.from, a.event), a.to);
  }
}

// What rolling back leaves, and what a step skipped or a unit that failed comes to, never
// changes again.
TEST(StepMachine, NoRowLeavesAStatusRollingBackLeaves) {
  for (StepStatus s : {StepStatus::kCompensated, StepStatus::kUndone, StepStatus::kSkipped,
                       StepStatus::kUnitFailed}) {
    for (const StepTransition& row : step_transitions()) {
      EXPECT_FALSE(next_status(s, row.event)) << to_string(s) << " on " << to_string(row.event);
    }
  }
}

TEST(StepMachine, EveryStatusIsReachedFromPending) {
  std::map<StepStatus, bool> reached{{StepStatus::kPending, true}};
  for (bool grew = true; grew;) {
    grew = false;
    for (const StepTransition& row : step_transitions()) {
      if (reached.count(*row.from) && !reached.count(row.to)) grew = reached[row.to] = true;
    }
  }
  for (StepStatus s : kAll) EXPECT_TRUE(reached.count(s)) << to_string(s);
}

TEST(StepMachine, AdvanceFollowsTheTableAndCountsTheRow) {
  StepRecord rec;
  const std::vector<std::uint64_t> before = step_transitions_taken();
  advance(rec, StepEvent::kStart);
  EXPECT_EQ(rec.status, StepStatus::kRunning);
  advance(rec, StepEvent::kRetryLater);
  EXPECT_EQ(rec.status, StepStatus::kRetryScheduled);
  advance(rec, StepEvent::kStart);
  advance(rec, StepEvent::kFail);
  EXPECT_EQ(rec.status, StepStatus::kFailed);
  advance(rec, StepEvent::kCompensate);
  EXPECT_EQ(rec.status, StepStatus::kCompensated);
  const std::vector<std::uint64_t> after = step_transitions_taken();
  std::uint64_t more = 0;
  for (std::size_t k = 0; k < after.size(); ++k) more += after[k] - before[k];
  EXPECT_EQ(more, 5u);
}

TEST(StepMachine, AnIllegalEventIsCountedAndAppliedAllTheSame) {
  StepRecord rec;
  rec.status = StepStatus::kUndone;
  const std::uint64_t before = illegal_step_events();
  advance(rec, StepEvent::kStart);
  ++reactor_test::deliberate_illegal_events;
  EXPECT_EQ(rec.status, StepStatus::kRunning);
  EXPECT_EQ(illegal_step_events(), before + 1);
}

}  // namespace
}  // namespace reactor
