#include "reactor/map_results.hpp"

namespace reactor {

std::vector<Value> MapResults::successes() const {
  std::vector<Value> out;
  for (const ElementOutcome& e : elements_) {
    if (e.ok) out.push_back(e.value);
  }
  return out;
}

std::vector<ElementOutcome> MapResults::failures() const {
  std::vector<ElementOutcome> out;
  for (const ElementOutcome& e : elements_) {
    if (!e.ok) out.push_back(e);
  }
  return out;
}

}  // namespace reactor
