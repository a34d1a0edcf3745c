// BenchResume: the saga of `reactor-bench resume`. Interrupt "go" pauses the run at once; step
// "after" returns the time it started (Unix microseconds on this host's clock), so the stored
// run says how long a resume took to reach a worker: the claim's commit, the queue, the fetch.
#pragma once

#include <reactor/reactor.hpp>

namespace reactor_bench {

inline constexpr const char* kBenchResumeName = "BenchResume";

reactor::Definition bench_resume();

void register_bench_resume(reactor::Registry& registry);

}  // namespace reactor_bench
