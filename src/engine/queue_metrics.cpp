#include "engine/queue_metrics.hpp"

namespace reactor {

double oldest_due_age_seconds(const QueueStats& q) {
  return q.oldest_due_at_ms > 0 && q.now_ms > q.oldest_due_at_ms
             ? static_cast<double>(q.now_ms - q.oldest_due_at_ms) / 1000.0
             : 0.0;
}

void declare_queue_metrics(MetricsRegistry& r) {
  r.gauge("reactor_queue_jobs", "Jobs per queue: ready (due), delayed (not due yet), in_flight.",
          {"queue", "state"});
  r.gauge("reactor_queue_oldest_due_job_age_seconds",
          "How long the oldest due job of the queue has been due; 0 when none is.", {"queue"});
  r.counter("reactor_queue_stats_failures_total", "Scrapes whose queue stats the store refused.");
}

void collect_queue_metrics(MetricsRegistry& r, Backend& backend,
                           const std::vector<std::string>& queues) {
  Result<std::vector<QueueStats>> stats = backend.queue_stats(queues);
  if (!stats.ok()) {
    r.add("reactor_queue_stats_failures_total", {});
    return;
  }
  for (const QueueStats& q : *stats) {
    r.set("reactor_queue_jobs", {q.queue, "ready"}, static_cast<double>(q.ready));
    r.set("reactor_queue_jobs", {q.queue, "delayed"}, static_cast<double>(q.delayed));
    r.set("reactor_queue_jobs", {q.queue, "in_flight"}, static_cast<double>(q.in_flight));
    r.set("reactor_queue_oldest_due_job_age_seconds", {q.queue}, oldest_due_age_seconds(q));
  }
}

}  // namespace reactor
