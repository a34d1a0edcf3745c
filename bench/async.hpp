// reactor-bench async: async units through `reactor-bench worker` child processes on SQLite or
// Redis (issue 18). Runs BenchAsync one after another from this process — each run parks in a
// worker while its unit runs — and reads back, per run, the time from the unit finishing to its
// parked reader resuming. Then runs BenchDispatchBase and BenchDispatchUnit in this process,
// counting their store requests: the difference is what one dispatch costs.
#pragma once

#include <string>

namespace reactor_bench {

struct AsyncOptions {
  int runs = 300;
  int workers = 2;
  int unit_ms = 20;     // how long each unit takes, so that its reader parks first
  std::string storage;  // sqlite:// or redis://; empty: a scratch SQLite file
  std::string dir;
  double timeout_s = 300;
};

// 0 when every run parked, resumed and completed.
int run_async(const AsyncOptions& options);

}  // namespace reactor_bench
