// reactor-bench worker: the worker of the W1 benchmark's child processes and
// of the peer contender. It serves BenchSaga (BENCH_STEPS, BENCH_STEP_MS and
// the harness's BENCH_REDIS_* from the environment) through the loop of
// `reactor worker` (src/cli/worker_loop.hpp), with the same options.
#pragma once

#include <string>

#include "cli/worker_loop.hpp"

namespace reactor_bench {

struct BenchWorkerOptions {
  std::string storage;
  reactor::cli::WorkerLoopOptions loop;
  // Once the worker can take work, SADD its pid to bench:ready on the
  // harness's Redis (BENCH_REDIS_*).
  bool bench_ready = false;
};

// Serves until SIGTERM/SIGINT; 2 when the storage cannot be opened or an
// option is wrong.
int run_worker(const BenchWorkerOptions& options);

}  // namespace reactor_bench
