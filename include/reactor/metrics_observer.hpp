// MetricsObserver: an Observer that counts the life of runs in a MetricsRegistry
// (reactor/metrics.hpp; every metric it feeds is listed in docs/observability.md, "Metrics"): runs
// started and finished, run and step durations, step attempts, retries, compensations, undos,
// re-executions after a crash and lease takeovers. Labels: reactor, step, status, outcome — never a
// run id.
//
//   auto metrics = std::make_shared<reactor::MetricsRegistry>();
//   reactor::EngineOptions options{.backend = store};
//   reactor::add_metrics(options, metrics);  // this observer in options.observers
//
// Durations are measured on the steady clock of this process, from the start event to the
// end event it saw: a run started in one process and finished in another has no run duration.
//
// Thread safety: shared by every run of its engine; every hook may be called at once.
#pragma once

#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "reactor/metrics.hpp"
#include "reactor/observer.hpp"

namespace reactor {

class MetricsObserver final : public Observer {
 public:
  // Declares its families in `registry` (which it shares).
  explicit MetricsObserver(std::shared_ptr<MetricsRegistry> registry);

  void on_run_start(const EventContext&, const Value& redacted_inputs) override;
  void on_run_complete(const EventContext&, RunStatus status) override;
  void on_run_fail(const EventContext&, const RunError& error) override;
  void on_step_start(const EventContext&) override;
  void on_step_complete(const EventContext&, Outcome outcome) override;
  void on_step_fail(const EventContext&, const std::string& message) override;
  void on_step_retry(const EventContext&, Duration delay, const std::string& message) override;
  void on_compensate_complete(const EventContext&) override;
  void on_compensate_fail(const EventContext&, const std::string& message) override;
  void on_undo_complete(const EventContext&) override;
  void on_undo_fail(const EventContext&, const std::string& message) override;
  void on_step_interrupted(const EventContext&) override;
  void on_lease_takeover(const EventContext&) override;

 private:
  using Clock = std::chrono::steady_clock;
  void run_finished(const EventContext& ctx, const std::string& status);
  void attempt_ended(const EventContext& ctx, const char* outcome);
  // Seconds since the start noted under `key`, which is forgotten; negative when none was.
  double take_elapsed(const std::string& key);

  std::shared_ptr<MetricsRegistry> registry_;
  std::mutex mu_;
  std::map<std::string, Clock::time_point> started_;  // run id / run id + step + attempt
};

}  // namespace reactor
