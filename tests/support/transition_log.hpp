// The rows of the run's state machine (src/base/run_machine.hpp) each test process took, added
// to the file $REACTOR_TRANSITION_LOG when its tests end (ctest runs each test in a process of
// its own: each appends one line). scripts/check_transitions.sh sums the lines and fails on a
// row the suite never took, or on any illegal event. Include it in one file of a test binary.
#pragma once

#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <string>

#include "base/run_machine.hpp"

namespace reactor_test {

// Illegal events a test sends on purpose (test_run_machine.cpp), left out of the count.
inline std::uint64_t deliberate_illegal_events = 0;

class TransitionLog : public ::testing::Environment {
 public:
  void TearDown() override {
    const char* path = std::getenv("REACTOR_TRANSITION_LOG");
    if (path == nullptr || *path == '\0') return;
    // "pending/enqueue/enqueued=3 … illegal=0": one line, one write, appended.
    std::string line;
    const auto rows = reactor::run_transitions();
    const auto taken = reactor::run_transitions_taken();
    for (std::size_t k = 0; k < rows.size(); ++k) {
      line += std::string(rows[k].from ? to_string(*rows[k].from) : "live") + "/" +
              to_string(rows[k].event) + "/" + to_string(rows[k].to) + "=" +
              std::to_string(taken[k]) + " ";
    }
    line += "illegal=" + std::to_string(reactor::illegal_run_events() - deliberate_illegal_events) +
            "\n";
    const int fd = ::open(path, O_WRONLY | O_APPEND | O_CREAT, 0644);
    if (fd < 0) return;
    (void)!::write(fd, line.data(), line.size());
    ::close(fd);
  }
};

inline ::testing::Environment* const kTransitionLog =
    ::testing::AddGlobalTestEnvironment(new TransitionLog);

}  // namespace reactor_test
