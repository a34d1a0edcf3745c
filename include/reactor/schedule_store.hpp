// ScheduleStore: the periodic starts a store keeps (schedule.hpp, docs/schedules.md) — one facet
// of a Backend (backend.hpp). Unlike the other facets it is written outside Backend::commit:
// a schedule is no run's record, and what fires it (a run's start) is the commit that matters;
// last_fired_ms only spares the workers a start that would find its run exists.
//
// Thread safety: safe to call from any number of threads, and processes, at once. Durability:
// as Backend::commit's for the store, when a call returns ok.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "reactor/records.hpp"
#include "reactor/result.hpp"
#include "reactor/status.hpp"

namespace reactor {

class ScheduleStore {
 public:
  virtual ~ScheduleStore() = default;

  // Inserts the schedule `row.name`, or replaces what an existing one says (reactor, period,
  // inputs, policy) keeping its last_fired_ms: adding the same schedule again at every worker's
  // start changes nothing of what it fired.
  virtual Status upsert_schedule(const ScheduleRow& row) = 0;
  // Every schedule, by name.
  virtual Result<std::vector<ScheduleRow>> list_schedules() = 0;
  // Notes that the run of the period starting at `period_ms` was started: last_fired_ms becomes
  // the larger of the two (never goes back). NotFound when there is no such schedule.
  virtual Status mark_schedule_fired(const std::string& name, std::int64_t period_ms) = 0;
};

}  // namespace reactor
