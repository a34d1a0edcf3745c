// MetricsRegistry: counters, gauges and histograms, each a family of series told apart by a
// fixed set of labels, rendered in the Prometheus text format 0.0.4 by exposition(). A worker
// serves it on /metrics (reactor/metrics_server.hpp, WorkerOptions::metrics_listen); any other
// HTTP server (the dashboard's) serves the same text by calling exposition().
//
//   auto metrics = std::make_shared<reactor::MetricsRegistry>();
//   metrics->counter("reactor_jobs_total", "Jobs handled.", {"queue"});
//   metrics->add("reactor_jobs_total", {"orders"});
//   std::string text = metrics->exposition();
//
// Labels are bounded by design: a label value is a reactor, a step, a queue, a status or an
// outcome, never a run id (each value makes a series that lives as long as the registry).
//
// Thread safety: every method may be called from any thread at once. Collectors
// (add_collector) run inside exposition(), on the scraping thread, one scrape at a time.
// Nothing is durable: the values live in this process.
#pragma once

#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace reactor {

class MetricsFamily;

class MetricsRegistry {
 public:
  MetricsRegistry();
  ~MetricsRegistry();
  MetricsRegistry(const MetricsRegistry&) = delete;
  MetricsRegistry& operator=(const MetricsRegistry&) = delete;

  // Declare a family. Declaring one again with the same type and labels is a no-op; a name
  // that is not a valid metric name, or declared again otherwise, throws std::invalid_argument.
  void counter(const std::string& name, const std::string& help,
               std::vector<std::string> labels = {});
  void gauge(const std::string& name, const std::string& help,
             std::vector<std::string> labels = {});
  // `buckets`: upper bounds, ascending; +Inf is implied.
  void histogram(const std::string& name, const std::string& help, std::vector<std::string> labels,
                 std::vector<double> buckets);

  // Updates a series, its label values in the family's label order. An undeclared name, a
  // call of another type's update, or a wrong number of label values throws
  // std::invalid_argument. Counters only go up: add() of a negative amount throws too.
  void add(const std::string& name, const std::vector<std::string>& label_values,
           double amount = 1);
  // Gauges; and counters whose total is read from a source that only grows (a worker's stats).
  void set(const std::string& name, const std::vector<std::string>& label_values, double value);
  void observe(const std::string& name, const std::vector<std::string>& label_values, double value);

  // A counter's or gauge's value, a histogram's observation count; 0 for a series not seen.
  double value(const std::string& name, const std::vector<std::string>& label_values) const;

  // Called at the start of every exposition() to bring collected values up to date (queue
  // depths read from the store). An exception it throws is swallowed: a scrape never fails.
  void add_collector(std::function<void(MetricsRegistry&)> collect);

  // Every family, in name order: # HELP, # TYPE, then its series (histograms as _bucket{le},
  // _sum, _count); label values escaped.
  std::string exposition();

 private:
  MetricsFamily& declare(const std::string& name, int type, const std::string& help,
                         std::vector<std::string> labels, std::vector<double> buckets);
  MetricsFamily& find(const std::string& name, int type) const;

  mutable std::mutex mu_;
  std::vector<std::unique_ptr<MetricsFamily>> families_;  // sorted by name
  std::mutex collect_mu_;
  std::vector<std::function<void(MetricsRegistry&)>> collectors_;
};

// Default histogram buckets for durations in seconds (5 ms .. 5 min).
const std::vector<double>& duration_buckets();

}  // namespace reactor
