// Reactor as a contender of the peer benchmark (bench/peers/reactor/contender):
// the producer of its workloads and the baseline of its W1 figure. Its worker
// is `reactor-bench worker --bench-ready` (worker.hpp).
#pragma once

#include <string>

namespace reactor_bench {

// reactor-bench peers-produce: starts BENCH_WORKLOAD's runs (W1, W3 in bulk;
// W4 one at a time, each after the last one's completion record) on
// BENCH_REDIS_URL and writes bench:meta, from the BENCH_* variables.
int run_peers_produce();

struct RedisCommitOptions {
  std::string storage;  // redis:// URL; keys go under the prefix reactor-bench-commit:
  int connections = 2;
  int sagas = 2000;  // runs per connection, each taking `steps` step commits
  int steps = 5;
};

// reactor-bench redis-commit: how many commit-script calls per second a Redis
// server takes from N connections, replaying the real step commits of a
// BenchSaga run; the limit that sets on W1.
int run_redis_commit(const RedisCommitOptions& options);

}  // namespace reactor_bench
