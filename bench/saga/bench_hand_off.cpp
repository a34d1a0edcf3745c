#include "saga/bench_hand_off.hpp"

#include <chrono>

namespace reactor_bench {

using namespace reactor;

namespace {

std::int64_t unix_us() {
  return std::chrono::duration_cast<std::chrono::microseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

}  // namespace

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
