// Execution: what every level of one run tree shares while it executes — the
// root run, the lock that guards it, the clock, observers and options.
#pragma once

#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <random>
#include <string>
#include <vector>

#include "execution/observer_hub.hpp"
#include "execution/thread_pool.hpp"
#include "reactor/clock.hpp"
#include "reactor/engine.hpp"
#include "reactor/run.hpp"

namespace reactor {

class Execution {
 public:
  Execution(Run& root, Clock& clock, ObserverHub observers, const RunOptions& options,
            ThreadPool& pool, std::uint64_t jitter_seed);

  Run& root() { return root_; }
  Clock& clock() { return clock_; }
  const ObserverHub& observers() const { return observers_; }
  const RunOptions& options() const { return options_; }
  ThreadPool& pool() { return pool_; }

  // Guards every field of every Run in the tree. Step bodies, user rollback
  // code and observers run without it.
  std::mutex& mutex() { return mu_; }

  std::int64_t now_ms() const { return to_unix_ms(clock_.now()); }

  // Appends to the root's trace. Caller holds mutex().
  void trace(TraceType type, const std::string& step, int attempt, std::string outcome,
             std::string message = {});

  // Hands the root to the checkpoint hook. Caller holds mutex(). Once a
  // checkpoint is refused the whole tree stops where it is (stopped()).
  void checkpoint();
  bool stopped() const { return stopped_.load(std::memory_order_relaxed); }

  // Uniform in [0, max]. Thread-safe.
  Duration jitter(Duration max);

 private:
  Run& root_;
  Clock& clock_;
  ObserverHub observers_;
  const RunOptions& options_;
  ThreadPool& pool_;
  std::mutex mu_;
  std::atomic<bool> stopped_{false};
  std::mutex rng_mu_;
  std::mt19937_64 rng_;
};

}  // namespace reactor
