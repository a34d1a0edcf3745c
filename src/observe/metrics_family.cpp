#include "observe/metrics_family.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace reactor {

namespace {

bool name_char(char c, bool first, bool colon) {
  const bool alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
  const bool digit = c >= '0' && c <= '9';
  return alpha || (colon && c == ':') || (!first && digit);
}

bool valid_name(const std::string& name, bool colon) {
  if (name.empty()) return false;
  for (std::size_t i = 0; i < name.size(); ++i) {
    if (!name_char(name[i], i == 0, colon)) return false;
  }
  return true;
}

const char* type_name(MetricType t) {
  switch (t) {
    case MetricType::kCounter:
      return "counter";
    case MetricType::kGauge:
      return "gauge";
    case MetricType::kHistogram:
      return "histogram";
  }
  return "untyped";
}

}  // namespace

bool valid_metric_name(const std::string& name) { return valid_name(name, true); }
bool valid_label_name(const std::string& name) {
  return valid_name(name, false) && name.rfind("__", 0) != 0 && name != "le";
}

std::string metric_number(double v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "+Inf" : "-Inf";
  char buf[64];
  if (v == std::floor(v) && std::fabs(v) < 1e15) {
    std::snprintf(buf, sizeof buf, "%.0f", v);
  } else {
    std::snprintf(buf, sizeof buf, "%.17g", v);
  }
  return buf;
}

namespace {

// The text format's escapes: a backslash and a line feed everywhere, a double quote in a label
// value only (a HELP text keeps it as it is).
std::string escaped(const std::string& v, bool quote) {
  std::string out;
  for (char c : v) {
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    if (c == '\\' || (quote && c == '"')) out += '\\';
    out += c;
  }
  return out;
}

}  // namespace

std::string escape_label_value(const std::string& v) { return escaped(v, true); }
std::string escape_help(const std::string& v) { return escaped(v, false); }

MetricsFamily::MetricsFamily(std::string name, MetricType type, std::string help,
                             std::vector<std::string> labels, std::vector<double> buckets)
    : name_(std::move(name)),
      type_(type),
      help_(std::move(help)),
      labels_(std::move(labels)),
      bounds_(std::move(buckets)) {
  if (!valid_metric_name(name_)) throw std::invalid_argument("metric name '" + name_ + "'");
  for (const auto& l : labels_) {
    if (!valid_label_name(l)) throw std::invalid_argument(name_ + ": label name '" + l + "'");
  }
  if (!std::is_sorted(bounds_.begin(), bounds_.end()) ||
      std::adjacent_find(bounds_.begin(), bounds_.end()) != bounds_.end()) {
    throw std::invalid_argument(name_ + ": histogram buckets must ascend");
  }
}

MetricsFamily::Series& MetricsFamily::series(const std::vector<std::string>& values) {
  if (values.size() != labels_.size()) {
    throw std::invalid_argument(name_ + ": " + std::to_string(labels_.size()) +
                                " label values expected, got " + std::to_string(values.size()));
  }
  auto [it, fresh] = series_.try_emplace(values);
  if (fresh && type_ == MetricType::kHistogram) it->second.buckets.assign(bounds_.size(), 0);
  return it->second;
}

void MetricsFamily::add(const std::vector<std::string>& values, double amount) {
  if (type_ != MetricType::kCounter)
    throw std::invalid_argument(name_ + ": add() on a non-counter");
  if (!(amount >= 0)) throw std::invalid_argument(name_ + ": a counter only goes up");
  series(values).value += amount;
}

void MetricsFamily::set(const std::vector<std::string>& values, double value) {
  if (type_ == MetricType::kHistogram)
    throw std::invalid_argument(name_ + ": set() on a histogram");
  series(values).value = value;
}

void MetricsFamily::observe(const std::vector<std::string>& values, double value) {
  if (type_ != MetricType::kHistogram) {
    throw std::invalid_argument(name_ + ": observe() on a non-histogram");
  }
  Series& s = series(values);
  const auto at = std::lower_bound(bounds_.begin(), bounds_.end(), value);  // le: v <= bound
  if (at != bounds_.end()) ++s.buckets[static_cast<std::size_t>(at - bounds_.begin())];
  s.value += value;
  ++s.count;
}

double MetricsFamily::value(const std::vector<std::string>& values) const {
  auto it = series_.find(values);
  if (it == series_.end()) return 0;
  return type_ == MetricType::kHistogram ? static_cast<double>(it->second.count) : it->second.value;
}

std::string MetricsFamily::label_text(const std::vector<std::string>& values,
                                      const std::string& le) const {
  std::string out;
  for (std::size_t i = 0; i < labels_.size(); ++i) {
    out += (out.empty() ? "" : ",") + labels_[i] + "=\"" + escape_label_value(values[i]) + "\"";
  }
  if (!le.empty()) out += (out.empty() ? "" : ",") + std::string("le=\"") + le + "\"";
  return out.empty() ? out : "{" + out + "}";
}

void MetricsFamily::render(std::string& out) const {
  out += "# HELP " + name_ + " " + escape_help(help_) + "\n";
  out += "# TYPE " + name_ + " " + type_name(type_) + "\n";
  for (const auto& [values, s] : series_) {
    if (type_ != MetricType::kHistogram) {
      out += name_ + label_text(values, "") + " " + metric_number(s.value) + "\n";
      continue;
    }
    std::uint64_t cumulative = 0;
    for (std::size_t i = 0; i < bounds_.size(); ++i) {
      cumulative += s.buckets[i];
      out += name_ + "_bucket" + label_text(values, metric_number(bounds_[i])) + " " +
             std::to_string(cumulative) + "\n";
    }
    out += name_ + "_bucket" + label_text(values, "+Inf") + " " + std::to_string(s.count) + "\n";
    out += name_ + "_sum" + label_text(values, "") + " " + metric_number(s.value) + "\n";
    out += name_ + "_count" + label_text(values, "") + " " + std::to_string(s.count) + "\n";
  }
}

}  // namespace reactor
