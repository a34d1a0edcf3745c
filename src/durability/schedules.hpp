// Firing periodic starts (reactor/schedule.hpp, docs/schedules.md). Every worker serving a
// schedule's reactor looks at the schedules now and then (its ticker) and starts the run of each
// due period; exactly one run per period comes of it however many workers look at once, because
// the run's id is the schedule's name and the period's start and a start under an existing id
// starts nothing (durability/start.hpp, match_existing). The store's last_fired_ms only spares
// the next looks a start that would find its run.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "reactor/records.hpp"
#include "reactor/schedule.hpp"
#include "reactor/schedule_store.hpp"

namespace reactor {

// The store's row of `s`, last fired at `last_fired_ms`, written at `now_ms`.
ScheduleRow schedule_row(const Schedule& s, std::int64_t last_fired_ms, std::int64_t now_ms);
// The Schedule a row holds. Corruption for inputs that are not JSON.
Result<Schedule> schedule_of(const ScheduleRow& row);

// Starts a run of `reactor` with `inputs` under `run_id` (Engine::run_in_background).
using StartScheduledRun =
    std::function<Status(const std::string& reactor, Value inputs, const std::string& run_id)>;

struct ScheduleTick {
  std::size_t fired = 0;            // periods whose run was started now (or found started)
  std::vector<std::string> errors;  // one line per schedule that could not fire, naming it
  Status status;                    // the store's error listing the schedules
};

// One look at every schedule at `now`: each whose reactor `serves` accepts and whose period is
// due (next_fire) has its period's run started, then the period noted fired. A start refused
// for good (the reactor is unknown, the inputs no longer valid, the id taken by another run)
// notes the period fired all the same, with an error: it would be refused again every look; a
// store that is down notes nothing, and the next look tries again.
ScheduleTick fire_due_schedules(ScheduleStore& store, TimePoint now,
                                const std::function<bool(const std::string&)>& serves,
                                const StartScheduledRun& start);

}  // namespace reactor
