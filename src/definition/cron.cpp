// CronExpression (reactor/schedule.hpp): five fields parsed into the values each admits, and a
// search day by day for the next or last matching minute, in UTC.
#include <charconv>
#include <chrono>

#include "reactor/schedule.hpp"

namespace reactor {

namespace {

using std::chrono::days;
using std::chrono::minutes;
using std::chrono::sys_days;

struct FieldRange {
  const char* name;
  int lo;
  int hi;
};
constexpr FieldRange kFields[5] = {{"minute", 0, 59},
                                   {"hour", 0, 23},
                                   {"day of month", 1, 31},
                                   {"month", 1, 12},
                                   {"day of week", 0, 7}};
constexpr int kSearchDays = 366 * 5;

std::optional<int> number(std::string_view s) {
  int n = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), n);
  if (ec != std::errc() || end != s.data() + s.size() || s.empty()) return std::nullopt;
  return n;
}

// One item of a list: `*`, `a`, `a-b`, each with an optional `/step`. Empty when it is valid.
std::string parse_item(std::string_view item, const FieldRange& f, std::vector<bool>& bits) {
  int step = 1;
  bool stepped = false;
  if (auto slash = item.find('/'); slash != std::string_view::npos) {
    auto n = number(item.substr(slash + 1));
    if (!n || *n < 1) return "step '" + std::string(item.substr(slash + 1)) + "' is no number >= 1";
    step = *n;
    stepped = true;
    item = item.substr(0, slash);
  }
  int a = f.lo, b = f.hi;
  if (item != "*") {
    const auto dash = item.find('-');
    auto first = number(item.substr(0, dash));
    auto last = dash == std::string_view::npos ? first : number(item.substr(dash + 1));
    if (!first || !last) return "'" + std::string(item) + "' is not a number or a range";
    a = *first;
    b = dash == std::string_view::npos && stepped ? f.hi : *last;  // "5/15": 5-59/15
    for (int v : {a, b}) {
      if (v < f.lo || v > f.hi) {
        return std::to_string(v) + " is out of " + std::to_string(f.lo) + "-" +
               std::to_string(f.hi);
      }
    }
    if (a > b) return "range " + std::string(item) + " goes backwards";
  }
  for (int v = a; v <= b; v += step) bits[static_cast<std::size_t>(v)] = true;
  return {};
}

std::string parse_field(std::string_view text, const FieldRange& f, std::vector<bool>& bits) {
  bits.assign(static_cast<std::size_t>(f.hi) + 1, false);
  std::size_t at = 0;
  for (;;) {
    std::size_t comma = text.find(',', at);
    if (comma == std::string_view::npos) comma = text.size();
    const std::string_view item = text.substr(at, comma - at);
    if (item.empty()) return "an empty item";
    if (std::string why = parse_item(item, f, bits); !why.empty()) return why;
    if (comma == text.size()) return {};
    at = comma + 1;
  }
}

std::vector<std::string_view> split_fields(std::string_view text) {
  std::vector<std::string_view> out;
  std::size_t at = 0;
  while (at < text.size()) {
    if (text[at] == ' ' || text[at] == '\t') {
      ++at;
      continue;
    }
    std::size_t end = text.find_first_of(" \t", at);
    if (end == std::string_view::npos) end = text.size();
    out.push_back(text.substr(at, end - at));
    at = end;
  }
  return out;
}

}  // namespace

Result<CronExpression> CronExpression::parse(std::string_view text) {
  const std::string quoted = "cron '" + std::string(text) + "'";
  std::vector<std::string_view> parts = split_fields(text);
  if (parts.size() != 5) {
    return Status::InvalidArgument(quoted + ": expected 5 fields (minute hour day-of-month month " +
                                   "day-of-week), got " + std::to_string(parts.size()));
  }
  CronExpression c;
  c.text_ = std::string(text);
  std::vector<bool>* bits[5] = {&c.minute_, &c.hour_, &c.mday_, &c.month_, &c.wday_};
  for (std::size_t i = 0; i < 5; ++i) {
    if (std::string why = parse_field(parts[i], kFields[i], *bits[i]); !why.empty()) {
      return Status::InvalidArgument(quoted + ": field " + std::to_string(i + 1) + " (" +
                                     kFields[i].name + "): " + why);
    }
  }
  if (c.wday_[7]) c.wday_[0] = true;  // 7 is Sunday too
  c.mday_any_ = parts[2].front() == '*';
  c.wday_any_ = parts[4].front() == '*';
  return c;
}

bool CronExpression::matches_day(int mday, int month, int wday) const {
  if (!month_[static_cast<std::size_t>(month)]) return false;
  const bool by_mday = mday_[static_cast<std::size_t>(mday)];
  const bool by_wday = wday_[static_cast<std::size_t>(wday)];
  if (mday_any_ && wday_any_) return true;
  if (mday_any_) return by_wday;
  if (wday_any_) return by_mday;
  return by_mday || by_wday;  // both restricted: either, as cron has it
}

namespace {

// A day's fields as a cron expression names them.
struct DayFields {
  int day_of_month, month, day_of_week;
};

DayFields fields_of(sys_days day) {
  const std::chrono::year_month_day ymd{day};
  return {static_cast<int>(static_cast<unsigned>(ymd.day())),
          static_cast<int>(static_cast<unsigned>(ymd.month())),
          static_cast<int>(std::chrono::weekday{day}.c_encoding())};
}

}  // namespace

std::optional<TimePoint> CronExpression::next_after(TimePoint t) const {
  const auto first = std::chrono::floor<minutes>(t) + minutes(1);
  sys_days day = std::chrono::floor<days>(first);
  int from = static_cast<int>((first - day).count());
  for (int i = 0; i < kSearchDays; ++i, day += days(1), from = 0) {
    const DayFields f = fields_of(day);
    if (!matches_day(f.day_of_month, f.month, f.day_of_week)) continue;
    for (int m = from; m < 1440; ++m) {
      if (hour_[static_cast<std::size_t>(m / 60)] && minute_[static_cast<std::size_t>(m % 60)]) {
        return TimePoint(day + minutes(m));
      }
    }
  }
  return std::nullopt;
}

std::optional<TimePoint> CronExpression::last_at_or_before(TimePoint t) const {
  const auto last = std::chrono::floor<minutes>(t);
  sys_days day = std::chrono::floor<days>(last);
  int from = static_cast<int>((last - day).count());
  for (int i = 0; i < kSearchDays; ++i, day -= days(1), from = 1439) {
    const DayFields f = fields_of(day);
    if (!matches_day(f.day_of_month, f.month, f.day_of_week)) continue;
    for (int m = from; m >= 0; --m) {
      if (hour_[static_cast<std::size_t>(m / 60)] && minute_[static_cast<std::size_t>(m % 60)]) {
        return TimePoint(day + minutes(m));
      }
    }
  }
  return std::nullopt;
}

}  // namespace reactor
