// `show`: one stored run — a root, a fan-out map's element run or an async unit's run — with
// where each step ran, the progress of every fan-out map it dispatched and the async units it
// sent off (docs/async.md), as the Inspector reads them.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <iostream>

#include "cli/command.hpp"
#include "cli/text.hpp"
#include "reactor/inspector.hpp"
#include "reactor/records.hpp"
#include "web/shared_json.hpp"

namespace reactor::cli {

namespace {

// An async unit the run sent off: its step, and its run as it stands.
struct UnitOfRun {
  MapProgress map;
  RunResult run;
};

// What `show` prints beside the run's result: its maps, its async units, and what an element or
// unit run belongs to.
struct MapsOfRun {
  std::vector<MapProgress> maps;
  std::vector<UnitOfRun> units;
  std::optional<ElementInfo> element;
  bool is_unit = false;  // the element is an async unit's run
};

// The worker that last ran step `path`, as the trace says ("" in process). An element's or a
// unit's run traces its steps under its own path ("invoice[0]/render" for step "render").
std::string ran_on(const RunResult& r, const std::string& path) {
  const std::string nested = "/" + path;
  for (auto it = r.trace.rbegin(); it != r.trace.rend(); ++it) {
    const bool same =
        it->step == path || (it->step.size() > nested.size() && it->step.ends_with(nested) &&
                             it->step.find('/') == it->step.size() - nested.size());
    if (same && it->type == TraceType::kRun) return it->worker;
  }
  return "";
}

// Splits the run's maps into fan-out maps and async units (their runs read from the store).
void sort_units(Engine& engine, const RunResult& r, MapsOfRun& out) {
  std::vector<MapProgress> maps;
  for (MapProgress& m : out.maps) {
    if (!engine.registry().is_async_unit(r.reactor, m.step)) {
      maps.push_back(std::move(m));
      continue;
    }
    UnitOfRun unit{std::move(m), {}};
    if (Result<RunResult> found = engine.find(element_run_id(unit.map.map_id, 0)); found.ok()) {
      unit.run = std::move(found).value();
    } else {
      unit.run.run_id = element_run_id(unit.map.map_id, 0);
    }
    out.units.push_back(std::move(unit));
  }
  out.maps = std::move(maps);
  if (out.element) {
    out.is_unit = engine.registry().is_async_unit(out.element->owner_reactor, out.element->step);
  }
}

// A run whose records cannot be read shows what its header says (Engine::find): no maps then.
// Any other error is the store's.
Status read_maps(Inspector& inspector, const std::string& run_id, MapsOfRun& out) {
  Result<std::optional<ElementInfo>> element = inspector.element_of(run_id);
  Status s = element.status();
  if (s.ok()) {
    out.element = std::move(element).value();
    Result<std::vector<MapProgress>> maps = inspector.run_maps(run_id);
    s = maps.status();
    if (s.ok()) out.maps = std::move(maps).value();
  }
  if (s.code() == StatusCode::kCorruption || s.code() == StatusCode::kNotFound) {
    out.maps.clear();  // unreadable, or purged since it was found
    return Status::Ok();
  }
  return s;
}

void print_json(const RunResult& r, const MapsOfRun& extra) {
  Value j = to_json(r);
  Value maps = Value::array();
  for (const MapProgress& m : extra.maps) maps.push_back(web::map_progress_json(m));
  j["maps"] = std::move(maps);
  Value units = Value::array();
  for (const UnitOfRun& u : extra.units) {
    units.push_back(Value{{"step", u.map.step},
                          {"run_id", u.run.run_id},
                          {"reactor", u.map.element_reactor},
                          {"status", to_string(u.run.status)}});
  }
  j["units"] = std::move(units);
  if (extra.element) {
    j[extra.is_unit ? "unit_of" : "element_of"] = Value{{"map_id", extra.element->map_id},
                                                        {"index", extra.element->index},
                                                        {"step", extra.element->step},
                                                        {"parent_id", extra.element->parent_id},
                                                        {"owner_id", extra.element->owner_id}};
  }
  std::cout << j.dump(2) << "\n";
}

// "element  3 of map R:sum (owner run R)": the map and the run it resumes, and the run holding
// the map step when that is a composed child of the owner. An async unit's run: "unit of  run R
// (step invoice)".
void print_element(const ElementInfo& e, bool is_unit) {
  if (is_unit) {
    std::printf("unit of  run %s (step %s)\n", e.parent_id.c_str(), e.step.c_str());
    return;
  }
  std::printf("element  %u of map %s", e.index, e.map_id.c_str());
  if (!e.owner_id.empty()) std::printf(" (owner run %s)", e.owner_id.c_str());
  std::printf("\n");
  if (e.parent_id != e.owner_id) std::printf("parent   %s\n", e.parent_id.c_str());
}

// One line per async unit: its step, its run's status and id, and where it ran.
void print_units(const std::vector<UnitOfRun>& units) {
  if (units.empty()) return;
  std::printf("units\n");
  for (const UnitOfRun& u : units) {
    std::vector<std::string> workers;
    for (const auto& step : u.run.steps) {
      const std::string w = ran_on(u.run, step.step);
      if (!w.empty() && std::find(workers.begin(), workers.end(), w) == workers.end()) {
        workers.push_back(w);
      }
    }
    std::string on;
    for (const std::string& w : workers) on += (on.empty() ? "" : ",") + w;
    std::printf("  %-28s %-16s run=%s%s\n", u.map.step.c_str(), to_string(u.run.status),
                u.run.run_id.c_str(), on.empty() ? "" : (" on=" + on).c_str());
  }
}

// One line per map, as the steps are shown: its step, its state, then its counts.
void print_maps(const std::vector<MapProgress>& maps) {
  if (maps.empty()) return;
  std::printf("maps\n");
  for (const MapProgress& m : maps) {
    std::printf(
        "  %-28s %-16s total=%u done=%u failed=%u in_flight=%u rolled_back=%u batch=%u "
        "interrupted=%u cancelled=%u\n",
        m.step.c_str(), to_string(m.state), m.total, m.done, m.failed, m.in_flight(), m.undone,
        m.batch_size, m.interrupted, m.cancelled);
  }
}

void print_text(const RunResult& r, const MapsOfRun& extra) {
  std::printf("run      %s\nreactor  %s\nstatus   %s\n", r.run_id.c_str(), r.reactor.c_str(),
              to_string(r.status));
  if (extra.element) print_element(*extra.element, extra.is_unit);
  if (std::optional<ClaimOf> claim = parse_claim_run_id(r.run_id)) {
    // A claim's value is its elements': each is shown as '<map>[i]'.
    std::printf("claim    elements %u..%u of map %s (owner run %s)\n", claim->first, claim->last,
                claim->map_id.c_str(), claim->map_id.substr(0, claim->map_id.find(':')).c_str());
  } else if (r.ok()) {
    std::printf("value    %s\n", r.value.dump().c_str());
  }
  if (r.error) {
    std::printf("error    %s at '%s': %s\n", to_string(r.error->kind), r.error->step.c_str(),
                r.error->message.c_str());
  }
  std::printf("steps\n");
  for (const auto& step : r.steps) {
    // A step re-executed after its execution was lost with a worker says how often.
    const std::string lost =
        step.interrupted > 0 ? " interrupted=" + std::to_string(step.interrupted) : "";
    // Where it ran: the caller and the workers of a handed-off run differ.
    const std::string on = ran_on(r, step.step);
    std::printf("  %-28s %-16s attempts=%d%s%s\n", step.step.c_str(), to_string(step.status),
                step.attempts, lost.c_str(), on.empty() ? "" : (" on=" + on).c_str());
  }
  print_maps(extra.maps);
  print_units(extra.units);
  std::printf("trace    %s\n", r.trace_summary().c_str());
}

int run_show(const Context& ctx, const std::string& run_id, bool json) {
  const std::string who = ctx.program + " show";
  auto engine = open_store(ctx, "show", StoreUse::kMustExist, ctx.options.engine.durability);
  if (!engine) return 2;
  Result<RunResult> found = engine->find(run_id);
  if (!found.ok()) {
    print_error(who, found.status().to_string());
    return found.status().code() == StatusCode::kNotFound ? 2 : 1;
  }
  const RunResult& r = *found;
  Inspector inspector(*engine->backend());
  MapsOfRun extra;
  if (Status s = read_maps(inspector, run_id, extra); !s.ok()) {
    print_error(who, s.to_string());
    return 1;
  }
  sort_units(*engine, r, extra);
  if (json) {
    print_json(r, extra);
  } else {
    print_text(r, extra);
  }
  return 0;
}

class ShowCommand final : public Command {
 public:
  const char* name() const override { return "show"; }
  const char* description() const override {
    return "Show one stored run: status, steps, fan-out maps' progress, trace, error";
  }
  void declare(CLI::App& sub) override {
    sub.add_option("run_id", run_id_,
                   "Run id (a map's element too, '<run>:<map>[i]', or claim, '<run>:<map>[a..b]')")
        ->required();
    sub.add_flag("--json", json_, "Print the run result as JSON");
  }
  int run(const Context& ctx) override { return run_show(ctx, run_id_, json_); }

 private:
  std::string run_id_;
  bool json_ = false;
};

}  // namespace

std::unique_ptr<Command> show_command() { return std::make_unique<ShowCommand>(); }

}  // namespace reactor::cli
