// BenchHandOff: the saga of `reactor-bench handoff`. Step "caller" runs in the caller and
// returns the time it finished; background_after("caller") hands the rest to a worker, whose
// step "worker" returns the time it started. Both are Unix microseconds on this host's clock,
// so the stored run says how long the hand-off took: the hand-off commit, the queue, the fetch.
#pragma once

#include <reactor/reactor.hpp>

namespace reactor_bench {

inline constexpr const char* kBenchHandOffName = "BenchHandOff";

reactor::Definition bench_hand_off();

void register_bench_hand_off(reactor::Registry& registry);

}  // namespace reactor_bench
