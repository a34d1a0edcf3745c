// WorkerMetrics: a worker's sweeper passes and its queues' depths in a MetricsRegistry, collected
// on every scrape (docs/observability.md, "Metrics"). A store that fails to answer on a scrape
// counts reactor_queue_stats_failures_total and leaves the queue gauges as they were.
#pragma once

#include <memory>
#include <mutex>

#include "reactor/metrics.hpp"
#include "reactor/metrics_server.hpp"
#include "reactor/worker.hpp"

namespace reactor {

class WorkerMetrics {
 public:
  // Adds its collector to `registry`; it reads `worker` and `backend` until this is destroyed.
  WorkerMetrics(MetricsRegistry& registry, const Worker& worker, Backend& backend);
  ~WorkerMetrics();  // the collector reads nothing more

 private:
  struct Link {
    std::mutex mu;
    const Worker* worker = nullptr;
    Backend* backend = nullptr;
  };
  std::shared_ptr<Link> link_;
};

// Starts the MetricsServer of options.metrics_listen, making options.metrics when null. An
// error is told to the engine's Logger too.
Result<std::unique_ptr<MetricsServer>> serve_metrics(Engine& engine, WorkerOptions& options);

}  // namespace reactor
