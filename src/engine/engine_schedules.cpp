// Engine's periodic starts (reactor/schedule.hpp): adding, listing and firing schedules over the
// store's ScheduleStore, the firing itself in durability/schedules.cpp.
#include "definition/inputs.hpp"
#include "durability/schedules.hpp"
#include "engine/engine_access.hpp"
#include "reactor/engine.hpp"
#include "records/value_limits.hpp"

namespace reactor {

namespace {

// Why `s` cannot be a schedule, or empty. `def` is its reactor's.
std::string schedule_error(const Schedule& s, const Definition& def, std::size_t max_value_bytes) {
  if (s.name.empty()) return "a schedule needs a name";
  if (std::string why = run_id_error(scheduled_run_id(s.name, TimePoint{})); !why.empty()) {
    return "schedule '" + s.name + "': its runs' ids would be refused: " + why;
  }
  const bool every = s.every > Duration::zero();
  if (every == !s.cron.empty()) {
    return "schedule '" + s.name + "' needs either every (> 0) or cron, not " +
           (every ? "both" : "neither");
  }
  if (every && s.every < std::chrono::milliseconds(1)) {
    return "schedule '" + s.name + "': every must be at least 1 ms";
  }
  if (!every) {
    Result<CronExpression> cron = CronExpression::parse(s.cron);
    if (!cron.ok()) return "schedule '" + s.name + "': " + cron.status().message();
  }
  if (s.grace < Duration::zero()) return "schedule '" + s.name + "': grace must not be negative";
  if (auto why = records::value_limit_error(s.inputs, max_value_bytes, "the inputs")) {
    return "schedule '" + s.name + "': " + *why;
  }
  Value inputs = s.inputs;
  std::vector<FieldError> errors = validate_inputs(*def.data(), inputs);
  if (!errors.empty()) return "schedule '" + s.name + "': invalid inputs: " + describe(errors);
  return {};
}

}  // namespace

Status Engine::add_schedule(const Schedule& schedule) {
  DurableEnv* env = EngineAccess::durable_env(*this);
  if (env == nullptr) return Status::InvalidArgument("add_schedule needs an engine with a backend");
  std::optional<Definition> def = registry().find(schedule.reactor);
  if (!def) {
    return Status::NotFound("schedule '" + schedule.name + "': no reactor is registered as '" +
                            schedule.reactor + "'");
  }
  if (std::string why = schedule_error(schedule, *def, env->options.max_value_bytes);
      !why.empty()) {
    return Status::InvalidArgument(why);
  }
  const TimePoint now = clock().now();
  std::optional<Period> period = period_at(schedule, now);
  if (!period) {
    return Status::InvalidArgument("schedule '" + schedule.name + "': cron '" + schedule.cron +
                                   "' matches no minute within 5 years");
  }
  // Its first run is at the next boundary: the period it is added in counts as fired.
  return env->backend.upsert_schedule(
      schedule_row(schedule, to_unix_ms(period->start), to_unix_ms(now)));
}

Result<std::vector<ScheduleStatus>> Engine::list_schedules() {
  DurableEnv* env = EngineAccess::durable_env(*this);
  if (env == nullptr)
    return Status::InvalidArgument("list_schedules needs an engine with a backend");
  Result<std::vector<ScheduleRow>> rows = env->backend.list_schedules();
  if (!rows.ok()) return rows.status();
  std::vector<ScheduleStatus> out;
  const TimePoint now = clock().now();
  for (const ScheduleRow& row : *rows) {
    Result<Schedule> s = schedule_of(row);
    if (!s.ok()) return s.status();
    ScheduleStatus status{*s, std::nullopt, {}};
    if (row.last_fired_ms > 0) status.last_fired = from_unix_ms(row.last_fired_ms);
    status.fire = next_fire(*s, status.last_fired, now);
    out.push_back(std::move(status));
  }
  return out;
}

Result<std::size_t> Engine::fire_schedules() {
  DurableEnv* env = EngineAccess::durable_env(*this);
  if (env == nullptr)
    return Status::InvalidArgument("fire_schedules needs an engine with a backend");
  ScheduleTick tick = fire_due_schedules(
      env->backend, clock().now(),
      [this](const std::string& reactor) { return registry().find(reactor).has_value(); },
      [this](const std::string& reactor, Value inputs, const std::string& run_id) {
        return run_in_background(reactor, std::move(inputs), {.run_id = run_id}).status();
      });
  if (!tick.status.ok()) return tick.status;
  for (const std::string& e : tick.errors) logger().log(LogLevel::kError, "schedules: " + e);
  return tick.fired;
}

}  // namespace reactor
