// The time the bench sagas stamp their steps with: Unix microseconds on this host's clock, so a
// stored run says how long passed between two steps run by different processes.
#pragma once

#include <chrono>
#include <cstdint>

namespace reactor_bench {

inline std::int64_t unix_us() {
  return std::chrono::duration_cast<std::chrono::microseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

}  // namespace reactor_bench
