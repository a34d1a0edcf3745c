// Names near a mistyped one ("did you mean 'tickets/email'?"): a command, an option, a reactor,
// a step path. By edit distance, ignoring case.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace reactor {

// The Damerau-Levenshtein distance (optimal string alignment: an adjacent swap costs one, as a
// typo does), ignoring case.
std::size_t edit_distance(const std::string& a, const std::string& b);

// The candidate nearest to `typed`, if one is near enough to be what was meant: at most a third
// of the longer name away (and 2 at least), or `typed` is a prefix of it. Ties: the first.
std::optional<std::string> did_you_mean(const std::string& typed,
                                        const std::vector<std::string>& candidates);

// The candidates, nearest to `typed` first (stable among equals).
std::vector<std::string> closest_first(const std::string& typed,
                                       std::vector<std::string> candidates);

}  // namespace reactor
