// reactor-bench resume: what an interrupt costs (issue 24), through `reactor-bench worker` child
// processes on SQLite or Redis.
//  - Resume latency: BenchResume runs one after another, each paused at its interrupt; from
//    Engine::resume_interrupt returning in this process to the step after the interrupt
//    starting in a worker (p50, p99).
//  - What pausing costs idle workers: their store requests per second over a window with no run
//    paused, then with `paused` runs paused (their own count, printed when they stop: Redis
//    only; SQLite has no server to count requests of).
#pragma once

#include <string>

namespace reactor_bench {

struct ResumeBenchOptions {
  int runs = 1000;
  int workers = 2;
  int paused = 100000;  // runs paused for the idle comparison; 0: skip it
  double idle_s = 5;    // each idle window
  std::string storage;  // sqlite:// or redis://; empty: a scratch SQLite file
  std::string dir;
  double timeout_s = 600;
};

// 0 when every run resumed and completed (and, for the idle comparison, every run paused).
int run_resume(const ResumeBenchOptions& options);

}  // namespace reactor_bench
