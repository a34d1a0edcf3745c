#include "reactor/map_results.hpp"

#include <algorithm>
#include <memory>

namespace reactor {

MapResults::MapResults(std::vector<ElementOutcome> elements) {
  auto held = std::make_shared<std::vector<ElementOutcome>>(std::move(elements));
  indices_ = held->empty() ? 0 : held->back().index + 1;
  page_ = [held](std::size_t first, std::size_t limit) {
    std::vector<ElementOutcome> out;
    const auto from = std::lower_bound(
        held->begin(), held->end(), first,
        [](const ElementOutcome& e, std::size_t index) { return e.index < index; });
    for (auto it = from; it != held->end() && it->index < first + limit; ++it) out.push_back(*it);
    return out;
  };
}

MapResults::MapResults(std::size_t indices, PageFn page)
    : indices_(indices), page_(std::move(page)) {}

MapResults::Iterator::Iterator(const MapResults* results, std::size_t first)
    : results_(results), next_(first) {
  load();
}

// Reads pages until one holds an outcome, or the indices run out.
void MapResults::Iterator::load() {
  page_.clear();
  at_ = 0;
  while (page_.empty() && next_ < results_->indices_) {
    const std::size_t limit = std::min(kPageSize, results_->indices_ - next_);
    page_ = results_->page_(next_, limit);
    next_ += limit;
  }
}

MapResults::Iterator& MapResults::Iterator::operator++() {
  if (++at_ == page_.size()) load();
  return *this;
}

std::vector<ElementOutcome> MapResults::elements() const {
  std::vector<ElementOutcome> out;
  for (const ElementOutcome& e : *this) out.push_back(e);
  return out;
}

std::vector<Value> MapResults::successes() const {
  std::vector<Value> out;
  for (const ElementOutcome& e : *this) {
    if (e.ok) out.push_back(e.value);
  }
  return out;
}

std::vector<ElementOutcome> MapResults::failures() const {
  std::vector<ElementOutcome> out;
  for (const ElementOutcome& e : *this) {
    if (!e.ok) out.push_back(e);
  }
  return out;
}

}  // namespace reactor
