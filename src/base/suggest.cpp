#include "base/suggest.hpp"

#include <algorithm>
#include <cctype>

namespace reactor {

namespace {

char lower(char c) { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); }

bool is_prefix(const std::string& prefix, const std::string& of) {
  if (prefix.empty() || prefix.size() > of.size()) return false;
  for (std::size_t i = 0; i < prefix.size(); ++i) {
    if (lower(prefix[i]) != lower(of[i])) return false;
  }
  return true;
}

}  // namespace

std::size_t edit_distance(const std::string& a, const std::string& b) {
  // Three rows of the optimal-string-alignment table: the one before last, the last, this one.
  std::vector<std::size_t> before(b.size() + 1), last(b.size() + 1), row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) last[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const bool same = lower(a[i - 1]) == lower(b[j - 1]);
      row[j] = std::min({last[j] + 1, row[j - 1] + 1, last[j - 1] + (same ? 0 : 1)});
      if (i > 1 && j > 1 && lower(a[i - 1]) == lower(b[j - 2]) &&
          lower(a[i - 2]) == lower(b[j - 1])) {
        row[j] = std::min(row[j], before[j - 2] + 1);
      }
    }
    std::swap(before, last);
    std::swap(last, row);
  }
  return last[b.size()];
}

std::optional<std::string> did_you_mean(const std::string& typed,
                                        const std::vector<std::string>& candidates) {
  std::optional<std::string> best;
  std::size_t best_distance = 0;
  for (const std::string& c : candidates) {
    const std::size_t d = edit_distance(typed, c);
    const std::size_t near = std::max<std::size_t>(2, std::max(typed.size(), c.size()) / 3);
    if (d > near && !is_prefix(typed, c)) continue;
    if (!best || d < best_distance) {
      best = c;
      best_distance = d;
    }
  }
  return best;
}

std::vector<std::string> closest_first(const std::string& typed,
                                       std::vector<std::string> candidates) {
  std::stable_sort(candidates.begin(), candidates.end(),
                   [&typed](const std::string& a, const std::string& b) {
                     return edit_distance(typed, a) < edit_distance(typed, b);
                   });
  return candidates;
}

}  // namespace reactor
