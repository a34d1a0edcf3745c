// LogMiddleware: one `key=value` line per event, for grep and log shippers.
//
//   ts=2026-11-30T10:00:00.123Z event=step_complete run=3f2a… reactor=OrderSaga step=charge
//   attempt=1 outcome=success
#pragma once

#include <functional>
#include <mutex>
#include <ostream>
#include <string>

#include "reactor/observer.hpp"

namespace reactor {

class LogMiddleware final : public Observer {
 public:
  // Writes to `out` (which must outlive the middleware); lines from threads
  // never interleave.
  explicit LogMiddleware(std::ostream& out);

  void on_run_start(const EventContext&, const Value& redacted_inputs) override;
  void on_run_complete(const EventContext&, RunStatus status) override;
  void on_run_fail(const EventContext&, const RunError&) override;
  void on_step_start(const EventContext&) override;
  void on_step_complete(const EventContext&, Outcome outcome) override;
  void on_step_fail(const EventContext&, const std::string& message) override;
  void on_step_retry(const EventContext&, Duration delay, const std::string& message) override;
  void on_compensate_start(const EventContext&) override;
  void on_compensate_complete(const EventContext&) override;
  void on_compensate_fail(const EventContext&, const std::string& message) override;
  void on_undo_start(const EventContext&) override;
  void on_undo_complete(const EventContext&) override;
  void on_undo_fail(const EventContext&, const std::string& message) override;
  void on_hand_off(const EventContext&, const std::string& where) override;
  void on_async_dispatch(const EventContext&, const std::string& unit_run) override;

 private:
  void line(const char* event, const EventContext& ctx, const std::string& extra);

  std::mutex mu_;
  std::ostream& out_;
};

// Quotes a value for a key=value line when it holds spaces, quotes or '='.
std::string logfmt_value(const std::string& v);

}  // namespace reactor
