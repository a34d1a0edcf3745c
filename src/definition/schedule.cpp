// Schedules (reactor/schedule.hpp): periods, what is due, and the UTC times run ids carry.
#include "reactor/schedule.hpp"

#include <charconv>
#include <cstdio>

namespace reactor {

namespace {

using std::chrono::milliseconds;

// Reads `n` digits at `at` of `s` into `out`; false if they are not there.
bool digits(std::string_view s, std::size_t& at, std::size_t n, int& out) {
  if (at + n > s.size()) return false;
  auto [end, ec] = std::from_chars(s.data() + at, s.data() + at + n, out);
  if (ec != std::errc() || end != s.data() + at + n) return false;
  at += n;
  return true;
}

bool expect(std::string_view s, std::size_t& at, char c) {
  if (at >= s.size() || s[at] != c) return false;
  ++at;
  return true;
}

// "+HH:MM", "-HH:MM" or "Z" at `at`, as minutes east of UTC.
bool offset(std::string_view s, std::size_t& at, int& minutes_east) {
  if (expect(s, at, 'Z') || expect(s, at, 'z')) {
    minutes_east = 0;
    return at == s.size();
  }
  if (at >= s.size() || (s[at] != '+' && s[at] != '-')) return false;
  const int sign = s[at++] == '-' ? -1 : 1;
  int h = 0, m = 0;
  if (!digits(s, at, 2, h) || !expect(s, at, ':') || !digits(s, at, 2, m)) return false;
  minutes_east = sign * (h * 60 + m);
  return at == s.size() && h < 24 && m < 60;
}

}  // namespace

const char* to_string(MissedPeriods m) { return m == MissedPeriods::kSkip ? "skip" : "fire_once"; }

std::optional<MissedPeriods> missed_periods_from_string(std::string_view name) {
  if (name == "fire_once") return MissedPeriods::kFireOnce;
  if (name == "skip") return MissedPeriods::kSkip;
  return std::nullopt;
}

std::string format_utc(TimePoint t) {
  const auto ms = std::chrono::floor<milliseconds>(t);
  const auto day = std::chrono::floor<std::chrono::days>(ms);
  const std::chrono::year_month_day ymd{day};
  const std::chrono::hh_mm_ss hms{ms - day};
  char buf[40];
  const long long frac = hms.subseconds().count();
  std::snprintf(buf, sizeof buf, "%04d-%02u-%02uT%02lld:%02lld:%02lld",
                static_cast<int>(ymd.year()), static_cast<unsigned>(ymd.month()),
                static_cast<unsigned>(ymd.day()), static_cast<long long>(hms.hours().count()),
                static_cast<long long>(hms.minutes().count()),
                static_cast<long long>(hms.seconds().count()));
  std::string out = buf;
  if (frac != 0) {
    std::snprintf(buf, sizeof buf, ".%03lld", frac);
    out += buf;
  }
  return out + "Z";
}

Result<TimePoint> parse_utc(std::string_view s) {
  const auto bad = [&] {
    return Status::InvalidArgument("'" + std::string(s) +
                                   "' is no ISO 8601 time (e.g. 2026-12-03T19:00:00Z)");
  };
  std::size_t at = 0;
  int y = 0, mo = 0, d = 0, h = 0, mi = 0, sec = 0, ms = 0, east = 0;
  if (!digits(s, at, 4, y) || !expect(s, at, '-') || !digits(s, at, 2, mo) || !expect(s, at, '-') ||
      !digits(s, at, 2, d) || !(expect(s, at, 'T') || expect(s, at, ' ')) || !digits(s, at, 2, h) ||
      !expect(s, at, ':') || !digits(s, at, 2, mi)) {
    return bad();
  }
  if (expect(s, at, ':') && !digits(s, at, 2, sec)) return bad();
  if (expect(s, at, '.') && !digits(s, at, 3, ms)) return bad();
  if (!offset(s, at, east)) return bad();
  const std::chrono::year_month_day ymd{std::chrono::year(y), std::chrono::month(mo),
                                        std::chrono::day(d)};
  if (!ymd.ok() || h > 23 || mi > 59 || sec > 59) return bad();
  const auto t = std::chrono::sys_days(ymd) + std::chrono::hours(h) + std::chrono::minutes(mi) +
                 std::chrono::seconds(sec) + milliseconds(ms) - std::chrono::minutes(east);
  return TimePoint(t);
}

std::string scheduled_run_id(const std::string& name, TimePoint at) {
  std::string basic = format_utc(at);
  std::erase_if(basic, [](char c) { return c == '-' || c == ':'; });
  return name + "@" + basic;
}

std::optional<Period> period_at(const Schedule& s, TimePoint t) {
  if (s.cron.empty()) {
    const std::int64_t every = std::chrono::duration_cast<milliseconds>(s.every).count();
    if (every <= 0) return std::nullopt;
    const std::int64_t now = to_unix_ms(t);
    std::int64_t start = now / every * every;
    if (start > now) start -= every;  // before the epoch
    return Period{from_unix_ms(start), from_unix_ms(start + every)};
  }
  Result<CronExpression> cron = CronExpression::parse(s.cron);
  if (!cron.ok()) return std::nullopt;
  std::optional<TimePoint> start = cron->last_at_or_before(t);
  std::optional<TimePoint> next = cron->next_after(t);
  if (!start || !next) return std::nullopt;
  return Period{*start, *next};
}

NextFire next_fire(const Schedule& s, std::optional<TimePoint> last_fired, TimePoint now) {
  NextFire out;
  std::optional<Period> p = period_at(s, now);
  if (!p) {
    // No current period (a cron expression's first match is ahead): only the next one.
    if (!s.cron.empty()) {
      if (auto cron = CronExpression::parse(s.cron); cron.ok()) out.next = cron->next_after(now);
    }
    return out;
  }
  out.next = p->next;
  if (last_fired && p->start <= *last_fired) return out;                         // fired already
  if (s.missed == MissedPeriods::kSkip && now - p->start > s.grace) return out;  // missed
  out.due = p->start;
  return out;
}

}  // namespace reactor
