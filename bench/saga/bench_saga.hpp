// BenchSaga: the saga of the whole-process benchmarks (W1 of the peers'
// WORKLOADS.md): a chain of steps s1..sN. Step k receives step k-1's state
// (step 1 the inputs) and returns it with `counter` one higher, so the final
// counter proves every step ran once, in order, on the state stored before it.
// Every benchmark of reactor-bench that runs sagas, on SQLite or on Redis,
// runs exactly this work.
//
// With a BenchRecord (the peer harness's Redis, from BENCH_REDIS_*), the step
// bodies also do the harness's writes (WORKLOADS.md): the last step pushes
// the saga's completion record to bench:done, and with BENCH_INSTRUMENT=1
// every step logs its start and end to bench:exec.
#pragma once

#include <memory>
#include <reactor/reactor.hpp>

#include "saga/bench_record.hpp"

namespace reactor_bench {

inline constexpr const char* kBenchSagaName = "BenchSaga";

struct BenchSagaOptions {
  int steps = 5;    // BENCH_STEPS
  int step_ms = 0;  // BENCH_STEP_MS: each step body sleeps this long
  // The peer harness's bench:* writes; nullptr: none.
  std::shared_ptr<BenchRecord> record;

  // BENCH_STEPS, BENCH_STEP_MS and the BenchRecord from the environment
  // (unset: the defaults, no record).
  static BenchSagaOptions from_env();
};

// The initial state of saga `index`:
// {"saga": "s000042", "counter": 0, "t_enq": t_enq_ms, "pad": "xxx…" (pad_length x)}.
reactor::Value bench_saga_input(int index, double t_enq_ms, int pad_length = 140);

// The saga's id, "s000042", as bench_saga_input writes it.
std::string bench_saga_id(int index);

// Steps s1..s<options.steps>; returns the last step's state. A step handed a
// state whose counter is not k-1 fails (not retryable), naming the saga.
reactor::Definition bench_saga(const BenchSagaOptions& options);

// Registers bench_saga(options) under kBenchSagaName.
void register_bench_saga(reactor::Registry& registry, const BenchSagaOptions& options);

}  // namespace reactor_bench
