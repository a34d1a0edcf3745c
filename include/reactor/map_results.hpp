// MapResults: what a map's `collect` and `undo_all` callbacks receive — the
// elements' outcomes in index order, read a page at a time.
//
//   Value sum(const MapResults& results) {
//     std::int64_t total = 0;
//     for (const ElementOutcome& e : results) total += e.value.get<std::int64_t>();
//     return total;
//   }
//
// A fan-out map's outcomes stay in the store until they are read: iterating
// reads them page by page (kPageSize), so a callback over 100,000 elements
// never holds them all. elements(), successes() and failures() read every page
// into one vector, for small maps. Not thread-safe; valid only during the call
// that received it.
#pragma once

#include <cstddef>
#include <functional>
#include <iterator>
#include <string>
#include <vector>

#include "reactor/value.hpp"

namespace reactor {

// The outcome of one element of a map.
struct ElementOutcome {
  std::size_t index = 0;
  bool ok = false;
  Value value;        // the element reactor's value when ok
  std::string error;  // the element's error message otherwise
};

class MapResults {
 public:
  static constexpr std::size_t kPageSize = 256;
  // The outcomes of the indices in [first, first + limit), in index order;
  // an index may have none (an undo_all sees only completed elements).
  using PageFn = std::function<std::vector<ElementOutcome>(std::size_t first, std::size_t limit)>;

  // Outcomes held in memory (an inline map's).
  explicit MapResults(std::vector<ElementOutcome> elements);
  // The outcomes of indices 0 … indices-1, read through `page` kPageSize
  // indices at a time.
  MapResults(std::size_t indices, PageFn page);

  // The indices the outcomes are among (the map's elements).
  std::size_t indices() const { return indices_; }

  class Iterator {
   public:
    using iterator_category = std::input_iterator_tag;
    using value_type = ElementOutcome;
    using difference_type = std::ptrdiff_t;
    using pointer = const ElementOutcome*;
    using reference = const ElementOutcome&;

    Iterator() = default;
    reference operator*() const { return page_[at_]; }
    pointer operator->() const { return &page_[at_]; }
    Iterator& operator++();
    bool operator==(const Iterator& o) const {
      if (done() || o.done()) return done() && o.done();
      return next_ == o.next_ && at_ == o.at_;
    }

   private:
    friend class MapResults;
    Iterator(const MapResults* results, std::size_t first);
    bool done() const { return results_ == nullptr || page_.empty(); }
    void load();

    const MapResults* results_ = nullptr;
    std::vector<ElementOutcome> page_;
    std::size_t at_ = 0;    // in page_
    std::size_t next_ = 0;  // the first index the next page starts at
  };

  Iterator begin() const { return Iterator(this, 0); }
  Iterator end() const { return Iterator(); }

  // Every outcome (every page read).
  std::vector<ElementOutcome> elements() const;
  // Values of the elements that succeeded, in index order.
  std::vector<Value> successes() const;
  // Outcomes of the elements that failed (only a non-atomic map has any).
  std::vector<ElementOutcome> failures() const;

 private:
  std::size_t indices_ = 0;
  PageFn page_;
};

}  // namespace reactor
