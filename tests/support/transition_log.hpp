// The rows of the run's and the step's state machines (src/base/run_machine.hpp,
// step_machine.hpp) each test process took, added
// to the file $REACTOR_TRANSITION_LOG when its tests end (ctest runs each test in a process of
// its own: each appends one line). scripts/check_transitions.sh sums the lines and fails on a
// row the suite never took, or on any illegal event. Include it in one file of a test binary.
#pragma once

#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <span>
#include <string>
#include <vector>

#include "base/run_machine.hpp"
#include "base/step_machine.hpp"

namespace reactor_test {

// Illegal events a test sends on purpose (test_run_machine.cpp), left out of the count.
inline std::uint64_t deliberate_illegal_events = 0;

// "<machine>from/event/to=<times> " for each row of a table.
template <class Row>
std::string rows_taken(const std::string& machine, std::span<const Row> rows,
                       const std::vector<std::uint64_t>& taken, const char* wildcard) {
  std::string out;
  for (std::size_t k = 0; k < rows.size(); ++k) {
    out += machine + (rows[k].from ? to_string(*rows[k].from) : wildcard) + "/" +
           to_string(rows[k].event) + "/" + to_string(rows[k].to) + "=" + std::to_string(taken[k]) +
           " ";
  }
  return out;
}

class TransitionLog : public ::testing::Environment {
 public:
  void TearDown() override {
    const char* path = std::getenv("REACTOR_TRANSITION_LOG");
    if (path == nullptr || *path == '\0') return;
    // "run:pending/enqueue/enqueued=3 … step:pending/start/running=5 … illegal=0": one line,
    // one write, appended.
    std::string line =
        rows_taken("run:", reactor::run_transitions(), reactor::run_transitions_taken(), "live") +
        rows_taken("step:", reactor::step_transitions(), reactor::step_transitions_taken(), "any");
    const std::uint64_t illegal =
        reactor::illegal_run_events() + reactor::illegal_step_events() - deliberate_illegal_events;
    line += "illegal=" + std::to_string(illegal) + "\n";
    const int fd = ::open(path, O_WRONLY | O_APPEND | O_CREAT, 0644);
    if (fd < 0) return;
    (void)!::write(fd, line.data(), line.size());
    ::close(fd);
  }
};

inline ::testing::Environment* const kTransitionLog =
    ::testing::AddGlobalTestEnvironment(new TransitionLog);

}  // namespace reactor_test
