// `show`: one stored run — a root or a fan-out map's element run — with the progress of every
// fan-out map it dispatched, as the Inspector reads them.
#include <cstdio>
#include <iostream>

#include "engine/cli_commands.hpp"
#include "engine/cli_text.hpp"
#include "reactor/inspector.hpp"

namespace reactor::cli {

namespace {

// What `show` prints beside the run's result: its maps, and what an element run belongs to.
struct MapsOfRun {
  std::vector<MapProgress> maps;
  std::optional<ElementInfo> element;
};

// A run whose records cannot be read shows what its header says (Engine::find): no maps then.
// Any other error is the store's.
Status read_maps(Inspector& inspector, const std::string& run_id, MapsOfRun& out) {
  Status s = inspector.element_of(run_id, out.element);
  if (s.ok()) s = inspector.run_maps(run_id, out.maps);
  if (s.code() == StatusCode::kCorruption || s.code() == StatusCode::kNotFound) {
    out.maps.clear();  // unreadable, or purged since it was found
    return Status::Ok();
  }
  return s;
}

Value map_json(const MapProgress& m) {
  return Value{
      {"map_id", m.map_id},         {"step", m.step},          {"state", to_string(m.state)},
      {"total", m.total},           {"done", m.done},          {"failed", m.failed},
      {"in_flight", m.in_flight()}, {"rolled_back", m.undone}, {"released", m.released},
      {"batch_size", m.batch_size}, {"atomic", m.atomic},      {"owner_id", m.owner_id}};
}

void print_json(const RunResult& r, const MapsOfRun& extra) {
  Value j = to_json(r);
  Value maps = Value::array();
  for (const MapProgress& m : extra.maps) maps.push_back(map_json(m));
  j["maps"] = std::move(maps);
  if (extra.element) {
    j["element_of"] = Value{{"map_id", extra.element->map_id},
                            {"index", extra.element->index},
                            {"parent_id", extra.element->parent_id},
                            {"owner_id", extra.element->owner_id}};
  }
  std::cout << j.dump(2) << "\n";
}

// "element  3 of map R:sum (owner run R)": the map and the run it resumes, and the run holding
// the map step when that is a composed child of the owner.
void print_element(const ElementInfo& e) {
  std::printf("element  %u of map %s", e.index, e.map_id.c_str());
  if (!e.owner_id.empty()) std::printf(" (owner run %s)", e.owner_id.c_str());
  std::printf("\n");
  if (e.parent_id != e.owner_id) std::printf("parent   %s\n", e.parent_id.c_str());
}

// One line per map, as the steps are shown: its step, its state, then its counts.
void print_maps(const std::vector<MapProgress>& maps) {
  if (maps.empty()) return;
  std::printf("maps\n");
  for (const MapProgress& m : maps) {
    std::printf("  %-28s %-16s total=%u done=%u failed=%u in_flight=%u rolled_back=%u batch=%u\n",
                m.step.c_str(), to_string(m.state), m.total, m.done, m.failed, m.in_flight(),
                m.undone, m.batch_size);
  }
}

void print_text(const RunResult& r, const MapsOfRun& extra) {
  std::printf("run      %s\nreactor  %s\nstatus   %s\n", r.run_id.c_str(), r.reactor.c_str(),
              to_string(r.status));
  if (extra.element) print_element(*extra.element);
  if (r.ok()) std::printf("value    %s\n", r.value.dump().c_str());
  if (r.error) {
    std::printf("error    %s at '%s': %s\n", to_string(r.error->kind), r.error->step.c_str(),
                r.error->message.c_str());
  }
  std::printf("steps\n");
  for (const auto& step : r.steps) {
    // A step re-executed after its execution was lost with a worker says how often.
    const std::string lost =
        step.interrupted > 0 ? " interrupted=" + std::to_string(step.interrupted) : "";
    std::printf("  %-28s %-16s attempts=%d%s\n", step.step.c_str(), to_string(step.status),
                step.attempts, lost.c_str());
  }
  print_maps(extra.maps);
  std::printf("trace    %s\n", r.trace_summary().c_str());
}

}  // namespace

int run_show(const Context& ctx, const std::string& run_id, bool json) {
  const std::string who = ctx.program + " show";
  auto engine = open_store(ctx, "show", StoreUse::kMustExist, ctx.options.engine.durability);
  if (!engine) return 2;
  RunResult r;
  if (Status s = engine->find(run_id, r); !s.ok()) {
    print_error(who, s.to_string());
    return s.code() == StatusCode::kNotFound ? 2 : 1;
  }
  Inspector inspector(*engine->backend());
  MapsOfRun extra;
  if (Status s = read_maps(inspector, run_id, extra); !s.ok()) {
    print_error(who, s.to_string());
    return 1;
  }
  if (json) {
    print_json(r, extra);
  } else {
    print_text(r, extra);
  }
  return 0;
}

}  // namespace reactor::cli
