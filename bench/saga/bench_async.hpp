// The sagas of `reactor-bench async` (bench/README.md, "Async units").
//
// BenchAsync: async_step "unit" sleeps its input unit_ms, then returns the time it finished;
// step "reader" reads it — so its run parks in a worker until the unit is done — and returns
// that time beside the time it started. Unix microseconds on this host's clock: the stored run
// says how long the parked reader took to resume.
//
// BenchDispatchBase and BenchDispatchUnit: step "x", then "y" — a plain step, or an async_step
// nobody reads — and background_after("y"), then "z" in a worker. Run in a caller, they differ by
// the unit's dispatch alone: the difference of their store requests is what a dispatch costs.
#pragma once

#include <reactor/reactor.hpp>

namespace reactor_bench {

inline constexpr const char* kBenchAsyncName = "BenchAsync";
inline constexpr const char* kBenchDispatchBaseName = "BenchDispatchBase";
inline constexpr const char* kBenchDispatchUnitName = "BenchDispatchUnit";

void register_bench_async(reactor::Registry& registry);

}  // namespace reactor_bench
