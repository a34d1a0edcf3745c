// reactor-bench w1: W1 of the peers' WORKLOADS.md on SQLite, 2,000 five-step
// sagas through `reactor-bench worker` child processes.
#pragma once

#include <string>

namespace reactor_bench {

struct W1Options {
  int sagas = 2000;
  int steps = 5;
  int workers = 2;
  int step_ms = 0;
  std::string storage;  // sqlite URL of an empty store; empty: a scratch file under dir
  std::string dir;
  double timeout_s = 600;
};

struct W1Result {
  bool ok = false;    // every saga completed with counter == steps
  std::string error;  // why not
  std::string storage;
  std::string file_system;
  int sagas = 0;
  int steps = 0;
  int workers = 0;
  double enqueue_s = 0;  // t0 → the last bulk commit returned
  double wall_s = 0;     // t0 → the last saga's terminal commit
  double sagas_per_s = 0;
  double steps_per_s = 0;
  double latency_p50_ms = 0;  // t_enq → terminal commit, from the stored records
  double latency_p99_ms = 0;
  double worker_cpu_ms_per_step = -1;   // utime+stime of all workers / steps
  double worker_written_per_step = -1;  // bytes the workers wrote / steps
};

W1Result measure_w1(const W1Options& options);
void print_w1(const W1Result& r);

// The subcommand: measures, prints; 0 when every saga ended as W1 requires.
int run_w1(const W1Options& options);

}  // namespace reactor_bench
