// GET /metrics of the dashboard: what the store holds, read on every scrape — its queues' depth
// and oldest due job (those of the reactors registered here) and its root runs by status.
// A worker's /metrics reports what happens in it; this one what any worker would find.
#include "engine/queue_metrics.hpp"
#include "web/dashboard/api.hpp"

namespace reactor::web {

namespace {

void collect(MetricsRegistry& r, Api& api) {
  collect_queue_metrics(r, *api.engine.backend(), registered_queues(api.engine));
  Result<StatusCounts> counts = count_by_status(api.inspector, RunFilter{}, all_run_statuses());
  if (!counts.ok()) {
    r.add("reactor_stored_runs_failures_total", {});
    return;
  }
  for (const auto& [status, n] : *counts) {
    r.set("reactor_stored_runs", {to_string(status)}, static_cast<double>(n));
  }
}

}  // namespace

void add_store_metrics(MetricsRegistry& registry, Api& api) {
  declare_queue_metrics(registry);
  registry.gauge("reactor_stored_runs", "Root runs in the store, by status.", {"status"});
  registry.counter("reactor_stored_runs_failures_total",
                   "Scrapes whose run counts the store refused.");
  registry.add_collector([&api](MetricsRegistry& r) { collect(r, api); });
}

}  // namespace reactor::web
