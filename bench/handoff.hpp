// reactor-bench handoff: how long a hand-off takes (issue 18), through `reactor-bench worker`
// child processes on SQLite or Redis. Runs BenchHandOff one after another from this process
// (each waits for the last to end, so no run queues behind another) and reads back, per run,
// the time from the caller's last step finishing to the worker's first step starting.
#pragma once

#include <string>

namespace reactor_bench {

struct HandOffOptions {
  int runs = 300;
  int workers = 2;
  std::string storage;  // sqlite:// or redis://; empty: a scratch SQLite file
  std::string dir;
  double timeout_s = 300;
};

// 0 when every run handed off and completed.
int run_hand_off(const HandOffOptions& options);

}  // namespace reactor_bench
