// The sagas of `reactor-bench coordination` (bench/README.md, "Coordination"): one step "work"
// that sleeps its input step_ms and returns 1, in three variants that differ only by a lock on
// the input `key` — none (BenchCoordNone), around the step (BenchCoordStep: with_lock after the
// step, its key from the step's argument) and for the whole run (BenchCoordRun: with_lock before
// the first step, its key from the inputs). Distinct keys measure what a lock costs a step in
// store requests; one key for every run serialises them. Each body's start and end are kept, in
// this process, for the phase that served it to read back.
#pragma once

#include <reactor/reactor.hpp>
#include <vector>

namespace reactor_bench {

inline constexpr const char* kBenchCoordNoneName = "BenchCoordNone";
inline constexpr const char* kBenchCoordStepName = "BenchCoordStep";
inline constexpr const char* kBenchCoordRunName = "BenchCoordRun";

void register_bench_coordination(reactor::Registry& registry);

// When a body of this process ran: steady-clock microseconds.
struct BodyTime {
  std::int64_t start_us = 0, end_us = 0;
};
// The bodies that ran since the last call, in the order they ended.
std::vector<BodyTime> take_body_times();

}  // namespace reactor_bench
