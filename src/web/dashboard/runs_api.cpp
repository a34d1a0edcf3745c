// GET /api/runs: the runs list with its filters. Status and reactor filter in the store
// (RunFilter); the updated-time range, the search and the cursor are applied here over the
// store's listing, newest first, which is ordered by (updated_at_ms, id) descending.
#include <algorithm>
#include <stdexcept>

#include "web/dashboard/api.hpp"

namespace reactor::web {

namespace {

constexpr std::size_t kDefaultLimit = 50;
constexpr std::size_t kMaxLimit = 500;
// How many runs a filtered page (time range, cursor, correlation search) looks through at most.
constexpr std::size_t kScanLimit = 20000;

std::string param(const Params& p, const char* name) {
  auto it = p.find(name);
  return it == p.end() ? "" : it->second;
}

std::int64_t number(const Params& p, const char* name, std::int64_t fallback) {
  const std::string v = param(p, name);
  if (v.empty()) return fallback;
  std::size_t used = 0;
  const long long n = std::stoll(v, &used);
  if (used != v.size()) throw std::invalid_argument(std::string(name) + " is not a number");
  return n;
}

Value summary_json(const RunSummary& r) {
  Value waiting = Value::array();
  for (const WaitingInterrupt& w : r.waiting) {
    waiting.push_back(
        {{"step", w.step}, {"correlation_id", w.correlation_id}, {"deadline_ms", w.deadline_ms}});
  }
  return Value{{"id", r.id},
               {"reactor", r.reactor},
               {"status", to_string(r.status)},
               {"created_at_ms", r.created_at_ms},
               {"updated_at_ms", r.updated_at_ms},
               {"waiting", waiting}};
}

// Which runs a page shows: the filters RunFilter does not hold.
struct PageAsk {
  std::string search;
  std::int64_t from_ms = 0, to_ms = 0;  // 0: open
  std::int64_t cursor_ms = 0;
  std::string cursor_id;  // empty: the first page
  std::size_t limit = kDefaultLimit;

  bool scans() const { return !search.empty() || from_ms || to_ms || !cursor_id.empty(); }
  bool keeps(const RunSummary& r) const {
    if (from_ms && r.updated_at_ms < from_ms) return false;
    if (to_ms && r.updated_at_ms > to_ms) return false;
    if (!cursor_id.empty() &&
        (r.updated_at_ms > cursor_ms || (r.updated_at_ms == cursor_ms && r.id >= cursor_id))) {
      return false;
    }
    if (search.empty() || r.id == search) return true;
    return std::any_of(r.waiting.begin(), r.waiting.end(),
                       [&](const WaitingInterrupt& w) { return w.correlation_id == search; });
  }
};

PageAsk page_ask(const Params& p) {
  PageAsk ask;
  ask.search = param(p, "q");
  ask.from_ms = number(p, "from", 0);
  ask.to_ms = number(p, "to", 0);
  ask.limit = static_cast<std::size_t>(
      std::clamp<std::int64_t>(number(p, "limit", kDefaultLimit), 1, kMaxLimit));
  const std::string cursor = param(p, "cursor");  // "<updated_at_ms>:<id>"
  if (!cursor.empty()) {
    const auto colon = cursor.find(':');
    if (colon == std::string::npos) throw std::invalid_argument("cursor is not <ms>:<id>");
    ask.cursor_ms = std::stoll(cursor.substr(0, colon));
    ask.cursor_id = cursor.substr(colon + 1);
  }
  return ask;
}

// The counts a page shows above its table: the statuses that have runs.
Result<Value> status_counts(Api& api, const RunFilter& filter) {
  Result<StatusCounts> counts = count_by_status(api.inspector, filter, all_run_statuses());
  if (!counts.ok()) return counts.status();
  Value out = Value::object();
  for (const auto& [status, n] : *counts) {
    if (n > 0) out[to_string(status)] = n;
  }
  return out;
}

}  // namespace

Reply list_runs(Api& api, const Params& params) {
  RunFilter filter;
  PageAsk ask;
  try {
    ask = page_ask(params);
    if (!param(params, "status").empty()) {
      filter.status = run_status_from_string(param(params, "status"));
    }
  } catch (const std::exception& e) {
    return error_reply(400, e.what());
  }
  if (!param(params, "reactor").empty()) filter.reactor = param(params, "reactor");
  filter.elements = param(params, "elements") == "1";
  filter.limit = ask.scans() ? kScanLimit : ask.limit + 1;
  Result<RunListing> listing = api.inspector.list_runs(filter);
  if (!listing.ok()) return status_reply(listing.status());
  Value runs = Value::array();
  std::string next;
  for (const RunSummary& r : listing->runs) {
    if (!ask.keeps(r)) continue;
    if (runs.size() == ask.limit) {
      const Value& last = runs.back();
      next = std::to_string(last["updated_at_ms"].get<std::int64_t>()) + ":" +
             last["id"].get<std::string>();
      break;
    }
    runs.push_back(summary_json(r));
  }
  Result<Value> counts = status_counts(api, filter);  // every status, whatever the filter's
  if (!counts.ok()) return status_reply(counts.status());
  return Reply{
      200,
      Value{{"runs", runs}, {"next_cursor", next}, {"total", listing->total}, {"counts", *counts}}};
}

}  // namespace reactor::web
