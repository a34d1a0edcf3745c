// GET /api/coordination (what the store holds for coordination, as `reactor locks --json`) and
// GET /api/changes (a cheap fingerprint of the runs the page polls to refresh itself).
#include "web/coordination_json.hpp"
#include "web/dashboard/api.hpp"

namespace reactor::web {

Reply coordination(Api& api) {
  Result<CoordinationView> view = api.engine.backend()->coordination();
  if (!view.ok()) return status_reply(view.status());
  return Reply{200, coordination_json(*view)};
}

// The newest update and how many runs there are: any start, step or status change moves the first
// (a run's header is re-stamped on every write), a purge the second.
Reply changes(Api& api) {
  RunFilter filter;
  filter.limit = 1;
  filter.elements = true;
  Result<RunListing> newest = api.inspector.list_runs(filter);
  if (!newest.ok()) return status_reply(newest.status());
  std::string version = std::to_string(newest->total);
  if (!newest->runs.empty()) {
    version += ":" + std::to_string(newest->runs[0].updated_at_ms) + ":" + newest->runs[0].id;
  }
  return Reply{200, Value{{"version", version}}};
}

Reply error_reply(int http, const std::string& message) {
  return Reply{http, Value{{"error", message}}};
}

Reply status_reply(const Status& s) {
  int http = 500;
  switch (s.code()) {
    case StatusCode::kNotFound:
      http = 404;
      break;
    case StatusCode::kInvalidArgument:
      http = 400;
      break;
    case StatusCode::kFailedPrecondition:
      http = 409;
      break;
    case StatusCode::kAlreadyExists:
      http = 409;
      break;
    default:
      break;
  }
  return error_reply(http, s.to_string());
}

}  // namespace reactor::web
