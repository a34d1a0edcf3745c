// A strict reader of the Prometheus text format 0.0.4, for tests (Debian packages promtool
// only inside the whole prometheus server package, too big to install for a check): every line
// is a # HELP, a # TYPE or a sample; a family's HELP and TYPE come before its samples and once;
// names and label names are valid; label values are quoted with only \\, \" and \n escapes;
// values are numbers; a histogram has cumulative _bucket{le} series ending at +Inf equal to
// _count, and _sum. parse_exposition() returns the samples, or the first error in `error`.
#pragma once

#include <cmath>
#include <cstdlib>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace reactor::testing_support {

struct Sample {
  std::string name;                           // as written (with _bucket, _sum, _count)
  std::map<std::string, std::string> labels;  // unescaped
  double value = 0;
};

struct Exposition {
  std::map<std::string, std::string> types;  // family -> counter, gauge, histogram
  std::vector<Sample> samples;
  // The value of `name` with exactly `labels`; NaN when absent.
  double value(const std::string& name,
               const std::map<std::string, std::string>& labels = {}) const {
    for (const Sample& s : samples) {
      if (s.name == name && s.labels == labels) return s.value;
    }
    return std::nan("");
  }
};

namespace exposition_detail {

inline bool name_ok(const std::string& n, bool colon) {
  if (n.empty()) return false;
  for (std::size_t i = 0; i < n.size(); ++i) {
    const char c = n[i];
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
                    (colon && c == ':') || (i > 0 && c >= '0' && c <= '9');
    if (!ok) return false;
  }
  return true;
}

inline bool number(const std::string& text, double& out) {
  if (text == "+Inf") return out = INFINITY, true;
  if (text == "-Inf") return out = -INFINITY, true;
  if (text == "NaN") return out = NAN, true;
  if (text.empty()) return false;
  char* end = nullptr;
  out = std::strtod(text.c_str(), &end);
  return end == text.c_str() + text.size();
}

// The family a sample name belongs to, given the declared types.
inline std::string family_of(const std::string& name,
                             const std::map<std::string, std::string>& types) {
  if (types.count(name)) return name;
  for (const char* suffix : {"_bucket", "_sum", "_count"}) {
    const std::string s = suffix;
    if (name.size() > s.size() && name.compare(name.size() - s.size(), s.size(), s) == 0) {
      const std::string base = name.substr(0, name.size() - s.size());
      auto it = types.find(base);
      if (it != types.end() && it->second == "histogram") return base;
    }
  }
  return "";
}

inline bool sample(const std::string& line, Sample& out, std::string& error) {
  std::size_t i = 0;
  while (i < line.size() && line[i] != '{' && line[i] != ' ') ++i;
  out.name = line.substr(0, i);
  if (!name_ok(out.name, true)) return error = "bad metric name: " + line, false;
  if (i < line.size() && line[i] == '{') {
    ++i;
    while (i < line.size() && line[i] != '}') {
      const std::size_t eq = line.find('=', i);
      if (eq == std::string::npos) return error = "label without '=': " + line, false;
      const std::string key = line.substr(i, eq - i);
      if (!name_ok(key, false)) return error = "bad label name '" + key + "': " + line, false;
      if (eq + 1 >= line.size() || line[eq + 1] != '"')
        return error = "unquoted label: " + line, false;
      std::string value;
      std::size_t j = eq + 2;
      for (; j < line.size() && line[j] != '"'; ++j) {
        if (line[j] == '\\') {
          if (++j >= line.size()) break;
          if (line[j] == 'n')
            value += '\n';
          else if (line[j] == '\\' || line[j] == '"')
            value += line[j];
          else
            return error = "bad escape: " + line, false;
        } else {
          value += line[j];
        }
      }
      if (j >= line.size()) return error = "unterminated label value: " + line, false;
      if (out.labels.count(key)) return error = "label twice: " + line, false;
      out.labels[key] = value;
      i = j + 1;
      if (i < line.size() && line[i] == ',') ++i;
    }
    if (i >= line.size()) return error = "unterminated labels: " + line, false;
    ++i;
  }
  if (i >= line.size() || line[i] != ' ') return error = "no value: " + line, false;
  std::string rest = line.substr(i + 1);
  const std::size_t space = rest.find(' ');  // an optional timestamp follows
  if (space != std::string::npos) rest = rest.substr(0, space);
  if (!number(rest, out.value)) return error = "bad value: " + line, false;
  return true;
}

// Each histogram series: buckets ascend by le, counts never drop, +Inf present and == _count.
inline bool histograms_ok(const Exposition& e, std::string& error) {
  for (const auto& [family, type] : e.types) {
    if (type != "histogram") continue;
    std::map<std::map<std::string, std::string>, std::vector<std::pair<double, double>>> buckets;
    for (const Sample& s : e.samples) {
      if (s.name != family + "_bucket") continue;
      auto labels = s.labels;
      double le = 0;
      if (!labels.count("le") || !number(labels["le"], le))
        return error = family + ": bucket without le", false;
      labels.erase("le");
      buckets[labels].push_back({le, s.value});
    }
    for (const auto& [labels, list] : buckets) {
      for (std::size_t k = 1; k < list.size(); ++k) {
        if (!(list[k].first > list[k - 1].first) || list[k].second < list[k - 1].second) {
          return error = family + ": buckets not cumulative in ascending le", false;
        }
      }
      if (list.empty() || !std::isinf(list.back().first))
        return error = family + ": no +Inf bucket", false;
      if (list.back().second != e.value(family + "_count", labels) ||
          std::isnan(e.value(family + "_sum", labels))) {
        return error = family + ": +Inf bucket != _count, or no _sum", false;
      }
    }
  }
  return true;
}

}  // namespace exposition_detail

inline Exposition parse_exposition(const std::string& text, std::string& error) {
  using namespace exposition_detail;
  Exposition e;
  error.clear();
  if (!text.empty() && text.back() != '\n') return error = "no final newline", e;
  std::set<std::string> helped, sampled;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (line.empty()) continue;
    if (line.rfind("# HELP ", 0) == 0 || line.rfind("# TYPE ", 0) == 0) {
      const bool help = line[2] == 'H';
      const std::string rest = line.substr(7);
      const std::string name = rest.substr(0, rest.find(' '));
      if (!name_ok(name, true)) return error = "bad name in: " + line, e;
      if (sampled.count(name)) return error = "HELP/TYPE after samples: " + line, e;
      if (help) {
        if (!helped.insert(name).second) return error = "HELP twice: " + line, e;
        continue;
      }
      const std::string type = rest.size() > name.size() ? rest.substr(name.size() + 1) : "";
      if (type != "counter" && type != "gauge" && type != "histogram" && type != "summary" &&
          type != "untyped") {
        return error = "bad type: " + line, e;
      }
      if (!e.types.emplace(name, type).second) return error = "TYPE twice: " + line, e;
      continue;
    }
    if (line[0] == '#') continue;  // a comment
    Sample s;
    if (!sample(line, s, error)) return e;
    const std::string family = family_of(s.name, e.types);
    if (family.empty()) return error = "sample of no declared family: " + line, e;
    sampled.insert(family);
    if (e.types[family] == "counter" && !(s.value >= 0))
      return error = "negative counter: " + line, e;
    e.samples.push_back(std::move(s));
  }
  histograms_ok(e, error);
  return e;
}

}  // namespace reactor::testing_support
