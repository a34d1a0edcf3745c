// AsyncUnits: async units in the driver (docs/async.md) — an async_step's or async_reactor's
// run sent off as a job of its own while the run goes on; its readers wait for it.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "execution/attempt.hpp"
#include "execution/execution.hpp"
#include "execution/fan_out_port.hpp"

namespace reactor {

// The async units of `driver`'s run.
class AsyncUnits : public DriverPart {
 public:
  using DriverPart::DriverPart;

  Attempt run_async(std::size_t i, const Launch& l);
  std::optional<Attempt> collect_unit(std::size_t i);
  void record_dispatch(std::size_t i, int attempt_no, Lock& lock);
  void record_unit(std::size_t i, int attempt_no, Attempt a, Lock& lock);
  std::optional<Attempt> failed_unit_read_by(std::size_t i) const;
  bool awaits_children() const;
  std::optional<std::int64_t> read_deadline(std::size_t unit) const;
  bool fail_overdue_readers(Lock& lock);
  bool wait_for_units(Lock& lock);
  bool caller_waits() const;

 private:
  bool readers_waiting(std::size_t unit) const;
  FanOut::UnitWait unit_wait() const;
};

}  // namespace reactor
