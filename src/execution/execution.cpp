#include "execution/execution.hpp"

namespace reactor {

Execution::Execution(Run& root, Clock& clock, ObserverHub observers, const RunOptions& options,
                     ThreadPool& pool, std::uint64_t jitter_seed)
    : root_(root),
      clock_(clock),
      observers_(std::move(observers)),
      options_(options),
      pool_(pool),
      rng_(jitter_seed) {}

void Execution::trace(TraceType type, const std::string& step, int attempt, std::string outcome,
                      std::string message) {
  root_.trace.push_back(
      TraceEvent{type, step, attempt, std::move(outcome), std::move(message), now_ms()});
}

void Execution::checkpoint() {
  root_.updated_at_ms = now_ms();
  if (!options_.on_checkpoint || stopped()) return;
  Status s = options_.on_checkpoint(root_);
  if (!s.ok()) stopped_.store(true, std::memory_order_relaxed);
}

Duration Execution::jitter(Duration max) {
  if (max <= Duration::zero()) return Duration::zero();
  std::lock_guard lock(rng_mu_);
  std::uniform_int_distribution<Duration::rep> dist(0, max.count());
  return Duration(dist(rng_));
}

}  // namespace reactor
