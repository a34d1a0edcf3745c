#include "saga/bench_hand_off.hpp"

#include "saga/unix_time.hpp"

namespace reactor_bench {

using namespace reactor;

Definition bench_hand_off() {
  return Builder(kBenchHandOffName)
      .step("caller", [](const Args&) { return Success(unix_us()); })
      .step("worker", [](const Args&) { return Success(unix_us()); })
      .wait_for("caller")
      .background_after("caller")
      .build();
}

void register_bench_hand_off(Registry& registry) { registry.add(bench_hand_off()); }

}  // namespace reactor_bench
