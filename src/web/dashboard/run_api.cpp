// GET /api/runs/<id>: one run as the run page draws it — its result, steps, the timeline of every
// execution, its inputs masked, its maps with their failing elements, its async units, the
// interrupts it waits at. Every string holding a redacted input's value is masked too (redact.cpp).
#include "web/dashboard/api.hpp"
#include "web/dashboard/redact.hpp"
#include "web/shared_json.hpp"

namespace reactor::web {

namespace {

constexpr std::size_t kFailedElementsShown = 100;
// The slots read for them: 40 pages, so that a large map's page stays quick.
constexpr std::uint32_t kSlotsScanned = 10240;

Value timeline_json(const RunResult& r) {
  Value out = Value::array();
  for (const TraceEvent& e : r.trace) {
    out.push_back({{"type", to_string(e.type)},
                   {"step", e.step},
                   {"attempt", e.attempt},
                   {"outcome", e.outcome},
                   {"message", e.message},
                   {"at_ms", e.at_ms},
                   {"worker", e.worker},
                   {"token", e.token},
                   // An execution lost with its worker: the step ran again after it.
                   {"re_executed", e.type == TraceType::kInterrupted}});
  }
  return out;
}

Value steps_json(const RunResult& r) {
  Value out = Value::array();
  for (const StepOutcome& s : r.steps) {
    out.push_back({{"step", s.step},
                   {"status", to_string(s.status)},
                   {"attempts", s.attempts},
                   {"interrupted", s.interrupted},
                   {"result", s.result}});
  }
  return out;
}

// The elements of `map` that failed (element runs or claimed elements, read from its slots), at
// most kFailedElementsShown.
Value failed_elements(Api& api, const MapProgress& map) {
  Value out = Value::array();
  Result<std::vector<std::string>> ids =
      api.inspector.failed_elements(map, kFailedElementsShown, kSlotsScanned);
  if (ids.ok()) {
    for (std::string& id : *ids) out.push_back(std::move(id));
  }
  return out;
}

Value map_json(Api& api, const MapProgress& m) {
  Value out = map_progress_json(m);
  out["element_reactor"] = m.element_reactor;
  out["failed_elements"] = failed_elements(api, m);  // no read when none failed
  return out;
}

// The run's maps, split into fan-out maps and async units (whose one element run is linked).
void add_maps(Api& api, const RunResult& r, Value& out) {
  out["maps"] = Value::array();
  out["units"] = Value::array();
  Result<std::vector<MapProgress>> maps = api.inspector.run_maps(r.run_id);
  if (!maps.ok()) return;
  for (const MapProgress& m : *maps) {
    if (api.engine.registry().is_async_unit(r.reactor, m.step)) {
      Result<RunResult> unit = api.engine.find(element_run_id(m.map_id, 0));
      out["units"].push_back({{"step", m.step},
                              {"run_id", element_run_id(m.map_id, 0)},
                              {"status", unit.ok() ? to_string(unit->status) : "unknown"}});
    } else {
      out["maps"].push_back(map_json(api, m));
    }
  }
}

Value waiting_json(Api& api, const RunResult& r) {
  Value out = Value::array();
  if (r.status != RunStatus::kPaused) return out;
  RunFilter filter;
  filter.status = RunStatus::kPaused;
  filter.reactor = r.reactor;
  filter.elements = r.run_id.find(':') != std::string::npos;
  filter.limit = 20000;
  Result<RunListing> listing = api.inspector.list_runs(filter);
  if (!listing.ok()) return out;
  for (const RunSummary& s : listing->runs) {
    if (s.id != r.run_id) continue;
    for (const WaitingInterrupt& w : s.waiting) {
      out.push_back(
          {{"step", w.step}, {"correlation_id", w.correlation_id}, {"deadline_ms", w.deadline_ms}});
    }
  }
  return out;
}

}  // namespace

Reply show_run(Api& api, const std::string& run_id) {
  Result<RunResult> found = api.engine.find(run_id);
  if (!found.ok()) return status_reply(found.status());
  const RunResult& r = *found;
  Value out{{"id", r.run_id},
            {"reactor", r.reactor},
            {"status", to_string(r.status)},
            {"value", r.value},
            {"steps", steps_json(r)},
            {"timeline", timeline_json(r)},
            {"retried_from", r.retried_from},
            {"retries", r.retries},
            {"trace_summary", r.trace_summary()}};
  out["error"] = r.error ? Value(*r.error) : Value(nullptr);
  Result<std::optional<ElementInfo>> element = api.inspector.element_of(run_id);
  if (element.ok() && *element) {
    out["element_of"] = {{"map_id", (*element)->map_id},
                         {"index", (*element)->index},
                         {"parent_id", (*element)->parent_id},
                         {"owner_id", (*element)->owner_id}};
  }
  add_maps(api, r, out);
  out["waiting"] = waiting_json(api, r);
  Result<Value> inputs = api.inspector.inputs_of(run_id);
  Value raw = inputs.ok() ? *inputs : Value(nullptr);
  out["inputs"] = inputs.ok() ? masked_inputs(api.engine, r.reactor, raw) : Value(nullptr);
  scrub_secrets(out, raw, out["inputs"]);
  return Reply{200, std::move(out)};
}

}  // namespace reactor::web
