// MetricsFamily: one metric's series by label values, and its text in the Prometheus format
// 0.0.4. Not thread-safe: MetricsRegistry holds its lock around every call.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace reactor {

enum class MetricType { kCounter = 0, kGauge = 1, kHistogram = 2 };

class MetricsFamily {
 public:
  MetricsFamily(std::string name, MetricType type, std::string help,
                std::vector<std::string> labels, std::vector<double> buckets);

  const std::string& name() const { return name_; }
  MetricType type() const { return type_; }
  bool same_shape(MetricType type, const std::vector<std::string>& labels) const {
    return type == type_ && labels == labels_;
  }

  void add(const std::vector<std::string>& values, double amount);
  void set(const std::vector<std::string>& values, double value);
  void observe(const std::vector<std::string>& values, double value);
  double value(const std::vector<std::string>& values) const;

  void render(std::string& out) const;

 private:
  struct Series {
    double value = 0;                    // counter, gauge; a histogram's sum
    std::vector<std::uint64_t> buckets;  // a histogram's counts per bound (not cumulative)
    std::uint64_t count = 0;             // a histogram's observations
  };
  Series& series(const std::vector<std::string>& values);
  std::string label_text(const std::vector<std::string>& values, const std::string& le) const;

  std::string name_;
  MetricType type_;
  std::string help_;
  std::vector<std::string> labels_;
  std::vector<double> bounds_;
  std::map<std::vector<std::string>, Series> series_;
};

// Prometheus' number text: integers without exponent or point, +Inf, -Inf, NaN.
std::string metric_number(double v);
// A label value with \, " and newline escaped; HELP text with \ and newline escaped.
std::string escape_label_value(const std::string& v);
std::string escape_help(const std::string& v);
bool valid_metric_name(const std::string& name);
bool valid_label_name(const std::string& name);

}  // namespace reactor
