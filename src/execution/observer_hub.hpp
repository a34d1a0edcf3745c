// ObserverHub: calls every observer of a run, and keeps an observer's
// exception from reaching the run (it is told to the engine's Logger instead).
#pragma once

#include <memory>
#include <vector>

#include "reactor/logger.hpp"
#include "reactor/observer.hpp"

namespace reactor {

class ObserverHub {
 public:
  ObserverHub(std::vector<std::shared_ptr<Observer>> observers, Logger& logger)
      : observers_(std::move(observers)), logger_(&logger) {}

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
  void log_failure(const char* event, const char* what) const;

  std::vector<std::shared_ptr<Observer>> observers_;
  Logger* logger_;
};

}  // namespace reactor
