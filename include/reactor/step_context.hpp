// StepContext: what a step body knows about the execution it runs in.
#pragma once

#include <stop_token>
#include <string>

#include "reactor/value.hpp"

namespace reactor {

class Clock;

class StepContext {
 public:
  StepContext(const std::string& run_id, const std::string& reactor, const std::string& path,
              int attempt, std::stop_token stop, Clock& clock)
      : run_id_(run_id), reactor_(reactor), path_(path), attempt_(attempt), stop_(stop),
        clock_(clock) {}

  // Root run id: composed children and map elements share their root's.
  const std::string& run_id() const { return run_id_; }
  // Name of the reactor whose definition holds this step.
  const std::string& reactor() const { return reactor_; }
  // "charge", or "payment/charge" in a composed child, or "items[3]/charge"
  // in a map element.
  const std::string& step_path() const { return path_; }
  // Stable across attempts, redeliveries and resumes: hand it to external
  // systems so a re-executed step does not repeat their side effect.
  std::string idempotency_key() const { return run_id_ + ":" + path_; }
  // 1 for the first attempt.
  int attempt() const { return attempt_; }
  // Signalled when the step's timeout passes. Long-running steps should poll
  // it (or wait on it) and return.
  std::stop_token stop_token() const { return stop_; }
  Clock& clock() const { return clock_; }

 private:
  const std::string& run_id_;
  const std::string& reactor_;
  const std::string& path_;
  int attempt_;
  std::stop_token stop_;
  Clock& clock_;
};

}  // namespace reactor
