#include "base/run_machine.hpp"

#include <array>
#include <atomic>

namespace reactor {

namespace {

using S = RunStatus;
using E = RunEvent;
constexpr std::optional<RunStatus> kAnyLive;  // any status that is not terminal

// The run's life. Read a row as "from, on event, to".
constexpr std::array kTable{
    RunTransition{S::kPending, E::kEnqueue, S::kEnqueued},
    RunTransition{S::kEnqueued, E::kDeliver, S::kPending},
    RunTransition{S::kPending, E::kStart, S::kRunning},
    RunTransition{S::kPending, E::kRejectInputs, S::kFailed},
    RunTransition{S::kRunning, E::kSuspend, S::kWaiting},
    RunTransition{S::kWaiting, E::kResume, S::kRunning},
    RunTransition{S::kRunning, E::kFail, S::kRollingBack},
    RunTransition{S::kRollingBack, E::kRolledBack, S::kFailed},
    RunTransition{S::kRunning, E::kComplete, S::kCompleted},
    RunTransition{S::kRunning, E::kHalt, S::kHalted},
    RunTransition{S::kRunning, E::kReplan, S::kEnqueued},
    RunTransition{kAnyLive, E::kFailOutright, S::kFailed},
    RunTransition{kAnyLive, E::kQuarantine, S::kQuarantined},
};

std::array<std::atomic<std::uint64_t>, kTable.size()> taken{};
std::atomic<std::uint64_t> illegal{0};

std::optional<std::size_t> row_of(RunStatus from, RunEvent event) {
  for (std::size_t k = 0; k < kTable.size(); ++k) {
    const RunTransition& row = kTable[k];
    if (row.event == event && (row.from ? *row.from == from : !is_terminal(from))) return k;
  }
  return std::nullopt;
}

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
  }
  return "unknown";
}

std::span<const RunTransition> run_transitions() { return kTable; }

std::optional<RunStatus> next_status(RunStatus from, RunEvent event) {
  if (auto k = row_of(from, event)) return kTable[*k].to;
  return std::nullopt;
}

void advance(Run& run, RunEvent event) {
  if (const std::optional<std::size_t> k = row_of(run.status, event)) {
    taken[*k].fetch_add(1, std::memory_order_relaxed);
    run.status = kTable[*k].to;
    return;
  }
  illegal.fetch_add(1, std::memory_order_relaxed);
  for (const RunTransition& row : kTable) {
    if (row.event == event) {
      run.status = row.to;
      return;
    }
  }
}

std::vector<std::uint64_t> run_transitions_taken() {
  std::vector<std::uint64_t> out;
  for (const auto& n : taken) out.push_back(n.load(std::memory_order_relaxed));
  return out;
}

std::uint64_t illegal_run_events() { return illegal.load(std::memory_order_relaxed); }

}  // namespace reactor
