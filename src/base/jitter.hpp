// Jitter: a uniformly random extra delay in [0, max], for retry backoff and
// lease-contention snoozes. Thread-safe; seeded so tests can pin it.
#pragma once

#include <mutex>
#include <random>

#include "reactor/value.hpp"

namespace reactor {

class Jitter {
 public:
  explicit Jitter(std::uint64_t seed) : rng_(seed) {}

  Duration operator()(Duration max) {
    if (max <= Duration::zero()) return Duration::zero();
    std::lock_guard lock(mu_);
    std::uniform_int_distribution<Duration::rep> dist(0, max.count());
    return Duration(dist(rng_));
  }

 private:
  std::mutex mu_;
  std::mt19937_64 rng_;
};

}  // namespace reactor
