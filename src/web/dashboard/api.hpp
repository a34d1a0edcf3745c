// The dashboard's JSON API (docs/observability.md, "The JSON API"): one function per endpoint, each
// reading through the Inspector and the Engine's read calls, or acting through the Engine's own
// operations. The HTTP plumbing (routes.cpp) maps a Reply onto the response.
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "reactor/engine.hpp"
#include "reactor/inspector.hpp"
#include "reactor/metrics.hpp"
#include "reactor/value.hpp"

namespace reactor::web {

// What an endpoint answers: an HTTP status and a JSON body.
struct Reply {
  int http = 200;
  Value body;
};

// The query string's parameters, one value each.
using Params = std::map<std::string, std::string>;

struct Api {
  Engine& engine;
  Inspector inspector;
};

// {"error": message} with `http`; and the HTTP status a Status maps to (NotFound 404,
// InvalidArgument 400, FailedPrecondition 409, others 500).
Reply error_reply(int http, const std::string& message);
Reply status_reply(const Status& s);

Reply list_runs(Api& api, const Params& params);         // GET /api/runs
Reply show_run(Api& api, const std::string& run_id);     // GET /api/runs/<id>
Reply list_reactors(Api& api);                           // GET /api/reactors
Reply reactor_graph(Api& api, const std::string& name);  // GET /api/reactors/<n>
Reply coordination(Api& api);                            // GET /api/coordination
Reply changes(Api& api);                                 // GET /api/changes
Reply workers(Api& api);                                 // GET /api/workers
Reply run_action(Api& api, const std::string& run_id, const std::string& action,
                 const std::string& body);  // POST /api/runs/<id>/<action>

// The queues of the reactors registered in `engine`, sorted, each once.
std::vector<std::string> registered_queues(const Engine& engine);

// How many runs match `filter` in each of `statuses` (its own status is ignored), one count each.
using StatusCounts = std::vector<std::pair<RunStatus, std::size_t>>;
Result<StatusCounts> count_by_status(const Inspector& inspector, RunFilter filter,
                                     const std::vector<RunStatus>& statuses);

// Declares the store's gauges in `registry` (queues, runs by status), collected through `api` on
// every scrape; `api` must outlive the registry's scrapes.
void add_store_metrics(MetricsRegistry& registry, Api& api);

// The run's inputs with every field its reactor's schema marks redacted() masked; the inputs as
// stored when the reactor is not registered here is never shown: {"unknown reactor": ...}.
Value masked_inputs(const Engine& engine, const std::string& reactor, const Value& inputs);

}  // namespace reactor::web
