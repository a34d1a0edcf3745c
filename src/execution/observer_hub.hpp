// ObserverHub: calls every observer of a run, and keeps an observer's
// exception from reaching the run (it is logged to stderr instead).
#pragma once

#include <memory>
#include <vector>

#include "reactor/observer.hpp"

namespace reactor {

class ObserverHub {
 public:
  ObserverHub() = default;
  explicit ObserverHub(std::vector<std::shared_ptr<Observer>> observers)
      : observers_(std::move(observers)) {}

  bool empty() const { return observers_.empty(); }

  // Calls fn(observer) for each, catching and logging whatever it throws.
  template <typename Fn>
  void notify(const char* event, Fn&& fn) const {
    for (const auto& o : observers_) {
      try {
        fn(*o);
      } catch (const std::exception& e) {
        log_failure(event, e.what());
      } catch (...) {
        log_failure(event, "unknown exception");
      }
    }
  }

 private:
  static void log_failure(const char* event, const char* what);

  std::vector<std::shared_ptr<Observer>> observers_;
};

}  // namespace reactor
