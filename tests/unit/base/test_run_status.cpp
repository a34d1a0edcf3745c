#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "reactor/run_status.hpp"

namespace reactor {
namespace {

TEST(RunStatusTest, NamesRoundTrip) {
  const RunStatus all[] = {RunStatus::kPending,   RunStatus::kEnqueued,    RunStatus::kRunning,
                           RunStatus::kWaiting,   RunStatus::kRollingBack, RunStatus::kCompleted,
                           RunStatus::kFailed,    RunStatus::kHalted,      RunStatus::kQuarantined,
                           RunStatus::kScheduled, RunStatus::kPaused,      RunStatus::kCancelled};
  const char* names[] = {"pending",      "enqueued",  "running", "waiting",
                         "rolling_back", "completed", "failed",  "halted",
                         "quarantined",  "scheduled", "paused",  "cancelled"};
  ASSERT_EQ(all_run_statuses().size(), std::size(all));
  for (std::size_t i = 0; i < std::size(all); ++i) {
    EXPECT_STREQ(to_string(all[i]), names[i]);
    EXPECT_EQ(run_status_from_string(names[i]), all[i]);
  }
}

TEST(RunStatusTest, TerminalStatuses) {
  EXPECT_TRUE(is_terminal(RunStatus::kCompleted));
  EXPECT_TRUE(is_terminal(RunStatus::kFailed));
  EXPECT_TRUE(is_terminal(RunStatus::kHalted));
  EXPECT_TRUE(is_terminal(RunStatus::kQuarantined));
  EXPECT_FALSE(is_terminal(RunStatus::kPending));
  EXPECT_FALSE(is_terminal(RunStatus::kEnqueued));
  EXPECT_FALSE(is_terminal(RunStatus::kRunning));
  EXPECT_FALSE(is_terminal(RunStatus::kWaiting));
  EXPECT_FALSE(is_terminal(RunStatus::kRollingBack));
}

TEST(RunStatusTest, StepStatusNamesRoundTrip) {
  const StepStatus all[] = {
      StepStatus::kPending,   StepStatus::kRunning,     StepStatus::kRetryScheduled,
      StepStatus::kCompleted, StepStatus::kSkipped,     StepStatus::kHalted,
      StepStatus::kFailed,    StepStatus::kCompensated, StepStatus::kUndone};
  const char* names[] = {"pending", "running", "retry_scheduled", "completed", "skipped",
                         "halted",  "failed",  "compensated",     "undone"};
  for (std::size_t i = 0; i < std::size(all); ++i) {
    EXPECT_STREQ(to_string(all[i]), names[i]);
    EXPECT_EQ(step_status_from_string(names[i]), all[i]);
  }
}

TEST(RunStatusTest, UnknownNamesThrow) {
  EXPECT_THROW(run_status_from_string("done"), std::invalid_argument);
  EXPECT_THROW(run_status_from_string("Completed"), std::invalid_argument);
  EXPECT_THROW(run_status_from_string(""), std::invalid_argument);
  EXPECT_THROW(step_status_from_string("retrying"), std::invalid_argument);
}

}  // namespace
}  // namespace reactor
