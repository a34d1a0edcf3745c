// reactor-bench dashboard: how fast the dashboard answers with a large store (issue 26), over
// HTTP on loopback, on SQLite or Redis.
//  - The runs list's first page (GET /api/runs, 50 runs and the counts per status) with `runs`
//    runs stored.
//  - The run page (GET /api/runs/<id>) of a completed fan-out map of `elements` elements.
// Each is asked `requests` times; p50 and p99 are printed.
#pragma once

#include <string>

namespace reactor_bench {

struct DashboardBenchOptions {
  int runs = 100000;     // runs stored besides the map's
  int elements = 10000;  // the map's elements
  int requests = 50;     // of each page
  std::string storage;   // sqlite:// or redis://; empty: a scratch SQLite file
  std::string dir;
};

// 0 when the store was seeded, the map completed and every request answered 200.
int run_dashboard_bench(const DashboardBenchOptions& options);

}  // namespace reactor_bench
