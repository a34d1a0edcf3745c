// BenchFan: the saga of W2 in the peers' WORKLOADS.md ("fan-out / fan-in") and
// of `reactor-bench map`: one run maps over M elements as a fan-out map, each
// element a job of its own yielding 2i + 1, and the collector sums them. Its
// items come a page at a time, so M = 100,000 never sits in one record.
//
// With a BenchRecord (the peer harness's Redis), the step after the map pushes
// the collector's record {"saga": "fan", "sum", "count", "t_enq", "t_done"} to
// bench:done.
#pragma once

#include <memory>
#include <reactor/reactor.hpp>

#include "saga/bench_record.hpp"

namespace reactor_bench {

inline constexpr const char* kBenchFanName = "BenchFan";

struct BenchFanOptions {
  int step_ms = 0;  // BENCH_STEP_MS: each element sleeps this long
  std::shared_ptr<BenchRecord> record;
  int claim = 32;  // BENCH_CLAIM: the map's claim_batch (1: each element a run)

  static BenchFanOptions from_env();
};

// Inputs: m (elements), batch (at most this many out at once), t_enq (when it
// was started, Unix ms). Its value: {"sum": m², "count": m}.
reactor::Definition bench_fan(const BenchFanOptions& options);

void register_bench_fan(reactor::Registry& registry, const BenchFanOptions& options);

}  // namespace reactor_bench
