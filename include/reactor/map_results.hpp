// MapResults: what a map's `collect` callback receives.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "reactor/value.hpp"

namespace reactor {

// The outcome of one element of a map, in index order.
struct ElementOutcome {
  std::size_t index = 0;
  bool ok = false;
  Value value;        // the element reactor's value when ok
  std::string error;  // the element's error message otherwise
};

class MapResults {
 public:
  explicit MapResults(std::vector<ElementOutcome> elements) : elements_(std::move(elements)) {}

  const std::vector<ElementOutcome>& elements() const { return elements_; }
  // Values of the elements that succeeded, in index order.
  std::vector<Value> successes() const;
  // Outcomes of the elements that failed (only a non-atomic map has any).
  std::vector<ElementOutcome> failures() const;

 private:
  std::vector<ElementOutcome> elements_;
};

}  // namespace reactor
