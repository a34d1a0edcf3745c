#include "reactor/run_status.hpp"

#include <array>
#include <stdexcept>
#include <utility>

namespace reactor {

namespace {

// One table per enum, in declaration order, serves both directions; the names are stored in run
// records, so they never change once written.
constexpr std::array<std::pair<RunStatus, const char*>, 12> kRunStatusNames{{
    {RunStatus::kPending, "pending"},
    {RunStatus::kEnqueued, "enqueued"},
    {RunStatus::kRunning, "running"},
    {RunStatus::kWaiting, "waiting"},
    {RunStatus::kRollingBack, "rolling_back"},
    {RunStatus::kCompleted, "completed"},
    {RunStatus::kFailed, "failed"},
    {RunStatus::kHalted, "halted"},
    {RunStatus::kQuarantined, "quarantined"},
    {RunStatus::kScheduled, "scheduled"},
    {RunStatus::kPaused, "paused"},
    {RunStatus::kCancelled, "cancelled"},
}};

constexpr std::array<std::pair<StepStatus, const char*>, 12> kStepStatusNames{{
    {StepStatus::kPending, "pending"},
    {StepStatus::kRunning, "running"},
    {StepStatus::kRetryScheduled, "retry_scheduled"},
    {StepStatus::kCompleted, "completed"},
    {StepStatus::kSkipped, "skipped"},
    {StepStatus::kHalted, "halted"},
    {StepStatus::kFailed, "failed"},
    {StepStatus::kCompensated, "compensated"},
    {StepStatus::kUndone, "undone"},
    {StepStatus::kDispatched, "dispatched"},
    {StepStatus::kUnitFailed, "unit_failed"},
    {StepStatus::kPaused, "paused"},
}};

template <typename Enum, std::size_t N>
const char* name_of(const std::array<std::pair<Enum, const char*>, N>& table, Enum value) {
  for (const auto& [e, name] : table) {
    if (e == value) return name;
  }
  return "unknown";
}

template <typename Enum, std::size_t N>
Enum value_of(const std::array<std::pair<Enum, const char*>, N>& table, const std::string& name,
              const char* what) {
  for (const auto& [e, n] : table) {
    if (name == n) return e;
  }
  throw std::invalid_argument(std::string("unknown ") + what + " '" + name + "'");
}

}  // namespace

const char* to_string(RunStatus s) { return name_of(kRunStatusNames, s); }

const std::vector<RunStatus>& all_run_statuses() {
  static const std::vector<RunStatus> kAll = [] {
    std::vector<RunStatus> all;
    for (const auto& [status, name] : kRunStatusNames) all.push_back(status);
    return all;
  }();
  return kAll;
}

RunStatus run_status_from_string(const std::string& s) {
  return value_of(kRunStatusNames, s, "run status");
}

bool is_terminal(RunStatus s) {
  switch (s) {
    case RunStatus::kCompleted:
    case RunStatus::kFailed:
    case RunStatus::kHalted:
    case RunStatus::kQuarantined:
    case RunStatus::kCancelled:
      return true;
    default:
      return false;
  }
}

const char* to_string(StepStatus s) { return name_of(kStepStatusNames, s); }

StepStatus step_status_from_string(const std::string& s) {
  return value_of(kStepStatusNames, s, "step status");
}

}  // namespace reactor
