// The gauges of a store's queues (depth by state, age of the oldest due job), read on every
// scrape: a worker's /metrics reports its own queues, the dashboard's those of its reactors.
#pragma once

#include <string>
#include <vector>

#include "reactor/backend.hpp"
#include "reactor/metrics.hpp"

namespace reactor {

// How long `q`'s oldest due job has been due, by the store's clock; 0 when none is.
double oldest_due_age_seconds(const QueueStats& q);

// Declares reactor_queue_jobs, reactor_queue_oldest_due_job_age_seconds and
// reactor_queue_stats_failures_total in `r` (again: a no-op).
void declare_queue_metrics(MetricsRegistry& r);
// Sets them from one queue_stats request; a store that refuses counts a failure and leaves the
// gauges as they were.
void collect_queue_metrics(MetricsRegistry& r, Backend& backend,
                           const std::vector<std::string>& queues);

}  // namespace reactor
