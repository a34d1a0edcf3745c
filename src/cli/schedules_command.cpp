// `schedules`: the periodic starts the store keeps (reactor/schedule.hpp, docs/schedules.md) —
// name, reactor, period or cron expression, missed-period policy, last period fired and next
// fire time — as a table or one JSON object per line; `--add NAME` adds (or replaces) one first.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <iostream>

#include "cli/command.hpp"
#include "cli/text.hpp"
#include "records/codec.hpp"

namespace reactor::cli {

namespace {

struct SchedulesOptions {
  bool json = false;
  std::string add;  // --add NAME
  std::string reactor;
  std::string every;
  std::string cron;
  std::string inputs = "{}";
  std::string missed = "fire_once";
};

std::string period_text(const Schedule& s) {
  if (!s.cron.empty()) return "cron " + s.cron;
  const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(s.every).count();
  return "every " + (ms % 1000 == 0 ? std::to_string(ms / 1000) + "s" : std::to_string(ms) + "ms");
}

std::string time_text(const std::optional<TimePoint>& t) { return t ? format_utc(*t) : "-"; }

// When its next run starts: now, for a period due (its start named), else the next boundary.
std::string next_text(const ScheduleStatus& s) {
  if (s.fire.due) return "now (period " + format_utc(*s.fire.due) + ")";
  return time_text(s.fire.next);
}

void print_table(const std::vector<ScheduleStatus>& list) {
  if (list.empty()) {
    std::printf("no schedules\n");
    return;
  }
  std::printf("%-20s %-16s %-22s %-9s %-24s %s\n", "NAME", "REACTOR", "PERIOD", "MISSED",
              "LAST FIRED", "NEXT FIRE");
  for (const ScheduleStatus& s : list) {
    std::printf("%-20s %-16s %-22s %-9s %-24s %s\n", s.schedule.name.c_str(),
                s.schedule.reactor.c_str(), period_text(s.schedule).c_str(),
                to_string(s.schedule.missed), time_text(s.last_fired).c_str(),
                next_text(s).c_str());
  }
}

Value status_json(const ScheduleStatus& s) {
  Value j{{"name", s.schedule.name},
          {"reactor", s.schedule.reactor},
          {"missed", to_string(s.schedule.missed)},
          {"inputs", s.schedule.inputs},
          {"last_fired", s.last_fired ? Value(format_utc(*s.last_fired)) : Value()},
          {"due", s.fire.due ? Value(format_utc(*s.fire.due)) : Value()},
          {"next", s.fire.next ? Value(format_utc(*s.fire.next)) : Value()}};
  if (s.schedule.cron.empty()) {
    j["every_ms"] = std::chrono::duration_cast<std::chrono::milliseconds>(s.schedule.every).count();
  } else {
    j["cron"] = s.schedule.cron;
  }
  return j;
}

// --add: the schedule the options describe, added; the exit code (0 when it was).
int add_schedule(Engine& engine, const SchedulesOptions& o, const std::string& who) {
  Schedule s;
  s.name = o.add;
  s.reactor = o.reactor;
  s.cron = o.cron;
  if (!o.every.empty()) s.every = *parse_delay(o.every);
  s.missed = *missed_periods_from_string(o.missed);
  try {
    s.inputs = records::decode_value(o.inputs);
  } catch (const std::exception& e) {
    print_error(who, "--inputs is not valid JSON: " + std::string(e.what()));
    return 2;
  }
  if (Status added = engine.add_schedule(s); !added.ok()) {
    print_error(who, added.to_string());
    return added.code() == StatusCode::kUnavailable ? 1 : 2;
  }
  return 0;
}

int run_schedules(const Context& ctx, const SchedulesOptions& o) {
  const std::string who = ctx.program + " schedules";
  const StoreUse use = o.add.empty() ? StoreUse::kMustExist : StoreUse::kMayCreate;
  auto engine = open_store(ctx, "schedules", use, ctx.options.engine.durability);
  if (!engine) return 2;
  if (!o.add.empty()) {
    if (int code = add_schedule(*engine, o, who); code != 0) return code;
  }
  Result<std::vector<ScheduleStatus>> list = engine->list_schedules();
  if (!list.ok()) {
    print_error(who, list.status().to_string());
    return 1;
  }
  if (!o.json) {
    print_table(*list);
    return 0;
  }
  for (const ScheduleStatus& s : *list) std::cout << status_json(s).dump() << "\n";
  return 0;
}

class SchedulesCommand final : public Command {
 public:
  const char* name() const override { return "schedules"; }
  const char* description() const override {
    return "List the periodic starts (--add NAME: add or replace one first)";
  }
  void declare(CLI::App& sub) override {
    SchedulesOptions& o = options_;
    sub.add_flag("--json", o.json, "One JSON object per schedule and line");
    auto* add = sub.add_option("--add", o.add, "Add (or replace) the schedule NAME first");
    sub.add_option("--reactor", o.reactor, "With --add: the registered reactor it starts")
        ->needs(add);
    auto* every = sub.add_option("--every", o.every, "With --add: its period (1s, 10m, 2h, 1d)")
                      ->needs(add)
                      ->check(CLI::Validator(
                          [](std::string& s) {
                            return parse_delay(s) ? std::string()
                                                  : "'" + s + "' is no period (e.g. 1s, 10m, 1d)";
                          },
                          "PERIOD"));
    sub.add_option("--cron", o.cron,
                   "With --add: a cron expression, 'minute hour day-of-month month day-of-week' "
                   "(UTC)")
        ->needs(add)
        ->excludes(every);
    sub.add_option("--inputs", o.inputs, "With --add: every run's inputs, a JSON object")
        ->needs(add);
    sub.add_option("--missed", o.missed,
                   "With --add: missed periods, fire_once (one run at once) or skip (wait for "
                   "the next boundary); default fire_once")
        ->needs(add)
        ->check(CLI::IsMember({"fire_once", "skip"}));
  }
  int run(const Context& ctx) override { return run_schedules(ctx, options_); }

 private:
  SchedulesOptions options_;
};

}  // namespace

std::unique_ptr<Command> schedules_command() { return std::make_unique<SchedulesCommand>(); }

}  // namespace reactor::cli
