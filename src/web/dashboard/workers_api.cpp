// GET /api/workers (the page's Workers view): each queue's depth and the age of its oldest due
// job, the live workers seen through their leases, the sweeper's last pass, and how many runs
// are running, waiting, paused or scheduled. The queues are those of the reactors registered here.
#include <set>

#include "reactor/worker.hpp"
#include "web/dashboard/api.hpp"

namespace reactor::web {

namespace {

constexpr std::size_t kRunningRunsRead = 500;  // bounds the leases one request reads

std::vector<std::string> registered_queues(const Engine& engine) {
  std::set<std::string> queues;
  for (const std::string& name : engine.registry().names()) queues.insert(engine.queue_for(name));
  return {queues.begin(), queues.end()};
}

Value queues_json(const std::vector<QueueStats>& stats, const WorkersView& view) {
  Value out = Value::array();
  for (const QueueStats& q : stats) {
    const auto served = view.served_by.find(q.queue);
    const double age = q.oldest_due_at_ms ? (q.now_ms - q.oldest_due_at_ms) / 1000.0 : 0.0;
    out.push_back(
        {{"queue", q.queue},
         {"ready", q.ready},
         {"delayed", q.delayed},
         {"in_flight", q.in_flight},
         {"oldest_due_age_seconds", age > 0 ? age : 0.0},
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
  Value counts = Value::object();
  for (RunStatus s :
       {RunStatus::kRunning, RunStatus::kWaiting, RunStatus::kPaused, RunStatus::kScheduled}) {
    RunFilter filter;
    filter.status = s;
    Result<std::size_t> n = inspector.count_runs(filter);
    if (!n.ok()) return n.status();
    counts[to_string(s)] = *n;
  }
  return counts;
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
