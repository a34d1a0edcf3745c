#include "engine/worker_metrics.hpp"

#include "engine/queue_metrics.hpp"
#include "reactor/metered_backend.hpp"
#include "reactor/metrics_observer.hpp"

namespace reactor {

namespace {

void declare(MetricsRegistry& r) {
  r.counter("reactor_sweeper_passes_total", "Sweeper passes this worker made.");
  r.counter("reactor_sweeper_runs_requeued_total",
            "Runs nobody served that the sweeper put back in the queue.");
  r.counter("reactor_sweeper_runs_purged_total", "Expired runs the sweeper purged.");
  r.gauge("reactor_sweeper_last_pass_timestamp_seconds",
          "When this worker's last sweeper pass ended (unix seconds); 0: none yet.");
  declare_queue_metrics(r);
}

}  // namespace

WorkerMetrics::WorkerMetrics(MetricsRegistry& registry, const Worker& worker, Backend& backend)
    : link_(std::make_shared<Link>()) {
  declare(registry);
  link_->worker = &worker;
  link_->backend = &backend;
  registry.add_collector([link = link_](MetricsRegistry& r) {
    std::lock_guard lock(link->mu);
    if (link->worker == nullptr) return;
    const WorkerStats s = link->worker->stats();
    r.set("reactor_sweeper_passes_total", {}, static_cast<double>(s.sweeps));
    r.set("reactor_sweeper_runs_requeued_total", {}, static_cast<double>(s.requeued));
    r.set("reactor_sweeper_runs_purged_total", {}, static_cast<double>(s.purged));
    r.set("reactor_sweeper_last_pass_timestamp_seconds", {},
          static_cast<double>(s.last_sweep_ms) / 1000.0);
    collect_queue_metrics(r, *link->backend, link->worker->queues());
  });
}

WorkerMetrics::~WorkerMetrics() {
  std::lock_guard lock(link_->mu);
  link_->worker = nullptr;
  link_->backend = nullptr;
}

void add_metrics(EngineOptions& engine_options, std::shared_ptr<MetricsRegistry> metrics) {
  engine_options.observers.insert(engine_options.observers.begin(),
                                  std::make_shared<MetricsObserver>(metrics));
  if (engine_options.backend) {
    engine_options.backend =
        std::make_shared<MeteredBackend>(std::move(engine_options.backend), metrics);
  }
}

Result<std::unique_ptr<MetricsServer>> serve_metrics(Engine& engine, WorkerOptions& options) {
  if (!options.metrics) options.metrics = std::make_shared<MetricsRegistry>();
  auto served = MetricsServer::start(options.metrics, options.metrics_listen);
  if (!served.ok()) {
    engine.logger().log(LogLevel::kError, "worker: " + served.status().to_string());
  }
  return served;
}

}  // namespace reactor
