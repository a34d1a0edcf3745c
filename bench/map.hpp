// reactor-bench map: one BenchFan run (a fan-out map of M elements, W2 of the
// peers' WORKLOADS.md) through `reactor-bench worker` child processes, on
// SQLite or Redis. Figures from the store and the workers: elements/s, worker
// CPU and peak memory, and what each element cost the store (deliveries,
// commits, requests). With --scale, the same at two sizes and their ratio.
#pragma once

#include <string>

namespace reactor_bench {

struct MapOptions {
  int count = 2000;  // elements
  int batch = 50;    // at most this many out at once
  int claim = 32;    // elements a claim holds (claim_batch; 1: each element a run)
  int workers = 2;
  int threads = 1;  // per worker
  int step_ms = 0;
  int scale = 0;        // > 0: also run this many elements, and compare
  std::string storage;  // sqlite:// or redis://; empty: a scratch SQLite file
  std::string dir;
  double timeout_s = 900;
};

struct MapResult {
  bool ok = false;
  std::string error;
  std::string storage;
  int count = 0;
  double wall_s = 0;  // start → the run's terminal record
  double elements_per_s = 0;
  double worker_cpu_us_per_element = -1;
  double peak_rss_bytes = -1;  // the largest of one worker
  double deliveries_per_element = -1;
  double commits_per_element = -1;   // durable step commits, all workers
  double requests_per_element = -1;  // requests to the store (Redis), all workers
};

MapResult measure_map(const MapOptions& options, int count);

// The subcommand: measures (twice with --scale), prints; 0 when every run
// ended with the right sum.
int run_map(const MapOptions& options);

}  // namespace reactor_bench
