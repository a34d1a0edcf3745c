#include "reactor/coordination.hpp"

#include <cstdio>

#include "definition/coordination_of.hpp"
#include "reactor/definition.hpp"

namespace reactor {

KeyFn constant_key(std::string key) {
  return [key = std::move(key)](const Args&) { return key; };
}

namespace {

using namespace std::chrono;

std::string two(unsigned v) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "%02u", v);
  return buf;
}

std::string date_of(const year_month_day& d) {
  return std::to_string(static_cast<int>(d.year())) + "-" + two(static_cast<unsigned>(d.month())) +
         "-" + two(static_cast<unsigned>(d.day()));
}

// ISO 8601: weeks start on Monday; week 1 is the one holding the year's first Thursday.
std::string iso_week_of(sys_days day) {
  const weekday wd{day};
  const int from_monday = static_cast<int>(wd.iso_encoding()) - 1;
  const sys_days thursday = day - days{from_monday} + days{3};
  const year y = year_month_day{thursday}.year();
  const int week = (thursday - sys_days{y / January / 1}).count() / 7 + 1;
  return std::to_string(static_cast<int>(y)) + "-W" + two(static_cast<unsigned>(week));
}

}  // namespace

std::string period_bucket(const PeriodSpec& p, std::int64_t unix_ms) {
  const sys_time<milliseconds> t{milliseconds{unix_ms}};
  const sys_days day = floor<days>(t);
  const year_month_day ymd{day};
  const hh_mm_ss<minutes> hm{floor<minutes>(t - day)};
  switch (p.unit) {
    case PeriodSpec::Unit::kSeconds: {
      const std::int64_t n = p.seconds < 1 ? 1 : p.seconds;
      const std::int64_t secs = unix_ms >= 0 ? unix_ms / 1000 : (unix_ms - 999) / 1000;
      return "s" + std::to_string(n) + ":" + std::to_string(secs / n);
    }
    case PeriodSpec::Unit::kMinute:
      return date_of(ymd) + "T" + two(hm.hours().count()) + ":" + two(hm.minutes().count());
    case PeriodSpec::Unit::kHour:
      return date_of(ymd) + "T" + two(hm.hours().count());
    case PeriodSpec::Unit::kDay:
      return date_of(ymd);
    case PeriodSpec::Unit::kWeek:
      return iso_week_of(day);
    case PeriodSpec::Unit::kMonth:
      return std::to_string(static_cast<int>(ymd.year())) + "-" +
             two(static_cast<unsigned>(ymd.month()));
    case PeriodSpec::Unit::kYear:
      return std::to_string(static_cast<int>(ymd.year()));
  }
  return "";
}

RateLimits& RateLimits::add(const std::string& name, std::vector<RateWindow> windows) {
  if (name.empty()) throw DefinitionError("rate limit: empty name");
  if (windows.empty()) throw DefinitionError("rate limit '" + name + "': no window");
  for (const RateWindow& w : windows) {
    if (w.limit < 1 || w.length < std::chrono::milliseconds(1)) {
      throw DefinitionError("rate limit '" + name +
                            "': every window needs a limit >= 1 and a length >= 1 ms");
    }
  }
  std::lock_guard lock(mu_);
  limits_[name] = std::move(windows);
  return *this;
}

std::optional<std::vector<RateWindow>> RateLimits::find(const std::string& name) const {
  std::lock_guard lock(mu_);
  auto it = limits_.find(name);
  if (it == limits_.end()) return std::nullopt;
  return it->second;
}

std::map<std::string, std::vector<RateWindow>> RateLimits::all() const {
  std::lock_guard lock(mu_);
  return limits_;
}

const CoordinationSpec& step_coordination(const StepSpec& s) {
  if (s.kind == StepKind::kCompose && s.child) return s.child->coordination;
  return s.coordination;
}

bool declares_coordination(const DefinitionData& d) {
  if (!d.coordination.empty()) return true;
  for (const StepSpec& s : d.steps) {
    if (!s.coordination.empty()) return true;
    if (s.child && declares_coordination(*s.child)) return true;
  }
  return false;
}

}  // namespace reactor
