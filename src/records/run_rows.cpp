#include "records/run_rows.hpp"

#include <map>
#include <stdexcept>

#include "reactor/limits.hpp"
#include "records/codec.hpp"
#include "records/json_reader.hpp"
#include "records/run_shape.hpp"

namespace reactor::records {
namespace {

// A step as a new run has it: pending, never attempted. Its header names it,
// so it needs no row of its own until it changes (most runs are created in
// bulk, long before any step runs).
bool untouched(const StepRecord& s) {
  return s.status == StepStatus::kPending && s.attempts == 0 && s.completion_seq == 0 &&
         s.started_at_ms == 0 && s.finished_at_ms == 0 && s.retry_at_ms == 0 && s.error.empty() &&
         !s.body_started && s.result.is_null() && s.children.empty();
}

}  // namespace

StepRow encode_step_row(const Run& run, std::size_t i) {
  return StepRow{run.id, static_cast<std::uint32_t>(i), encode_step(run.steps[i])};
}

void encode_created(const Run& run, std::int64_t expires_at_ms, RunRows& out) {
  out.headers.push_back(encode_header(run, expires_at_ms));
  out.inputs.push_back(RunInputsRow{run.id, encode_inputs(run.inputs)});
  for (std::size_t i = 0; i < run.steps.size(); ++i) {
    if (!untouched(run.steps[i])) out.steps.push_back(encode_step_row(run, i));
  }
}

void encode_trace_rows(const Run& root, std::size_t begin, RunRows& out) {
  for (std::size_t k = begin; k < root.trace.size(); ++k) {
    out.trace.push_back(TraceRow{root.id, k, encode_trace(root.trace[k])});
  }
}

void encode_tree(const Run& run, std::int64_t expires_at_ms, RunRows& out) {
  encode_created(run, expires_at_ms, out);
  for (const auto& rec : run.steps) {
    for (const auto& child : rec.children) encode_tree(child, expires_at_ms, out);
  }
}

namespace {

// Where a child hangs under its parent, read from its path: a composed child
// is "<parent path>/<step>" ("<step>" under a root), a map element adds "[k]".
struct Placement {
  std::string step;
  std::size_t element = 0;
};

Placement placement_of(const std::string& parent_path, const std::string& child_path) {
  std::string rest = child_path;
  if (!parent_path.empty()) {
    if (child_path.rfind(parent_path + "/", 0) != 0) {
      throw std::invalid_argument("child path '" + child_path + "' is not under '" + parent_path +
                                  "'");
    }
    rest = child_path.substr(parent_path.size() + 1);
  }
  Placement p;
  auto bracket = rest.find('[');
  p.step = rest.substr(0, bracket);
  if (bracket != std::string::npos) p.element = std::stoul(rest.substr(bracket + 1));
  return p;
}

}  // namespace

namespace {

// `level`: the parent's, the root's being 1. Children deeper than any definition composes
// (kMaxRunNesting) are corrupt: a chain of 100,000 child headers must not nest 100,000 Runs
// (their copies and destructors recurse).
void attach_children(Run& parent, std::map<std::string, std::vector<Run*>>& by_parent, int level) {
  auto it = by_parent.find(parent.id);
  if (it == by_parent.end()) return;
  if (level >= kMaxRunNesting) {
    throw std::invalid_argument("child runs nest deeper than " + std::to_string(kMaxRunNesting) +
                                " levels");
  }
  // Place each child at its step (and element index), then recurse.
  std::map<std::pair<std::size_t, std::size_t>, Run*> placed;
  for (Run* child : it->second) {
    Placement p = placement_of(parent.path, child->path);
    std::size_t step = parent.steps.size();
    for (std::size_t i = 0; i < parent.steps.size(); ++i) {
      if (parent.steps[i].name == p.step) step = i;
    }
    if (step == parent.steps.size()) {
      throw std::invalid_argument("child run " + child->id + " names unknown step '" + p.step +
                                  "'");
    }
    if (p.element >= kMaxMapElements) {
      throw std::invalid_argument("child run " + child->id + " is element " +
                                  std::to_string(p.element) + ", past " +
                                  std::to_string(kMaxMapElements));
    }
    placed[{step, p.element}] = child;
  }
  for (auto& [where, child] : placed) {
    auto& children = parent.steps[where.first].children;
    if (children.size() != where.second) {
      throw std::invalid_argument("children of step '" + parent.steps[where.first].name +
                                  "' are not contiguous");
    }
    children.push_back(std::move(*child));
  }
  for (auto& rec : parent.steps) {
    for (auto& child : rec.children) attach_children(child, by_parent, level + 1);
  }
}

Run decode_tree(const StoredRun& stored) {
  if (stored.headers.empty()) throw std::invalid_argument("no run header");
  std::map<std::string, Run> runs;
  for (const auto& h : stored.headers) runs.emplace(h.id, decode_header(h));
  for (const auto& in : stored.inputs) {
    auto it = runs.find(in.run_id);
    if (it != runs.end()) it->second.inputs = decode_inputs(in.inputs);
  }
  for (const auto& row : stored.steps) {
    auto it = runs.find(row.run_id);
    if (it == runs.end()) continue;
    if (row.index >= it->second.steps.size()) {
      throw std::invalid_argument("step " + std::to_string(row.index) + " of run " + row.run_id +
                                  " is out of range");
    }
    it->second.steps[row.index] = decode_step(row.body);
  }
  for (const auto& [id, run] : runs) {
    if (auto why = run_times_error(run)) throw std::invalid_argument(*why);
  }
  const std::string root_id = stored.headers.front().root_id;
  auto root_it = runs.find(root_id);
  if (root_it == runs.end()) throw std::invalid_argument("root header missing");
  std::map<std::string, std::vector<Run*>> by_parent;
  for (auto& [id, run] : runs) {
    if (id != root_id) by_parent[run.parent_id].push_back(&run);
  }
  Run root = std::move(root_it->second);
  attach_children(root, by_parent, 1);
  if (stored.trace.size() > kMaxTraceEvents) {
    throw std::invalid_argument("the trace holds " + std::to_string(stored.trace.size()) +
                                " events, more than " + std::to_string(kMaxTraceEvents));
  }
  root.trace.reserve(stored.trace.size());
  for (const auto& row : stored.trace) {
    if (row.seq != root.trace.size()) throw std::invalid_argument("trace has a gap");
    root.trace.push_back(decode_trace(row.body));
  }
  return root;
}

}  // namespace

void encode_whole_run(const Run& root, std::int64_t expires_at_ms, RunRows& out) {
  encode_tree(root, expires_at_ms, out);
  encode_trace_rows(root, 0, out);
}

Status decode_root_header(const StoredRun& stored, Run& out) {
  try {
    if (stored.headers.empty()) throw std::invalid_argument("no run header");
    out = decode_header(stored.headers.front());
    return Status::Ok();
  } catch (const std::exception& e) {
    std::string id = stored.headers.empty() ? "?" : stored.headers.front().root_id;
    return Status::Corruption("run " + id + ": unreadable header: " + e.what());
  }
}

Status decode_run(const StoredRun& stored, Run& out) {
  try {
    out = decode_tree(stored);
    return Status::Ok();
  } catch (const std::exception& e) {
    std::string id = stored.headers.empty() ? "?" : stored.headers.front().root_id;
    return Status::Corruption("run " + id + ": unreadable record: " + e.what());
  }
}

}  // namespace reactor::records
