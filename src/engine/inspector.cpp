#include "reactor/inspector.hpp"

#include <algorithm>
#include <unordered_set>

#include "durability/claims.hpp"
#include "records/codec.hpp"
#include "records/run_rows.hpp"

namespace reactor {

namespace {

// The header's creation time lives in its body, which only the record codec reads.
std::int64_t created_at_ms(const RunHeaderRow& row) {
  try {
    return records::decode_header(row).created_at_ms;
  } catch (const std::exception&) {
    return 0;  // unreadable: listed without it (the run fails when a worker meets it)
  }
}

// The root run every map id of `run_id` starts with: the run itself, or for an element run
// ("<root>:sum[3]") the root its map belongs to. A root's id holds no ':' (run_id_error).
std::string origin_of(const std::string& run_id) { return run_id.substr(0, run_id.find(':')); }

// The trace event of a fan-out map's step when its elements were handed to the queue
// (execution/step_attempt.cpp: a run event whose outcome is "dispatched").
bool is_dispatch(const TraceEvent& e) {
  return e.type == TraceType::kRun && e.outcome == "dispatched";
}

// The paths of the map steps the trace dispatched, first dispatch first, each once. A trace
// row that cannot be read is passed over: the run's own record says it is corrupt.
std::vector<std::string> dispatched_steps(const std::vector<TraceRow>& trace) {
  std::vector<std::string> steps;
  std::unordered_set<std::string> seen;
  for (const TraceRow& row : trace) {
    TraceEvent e;
    try {
      e = records::decode_trace(row.body);
    } catch (const std::exception&) {
      continue;
    }
    if (is_dispatch(e) && seen.insert(e.step).second) steps.push_back(e.step);
  }
  return steps;
}

MapProgress progress_of(const MapRow& m) {
  MapProgress p;
  p.map_id = m.map_id;
  const auto colon = m.map_id.find(':');
  p.step = colon == std::string::npos ? "" : m.map_id.substr(colon + 1);
  p.owner_id = m.owner_id;
  p.element_reactor = m.element_reactor;
  p.state = m.state;
  p.atomic = m.atomic;
  p.batch_size = m.batch_size;
  p.total = m.total;
  p.released = m.released;
  p.done = m.done;
  p.interrupted = m.interrupted;
  p.cancelled = m.cancelled;
  p.failed = m.failed;
  p.undone = m.undone;
  return p;
}

// The interrupts of `run` (a tree) that wait for their payload, by path under `prefix`.
void collect_waiting(const Run& run, const std::string& prefix,
                     std::vector<WaitingInterrupt>& out) {
  for (const StepRecord& rec : run.steps) {
    const std::string path = prefix.empty() ? rec.name : prefix + "/" + rec.name;
    if (rec.status == StepStatus::kPaused) {
      out.push_back(WaitingInterrupt{path, rec.correlation_id, rec.deadline_ms});
    }
    if (rec.children.size() == 1) collect_waiting(rec.children[0], path, out);
  }
}

}  // namespace

Result<RunListing> Inspector::list_runs(const RunFilter& filter) const {
  RunListing out;
  Result<std::vector<RunHeaderRow>> rows = runs_.list_runs(filter);
  if (!rows.ok()) return rows.status();
  Result<std::size_t> total = runs_.count_runs(filter);
  if (!total.ok()) return total.status();
  out.runs.reserve(rows->size());
  for (const RunHeaderRow& row : *rows) {
    out.runs.push_back(
        RunSummary{row.id, row.reactor, row.status, created_at_ms(row), row.updated_at_ms, {}});
    if (row.status == RunStatus::kPaused) out.runs.back().waiting = waiting_in(row.id);
  }
  out.total = std::max(*total, out.runs.size());
  return out;
}

// A run unreadable now (purged, corrupt) shows no interrupt: the listing is of headers.
std::vector<WaitingInterrupt> Inspector::waiting_in(const std::string& run_id) const {
  std::vector<WaitingInterrupt> out;
  Result<StoredRun> stored = runs_.load_run(run_id);
  Run run;
  if (stored.ok() && records::decode_run(*stored, run).ok()) collect_waiting(run, "", out);
  return out;
}

Result<std::vector<std::string>> Inspector::failed_elements(const MapProgress& map,
                                                            std::size_t limit,
                                                            std::uint32_t max_scanned) const {
  constexpr std::uint32_t kPage = 256;
  const std::size_t wanted = std::min<std::size_t>(limit, map.failed);
  const std::uint32_t end = std::min(max_scanned, map.total);
  std::vector<std::string> out;
  for (std::uint32_t first = 0; first < end && out.size() < wanted; first += kPage) {
    Result<std::vector<MapSlotRow>> page = maps_.load_map_slots(map.map_id, first, kPage);
    if (!page.ok()) return page.status();
    for (const MapSlotRow& slot : *page) {
      if (slot.state == SlotState::kFailed && out.size() < wanted) {
        out.push_back(element_run_id(map.map_id, slot.index));
      }
    }
  }
  return out;
}

Result<MapProgress> Inspector::map_progress(const std::string& map_id) const {
  Result<MapRow> row = maps_.load_map(map_id);
  if (!row.ok()) return row.status();
  return progress_of(*row);
}

Result<std::vector<MapProgress>> Inspector::run_maps(const std::string& run_id) const {
  std::vector<MapProgress> out;
  Result<StoredRun> stored = runs_.load_run(run_id);
  if (!stored.ok()) return stored.status();
  const std::string origin = origin_of(run_id);
  for (const std::string& step : dispatched_steps(stored->trace)) {
    Result<MapProgress> p = map_progress(origin + ":" + step);
    if (p.status().code() == StatusCode::kNotFound) continue;  // purged meanwhile: nothing to show
    if (!p.ok()) return p.status();
    out.push_back(std::move(p).value());
  }
  return out;
}

Result<std::optional<ElementInfo>> Inspector::element_of(const std::string& run_id) const {
  Result<RunHeaderRow> loaded = runs_.load_header(run_id);
  if (loaded.status().code() == StatusCode::kNotFound) return claimed_element(run_id);
  if (!loaded.ok()) return loaded.status();
  const RunHeaderRow& header = *loaded;
  // An element run is a root of its own (its own records) with a parent: the run holding the map.
  if (header.parent_id.empty() || header.root_id != header.id) return std::nullopt;
  ElementInfo info;
  info.parent_id = header.parent_id;
  std::optional<ElementOf> of;
  try {
    of = records::decode_header(header).element_of;
  } catch (const std::exception&) {
    // Unreadable: its id still says which element it is.
  }
  if (!of) {
    of = parse_element_run_id(run_id);
    if (!of) return std::nullopt;
  }
  info.map_id = of->map_id;
  info.index = of->index;
  Result<MapRow> map = maps_.load_map(info.map_id);
  const Status& s = map.status();
  if (s.ok()) {
    info.owner_id = map->owner_id;
    info.owner_reactor = map->owner_reactor;
    info.step = info.map_id.substr(info.map_id.find(':') + 1);
  }
  if (!s.ok() && s.code() != StatusCode::kNotFound) return s;
  return std::optional<ElementInfo>(std::move(info));
}

// An element of a claimed map has no run of its own: its claim's run says where it stands.
Result<std::optional<ElementInfo>> Inspector::claimed_element(const std::string& run_id) const {
  std::optional<ElementOf> of = parse_element_run_id(run_id);
  MapRow map;
  RunHeaderRow claim;
  Status s = of ? find_claimed(runs_, maps_, *of, map, claim) : Status::NotFound("");
  if (s.code() == StatusCode::kNotFound) return Status::NotFound("run " + run_id + " not found");
  if (!s.ok()) return s;
  ElementInfo info;
  info.map_id = of->map_id;
  info.index = of->index;
  info.parent_id = claim.parent_id;
  info.owner_id = map.owner_id;
  info.owner_reactor = map.owner_reactor;
  info.step = info.map_id.substr(info.map_id.find(':') + 1);
  return std::optional<ElementInfo>(std::move(info));
}

Result<std::vector<QueueStats>> Inspector::queue_stats(
    const std::vector<std::string>& queues) const {
  if (backend_ == nullptr) return Status::FailedPrecondition("queue_stats: no job queue to ask");
  return backend_->queue_stats(queues);
}

Result<Value> Inspector::inputs_of(const std::string& run_id) const {
  Result<StoredRun> stored = runs_.load_run(origin_of(run_id));
  if (!stored.ok()) return stored.status();
  for (const RunInputsRow& row : stored->inputs) {
    if (row.run_id != run_id) continue;
    try {
      return records::decode_inputs(row.inputs);
    } catch (const std::exception& e) {
      return Status::Corruption("inputs of run '" + run_id + "': " + e.what());
    }
  }
  return Status::NotFound("no inputs stored for run '" + run_id + "'");
}

}  // namespace reactor
