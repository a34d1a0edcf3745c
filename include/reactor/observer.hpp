// Observer: middleware hooks on the life of a run. Observers only watch: an
// exception thrown by one is logged and never changes the run.
#pragma once

#include <string>

#include "reactor/error.hpp"
#include "reactor/value.hpp"

namespace reactor {

// Identifies where an event happened.
struct EventContext {
  const std::string& run_id;   // root run id
  const std::string& reactor;  // reactor owning the step (or the run)
  const std::string& step;     // step path; empty for run events
  int attempt = 0;             // step events: 1-based attempt
};

class Observer {
 public:
  virtual ~Observer() = default;

  virtual void on_run_start(const EventContext&, const Value& /*redacted_inputs*/) {}
  // status is "completed" or "halted".
  virtual void on_run_complete(const EventContext&, const std::string& /*status*/) {}
  virtual void on_run_fail(const EventContext&, const RunError& /*error*/) {}

  virtual void on_step_start(const EventContext&) {}
  virtual void on_step_complete(const EventContext&, const std::string& /*outcome*/) {}
  virtual void on_step_fail(const EventContext&, const std::string& /*message*/) {}
  virtual void on_step_retry(const EventContext&, Duration /*delay*/,
                             const std::string& /*message*/) {}

  virtual void on_compensate_start(const EventContext&) {}
  virtual void on_compensate_complete(const EventContext&) {}
  virtual void on_compensate_fail(const EventContext&, const std::string& /*message*/) {}

  virtual void on_undo_start(const EventContext&) {}
  virtual void on_undo_complete(const EventContext&) {}
  virtual void on_undo_fail(const EventContext&, const std::string& /*message*/) {}
};

}  // namespace reactor
