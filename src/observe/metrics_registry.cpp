#include <algorithm>
#include <stdexcept>

#include "observe/metrics_family.hpp"
#include "reactor/metrics.hpp"

namespace reactor {

MetricsRegistry::MetricsRegistry() = default;
MetricsRegistry::~MetricsRegistry() = default;

const std::vector<double>& duration_buckets() {
  static const std::vector<double> kBuckets = {0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5,
                                               1,     2.5,  5,     10,   30,  60,   300};
  return kBuckets;
}

MetricsFamily& MetricsRegistry::declare(const std::string& name, int type, const std::string& help,
                                        std::vector<std::string> labels,
                                        std::vector<double> buckets) {
  const auto t = static_cast<MetricType>(type);
  std::lock_guard lock(mu_);
  auto it = std::lower_bound(families_.begin(), families_.end(), name,
                             [](const auto& f, const std::string& n) { return f->name() < n; });
  if (it != families_.end() && (*it)->name() == name) {
    if (!(*it)->same_shape(t, labels)) {
      throw std::invalid_argument("metric '" + name +
                                  "' declared again with another type or labels");
    }
    return **it;
  }
  auto family =
      std::make_unique<MetricsFamily>(name, t, help, std::move(labels), std::move(buckets));
  return **families_.insert(it, std::move(family));
}

MetricsFamily& MetricsRegistry::find(const std::string& name, int type) const {
  auto it = std::lower_bound(families_.begin(), families_.end(), name,
                             [](const auto& f, const std::string& n) { return f->name() < n; });
  if (it == families_.end() || (*it)->name() != name) {
    throw std::invalid_argument("metric '" + name + "' is not declared");
  }
  if (type >= 0 && static_cast<int>((*it)->type()) != type &&
      !(type == static_cast<int>(MetricType::kGauge) && (*it)->type() == MetricType::kCounter)) {
    throw std::invalid_argument("metric '" + name + "' is of another type");
  }
  return **it;
}

void MetricsRegistry::counter(const std::string& name, const std::string& help,
                              std::vector<std::string> labels) {
  declare(name, static_cast<int>(MetricType::kCounter), help, std::move(labels), {});
}

void MetricsRegistry::gauge(const std::string& name, const std::string& help,
                            std::vector<std::string> labels) {
  declare(name, static_cast<int>(MetricType::kGauge), help, std::move(labels), {});
}

void MetricsRegistry::histogram(const std::string& name, const std::string& help,
                                std::vector<std::string> labels, std::vector<double> buckets) {
  declare(name, static_cast<int>(MetricType::kHistogram), help, std::move(labels),
          std::move(buckets));
}

void MetricsRegistry::add(const std::string& name, const std::vector<std::string>& label_values,
                          double amount) {
  std::lock_guard lock(mu_);
  find(name, static_cast<int>(MetricType::kCounter)).add(label_values, amount);
}

void MetricsRegistry::set(const std::string& name, const std::vector<std::string>& label_values,
                          double value) {
  std::lock_guard lock(mu_);
  find(name, static_cast<int>(MetricType::kGauge)).set(label_values, value);
}

void MetricsRegistry::observe(const std::string& name, const std::vector<std::string>& label_values,
                              double value) {
  std::lock_guard lock(mu_);
  find(name, static_cast<int>(MetricType::kHistogram)).observe(label_values, value);
}

double MetricsRegistry::value(const std::string& name,
                              const std::vector<std::string>& label_values) const {
  std::lock_guard lock(mu_);
  return find(name, -1).value(label_values);
}

void MetricsRegistry::add_collector(std::function<void(MetricsRegistry&)> collect) {
  std::lock_guard lock(collect_mu_);
  collectors_.push_back(std::move(collect));
}

std::string MetricsRegistry::exposition() {
  {
    std::lock_guard lock(collect_mu_);
    for (const auto& collect : collectors_) {
      try {
        collect(*this);
      } catch (...) {
        // A collector that fails leaves its values as they were: the scrape goes on.
      }
    }
  }
  std::string out;
  std::lock_guard lock(mu_);
  for (const auto& f : families_) f->render(out);
  return out;
}

}  // namespace reactor
