#include "durability/schedules.hpp"

#include "records/codec.hpp"

namespace reactor {

namespace {

using std::chrono::milliseconds;

std::int64_t ms_of(Duration d) { return std::chrono::duration_cast<milliseconds>(d).count(); }

// Whether a start refused with `s` would be refused again at every look.
bool refused_for_good(const Status& s) {
  return s.code() == StatusCode::kNotFound || s.code() == StatusCode::kInvalidArgument ||
         s.code() == StatusCode::kAlreadyExists;
}

}  // namespace

ScheduleRow schedule_row(const Schedule& s, std::int64_t last_fired_ms, std::int64_t now_ms) {
  ScheduleRow row;
  row.name = s.name;
  row.reactor = s.reactor;
  row.every_ms = s.cron.empty() ? ms_of(s.every) : 0;
  row.cron = s.cron;
  row.inputs = records::encode_value(s.inputs);
  row.missed = s.missed;
  row.grace_ms = ms_of(s.grace);
  row.last_fired_ms = last_fired_ms;
  row.updated_at_ms = now_ms;
  return row;
}

Result<Schedule> schedule_of(const ScheduleRow& row) {
  Schedule s;
  s.name = row.name;
  s.reactor = row.reactor;
  s.every = milliseconds(row.every_ms);
  s.cron = row.cron;
  s.missed = row.missed;
  s.grace = milliseconds(row.grace_ms);
  try {
    s.inputs = records::decode_value(row.inputs);
  } catch (const std::exception& e) {
    return Status::Corruption("schedule " + row.name + ": unreadable inputs: " + e.what());
  }
  return s;
}

ScheduleTick fire_due_schedules(ScheduleStore& store, TimePoint now,
                                const std::function<bool(const std::string&)>& serves,
                                const StartScheduledRun& start) {
  ScheduleTick tick;
  Result<std::vector<ScheduleRow>> rows = store.list_schedules();
  if (!rows.ok()) {
    tick.status = rows.status();
    return tick;
  }
  for (const ScheduleRow& row : *rows) {
    if (!serves(row.reactor)) continue;
    Result<Schedule> s = schedule_of(row);
    if (!s.ok()) {
      tick.errors.push_back(s.status().message());
      continue;
    }
    const std::optional<TimePoint> last =
        row.last_fired_ms > 0 ? std::optional(from_unix_ms(row.last_fired_ms)) : std::nullopt;
    const NextFire fire = next_fire(*s, last, now);
    if (!fire.due) continue;
    Status started = start(row.reactor, s->inputs, scheduled_run_id(row.name, *fire.due));
    if (!started.ok()) {
      tick.errors.push_back("schedule " + row.name + ", period " + format_utc(*fire.due) + ": " +
                            started.to_string());
      if (!refused_for_good(started)) continue;
    } else {
      ++tick.fired;
    }
    if (Status marked = store.mark_schedule_fired(row.name, to_unix_ms(*fire.due)); !marked.ok()) {
      tick.errors.push_back("schedule " + row.name + ": " + marked.to_string());
    }
  }
  return tick;
}

}  // namespace reactor
