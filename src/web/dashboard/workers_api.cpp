// GET /api/workers (the page's Workers view): each queue's depth and the age of its oldest due
// job, the live workers seen through their leases, the sweeper's last pass, and how many runs
// are running, waiting, paused or scheduled. The queues are those of the reactors registered here.
#include "engine/queue_metrics.hpp"
#include "reactor/worker.hpp"
#include "web/dashboard/api.hpp"

namespace reactor::web {

namespace {

constexpr std::size_t kRunningRunsRead = 500;  // bounds the leases one request reads

Value queues_json(const std::vector<QueueStats>& stats, const WorkersView& view) {
  Value out = Value::array();
  for (const QueueStats& q : stats) {
    const auto served = view.served_by.find(q.queue);
    out.push_back(
        {{"queue", q.queue},
         {"ready", q.ready},
         {"delayed", q.delayed},
         {"in_flight", q.in_flight},
         {"oldest_due_age_seconds", oldest_due_age_seconds(q)},
         {"served_by", served == view.served_by.end() ? Value() : Value(served->second)}});
  }
  return out;
}

Value workers_json(const WorkersView& view) {
  Value out = Value::array();
  for (const LiveWorker& w : view.workers) {
    out.push_back({{"worker", w.worker}, {"queues", w.queues}, {"runs", w.runs}});
  }
  return out;
}

Result<Value> waiting_counts(const Inspector& inspector) {
  Result<StatusCounts> counts = count_by_status(
      inspector, RunFilter{},
      {RunStatus::kRunning, RunStatus::kWaiting, RunStatus::kPaused, RunStatus::kScheduled});
  if (!counts.ok()) return counts.status();
  Value out = Value::object();
  for (const auto& [status, n] : *counts) out[to_string(status)] = n;
  return out;
}

}  // namespace

Reply workers(Api& api) {
  const std::vector<std::string> queues = registered_queues(api.engine);
  Result<std::vector<QueueStats>> stats = api.inspector.queue_stats(queues);
  if (!stats.ok()) return status_reply(stats.status());
  Result<WorkersView> view = api.inspector.workers(
      queues, kRunningRunsRead, WorkerOptions{}.sweep_interval, api.engine.clock().now());
  if (!view.ok()) return status_reply(view.status());
  Result<Value> counts = waiting_counts(api.inspector);
  if (!counts.ok()) return status_reply(counts.status());
  Value sweeper;
  if (view->last_sweep) {
    sweeper = {{"worker", view->last_sweep->worker}, {"at_ms", view->last_sweep->at_ms}};
  }
  return Reply{200, Value{{"queues", queues_json(*stats, *view)},
                          {"workers", workers_json(*view)},
                          {"sweeper", sweeper},
                          {"counts", *counts}}};
}

}  // namespace reactor::web
