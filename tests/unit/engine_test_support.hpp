// Helpers shared by the engine rule tests (tests/unit/test_<feature>.cpp).
//
// Nothing here sleeps or reads wall time to decide an outcome. The only wall-clock value is
// kSafetyBound: the longest a test waits for something a correct engine makes happen at once,
// so that a broken engine fails the test instead of hanging it.
#pragma once

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "reactor/reactor.hpp"
#include "reactor/testing.hpp"  // PrintTo(RunResult) for readable failures

namespace reactor_test {

inline constexpr std::chrono::seconds kSafetyBound{10};

// What user code did, in order ("run a", "undo b", "compensate c"). Thread-safe.
class Journal {
 public:
  void add(std::string entry) {
    std::lock_guard lock(mu_);
    entries_.push_back(std::move(entry));
  }
  std::vector<std::string> entries() const {
    std::lock_guard lock(mu_);
    return entries_;
  }
  int count(const std::string& entry) const {
    std::lock_guard lock(mu_);
    return static_cast<int>(std::count(entries_.begin(), entries_.end(), entry));
  }
  void clear() {
    std::lock_guard lock(mu_);
    entries_.clear();
  }

 private:
  mutable std::mutex mu_;
  std::vector<std::string> entries_;
};

// How many times each piece of user code ran. Thread-safe.
class Counters {
 public:
  void hit(const std::string& key) {
    std::lock_guard lock(mu_);
    ++counts_[key];
  }
  int get(const std::string& key) const {
    std::lock_guard lock(mu_);
    auto it = counts_.find(key);
    return it == counts_.end() ? 0 : it->second;
  }
  std::map<std::string, int> all() const {
    std::lock_guard lock(mu_);
    return counts_;
  }
  void reset() {
    std::lock_guard lock(mu_);
    counts_.clear();
  }

 private:
  mutable std::mutex mu_;
  std::map<std::string, int> counts_;
};

// A one-shot event. wait() returns false if it was not notified within kSafetyBound.
class Signal {
 public:
  void notify() {
    {
      std::lock_guard lock(mu_);
      set_ = true;
    }
    cv_.notify_all();
  }
  bool wait() {
    std::unique_lock lock(mu_);
    return cv_.wait_for(lock, kSafetyBound, [&] { return set_; });
  }
  bool is_set() const {
    std::lock_guard lock(mu_);
    return set_;
  }

 private:
  mutable std::mutex mu_;
  std::condition_variable cv_;
  bool set_ = false;
};

// A bounded barrier for `n` parties: arrive_and_wait() returns true once all have arrived, or
// false after kSafetyBound (a party never came: the engine did not run them at the same time).
class Rendezvous {
 public:
  explicit Rendezvous(int n) : expected_(n) {}
  bool arrive_and_wait() {
    std::unique_lock lock(mu_);
    ++arrived_;
    cv_.notify_all();
    return cv_.wait_for(lock, kSafetyBound, [&] { return arrived_ >= expected_; });
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  int arrived_ = 0;
  const int expected_;
};

// Records every hook as "event step#attempt" (run events: "event [reactor]"), in order.
class RecordingObserver : public reactor::Observer {
 public:
  std::vector<std::string> events() const { return journal_.entries(); }

  void on_run_start(const reactor::EventContext& c, const reactor::Value&) override {
    run_event("run_start", c);
  }
  void on_run_complete(const reactor::EventContext& c, reactor::RunStatus status) override {
    run_event(std::string("run_complete(") + to_string(status) + ")", c);
  }
  void on_run_fail(const reactor::EventContext& c, const reactor::RunError&) override {
    run_event("run_fail", c);
  }
  void on_step_start(const reactor::EventContext& c) override { step_event("step_start", c); }
  void on_step_complete(const reactor::EventContext& c, reactor::Outcome outcome) override {
    step_event(std::string("step_complete(") + to_string(outcome) + ")", c);
  }
  void on_step_fail(const reactor::EventContext& c, const std::string&) override {
    step_event("step_fail", c);
  }
  void on_step_retry(const reactor::EventContext& c, reactor::Duration,
                     const std::string&) override {
    step_event("step_retry", c);
  }
  void on_compensate_start(const reactor::EventContext& c) override {
    step_event("compensate_start", c, false);
  }
  void on_compensate_complete(const reactor::EventContext& c) override {
    step_event("compensate_complete", c, false);
  }
  void on_compensate_fail(const reactor::EventContext& c, const std::string&) override {
    step_event("compensate_fail", c, false);
  }
  void on_undo_start(const reactor::EventContext& c) override {
    step_event("undo_start", c, false);
  }
  void on_undo_complete(const reactor::EventContext& c) override {
    step_event("undo_complete", c, false);
  }
  void on_undo_fail(const reactor::EventContext& c, const std::string&) override {
    step_event("undo_fail", c, false);
  }

 private:
  void run_event(const std::string& e, const reactor::EventContext& c) {
    journal_.add(e + " [" + c.reactor + "]");
  }
  void step_event(const std::string& e, const reactor::EventContext& c, bool with_attempt = true) {
    journal_.add(e + " " + c.step + (with_attempt ? "#" + std::to_string(c.attempt) : ""));
  }
  Journal journal_;
};

inline std::shared_ptr<reactor::ManualClock> manual_clock() {
  return std::make_shared<reactor::ManualClock>();
}

inline reactor::EngineOptions with_clock(std::shared_ptr<reactor::ManualClock> clock) {
  reactor::EngineOptions o;
  o.clock = std::move(clock);
  return o;
}

inline std::vector<std::string> event_steps(const std::vector<reactor::TraceEvent>& trace) {
  std::vector<std::string> out;
  for (const auto& e : trace) out.push_back(std::string(reactor::to_string(e.type)) + " " + e.step);
  return out;
}

// `r` with every trace event's time zeroed: two runs compare equal whatever their clocks.
inline reactor::RunResult without_timestamps(reactor::RunResult r) {
  for (auto& e : r.trace) e.at_ms = 0;
  return r;
}

}  // namespace reactor_test
