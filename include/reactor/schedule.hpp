// Schedule: a periodic start of a registered reactor (docs/schedules.md) — every fixed period,
// or at the minutes a 5-field cron expression names (UTC). Registered with the engine
// (Engine::add_schedule) and kept in the store (schedule_store.hpp); every Worker serving the
// reactor may fire it, and each period starts exactly one run: its id is the schedule's name and
// the period's start, "<name>@20261203T190000Z", so a second fire of the period (another
// worker, a retry) is the idempotent start of the run that exists (Engine::run_in_background).
//
// Thread safety: a Schedule is a plain value; CronExpression is immutable once parsed and may be
// shared by any number of threads.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "reactor/clock.hpp"
#include "reactor/result.hpp"
#include "reactor/value.hpp"

namespace reactor {

// What a worker does when it comes up after periods passed while no worker ran.
enum class MissedPeriods {
  // It starts one run for the current period at once (however many periods were missed).
  kFireOnce,
  // Missed periods are skipped: a period whose start passed more than Schedule::grace ago when a
  // worker first sees it starts no run; the next run is at the next period boundary.
  kSkip,
};
const char* to_string(MissedPeriods m);  // "fire_once", "skip"
// NotFound-free parse of those names; nullopt for any other.
std::optional<MissedPeriods> missed_periods_from_string(std::string_view name);

// A parsed cron expression: "minute hour day-of-month month day-of-week", each field `*`, a
// number, a range `a-b`, a step `*/n` or `a-b/n`, or a comma list of those; UTC. Day of week
// 0-6 (Sunday 0; 7 is Sunday too). As cron has it, when both day fields are restricted (neither
// is `*`), a day matches either. Times are whole minutes.
class CronExpression {
 public:
  // InvalidArgument naming the field ("cron 'x': field 2 (hour): 25 is out of 0-23").
  static Result<CronExpression> parse(std::string_view text);

  // The first matching minute strictly after `t`; nullopt when none in the next 5 years (e.g.
  // February 30th).
  std::optional<TimePoint> next_after(TimePoint t) const;
  // The last matching minute at or before `t`, looking back at most 5 years.
  std::optional<TimePoint> last_at_or_before(TimePoint t) const;
  const std::string& text() const { return text_; }

 private:
  bool matches_day(int mday, int month, int wday) const;
  std::string text_;
  std::vector<bool> minute_, hour_, mday_, month_, wday_;
  bool mday_any_ = true, wday_any_ = true;
};

struct Schedule {
  std::string name{};     // unique among schedules; the runs' ids begin with it
  std::string reactor{};  // a registered reactor
  // Exactly one of: a fixed period (> 0, whole milliseconds; periods start at multiples of it
  // since the Unix epoch), or a cron expression.
  Duration every{0};
  std::string cron{};
  Value inputs = Value::object();  // every run's inputs, validated when the schedule is added
  MissedPeriods missed = MissedPeriods::kFireOnce;
  // kSkip: how late after its start a period may first be seen and still start its run.
  Duration grace = std::chrono::seconds(60);
};

// A period of a schedule: its start, and the next one's.
struct Period {
  TimePoint start;
  TimePoint next;
};
// The period of `s` that `t` is in. nullopt for a schedule with no period (every <= 0 and no
// valid cron expression) or a cron expression matching no minute within 5 years of `t`.
std::optional<Period> period_at(const Schedule& s, TimePoint t);

// What a worker looking at `s` at `now` does, the last period it fired starting at `last_fired`
// (nullopt: none): `due` is the start of the period whose run starts now, if any (the current
// period, not fired yet, and with kSkip no later than grace after its start); `next` is the next
// period boundary after `now`, when a run starts next if none is due.
struct NextFire {
  std::optional<TimePoint> due;
  std::optional<TimePoint> next;
};
NextFire next_fire(const Schedule& s, std::optional<TimePoint> last_fired, TimePoint now);

// A schedule as the store keeps it, for listings (Engine::list_schedules).
struct ScheduleStatus {
  Schedule schedule;
  std::optional<TimePoint> last_fired;  // the start of the last period a worker fired
  NextFire fire;                        // as seen now
};

// "<name>@<period start, ISO 8601 basic format, UTC>", e.g. "nightly@20261203T190000Z": the id of
// the run of `name`'s period starting at `at` (basic format: a run id holds no ':').
std::string scheduled_run_id(const std::string& name, TimePoint at);
// ISO 8601 UTC with seconds, "2026-12-03T19:00:00Z" (milliseconds when not whole seconds).
std::string format_utc(TimePoint t);
// Reads "2026-12-03T19:00:00Z", "2026-12-03T19:00Z", "2026-12-03T19:00:00.250Z" or with an
// offset "+02:00"; InvalidArgument otherwise.
Result<TimePoint> parse_utc(std::string_view text);

}  // namespace reactor
