#include "durability/run_records.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>

#include "core/json_text.hpp"
#include "core/run_json.hpp"

namespace reactor {
namespace {

// The version of the stored header written here. 2: the body names the run's
// steps ("step_names"), and a step still as it was created has no row. 1 (read
// only): the body counts them ("step_count"), and every step has a row.
constexpr int kHeaderVersion = 2;

std::string step_names_json(const Run& run) {
  std::string out = "[";
  for (std::size_t i = 0; i < run.steps.size(); ++i) {
    if (i > 0) out += ',';
    json_text::append_string(out, run.steps[i].name);
  }
  out += ']';
  return out;
}

// The records below are written on every step, so they are written as text
// directly (core/json_text.hpp): the same bytes as dumping the Value forms
// (keys in sorted order), without copying the step's result into a Value.
std::string header_body(const Run& run) {
  std::string out;
  json_text::ObjectWriter o(out);
  o.field("created_at_ms", run.created_at_ms);
  if (run.error) {
    o.value("error", Value(*run.error));
  } else {
    o.null("error");
  }
  if (run.failed_step) {
    o.field("failed_step", static_cast<std::uint64_t>(*run.failed_step));
  } else {
    o.null("failed_step");
  }
  o.field("next_completion_seq", run.next_completion_seq)
      .field("path", run.path)
      .raw("step_names", step_names_json(run))
      .value("value", run.value)
      .close();
  return out;
}

std::string step_text(const StepRecord& s) {
  std::string out;
  out.reserve(256);
  json_text::ObjectWriter(out)
      .field("attempts", s.attempts)
      .field("body_started", s.body_started)
      .field("completion_seq", s.completion_seq)
      .field("error", s.error)
      .field("finished_at_ms", s.finished_at_ms)
      .field("name", s.name)
      .value("result", s.result)
      .field("retry_at_ms", s.retry_at_ms)
      .field("started_at_ms", s.started_at_ms)
      .field("status", to_string(s.status))
      .close();
  return out;
}

// A step row as step_text writes it (durable rows carry no children).
StepRecord decode_step(std::string_view text) {
  StepRecord s;
  using namespace json_text;
  read_object(text, {
                        {"attempts", into(s.attempts)},
                        {"body_started", into(s.body_started)},
                        {"completion_seq", into(s.completion_seq)},
                        {"error", into(s.error)},
                        {"finished_at_ms", into(s.finished_at_ms)},
                        {"name", into(s.name)},
                        {"result", into(s.result)},
                        {"retry_at_ms", into(s.retry_at_ms)},
                        {"started_at_ms", into(s.started_at_ms)},
                        {"status", into(s.status, step_status_from_string)},
                    });
  return s;
}

std::string trace_text(const TraceEvent& e) {
  std::string out;
  json_text::ObjectWriter(out)
      .field("at_ms", e.at_ms)
      .field("attempt", e.attempt)
      .field("message", e.message)
      .field("outcome", e.outcome)
      .field("step", e.step)
      .field("type", to_string(e.type))
      .close();
  return out;
}

StepRow step_row(const Run& run, std::size_t i) {
  return StepRow{run.id, static_cast<std::uint32_t>(i), step_text(run.steps[i])};
}

// A step as a new run has it: pending, never attempted. Its header names it,
// so it needs no row of its own until it changes (most runs are created in
// bulk, long before any step runs).
bool untouched(const StepRecord& s) {
  return s.status == StepStatus::kPending && s.attempts == 0 && s.completion_seq == 0 &&
         s.started_at_ms == 0 && s.finished_at_ms == 0 && s.retry_at_ms == 0 && s.error.empty() &&
         !s.body_started && s.result.is_null() && s.children.empty();
}

void encode_created(const Run& run, std::int64_t expires_at_ms, CommitRequest& out) {
  out.headers.push_back(encode_header(run, expires_at_ms));
  out.inputs.push_back(RunInputsRow{run.id, run.inputs.dump()});
  for (std::size_t i = 0; i < run.steps.size(); ++i) {
    if (!untouched(run.steps[i])) out.steps.push_back(step_row(run, i));
  }
}

void encode_trace(const Run& root, std::size_t begin, CommitRequest& out) {
  for (std::size_t k = begin; k < root.trace.size(); ++k) {
    out.trace.push_back(TraceRow{root.id, k, trace_text(root.trace[k])});
  }
}

void encode_tree(const Run& run, std::int64_t expires_at_ms, CommitRequest& out) {
  encode_created(run, expires_at_ms, out);
  for (const auto& rec : run.steps) {
    for (const auto& child : rec.children) encode_tree(child, expires_at_ms, out);
  }
}

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

Run decode_header(const RunHeaderRow& row) {
  if (row.schema_version < 1 || row.schema_version > kHeaderVersion) {
    throw std::invalid_argument("run " + row.id + " has unsupported schema_version " +
                                std::to_string(row.schema_version));
  }
  Run run;
  run.id = row.id;
  run.root_id = row.root_id;
  run.parent_id = row.parent_id;
  run.reactor = row.reactor;
  run.status = row.status;
  run.fingerprint = row.fingerprint;
  // Version 1 counts the steps, version 2 names them (kHeaderVersion).
  using namespace json_text;
  const bool named = row.schema_version >= 2;
  const auto read_steps = [&](std::string_view v) {
    if (!named) {
      run.steps.resize(read_uint64(v));
      return;
    }
    const Value names = read_value(v);
    if (!names.is_array()) throw std::invalid_argument("step_names is not an array");
    run.steps.resize(names.size());
    for (std::size_t i = 0; i < names.size(); ++i) run.steps[i].name = names[i].get<std::string>();
  };
  read_object(row.body, {
                            {"created_at_ms", into(run.created_at_ms)},
                            {"error",
                             [&](std::string_view v) {
                               if (!is_null(v)) run.error = read_value(v).get<RunError>();
                             }},
                            {"failed_step",
                             [&](std::string_view v) {
                               if (!is_null(v)) run.failed_step = read_uint64(v);
                             }},
                            {"next_completion_seq", into(run.next_completion_seq)},
                            {"path", into(run.path)},
                            {named ? "step_names" : "step_count", read_steps},
                            {"value", into(run.value)},
                        });
  run.updated_at_ms = row.updated_at_ms;
  return run;
}

namespace {

void attach_children(Run& parent, std::map<std::string, std::vector<Run*>>& by_parent) {
  auto it = by_parent.find(parent.id);
  if (it == by_parent.end()) return;
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
    for (auto& child : rec.children) attach_children(child, by_parent);
  }
}

Run decode_tree(const StoredRun& stored) {
  if (stored.headers.empty()) throw std::invalid_argument("no run header");
  std::map<std::string, Run> runs;
  for (const auto& h : stored.headers) runs.emplace(h.id, decode_header(h));
  for (const auto& in : stored.inputs) {
    auto it = runs.find(in.run_id);
    if (it != runs.end()) it->second.inputs = Value::parse(in.inputs);
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
  const std::string root_id = stored.headers.front().root_id;
  auto root_it = runs.find(root_id);
  if (root_it == runs.end()) throw std::invalid_argument("root header missing");
  std::map<std::string, std::vector<Run*>> by_parent;
  for (auto& [id, run] : runs) {
    if (id != root_id) by_parent[run.parent_id].push_back(&run);
  }
  Run root = std::move(root_it->second);
  attach_children(root, by_parent);
  for (const auto& row : stored.trace) {
    if (row.seq != root.trace.size()) throw std::invalid_argument("trace has a gap");
    root.trace.push_back(Value::parse(row.body).get<TraceEvent>());
  }
  return root;
}

}  // namespace

RunHeaderRow encode_header(const Run& run, std::int64_t expires_at_ms) {
  return RunHeaderRow{
      run.id,          run.root_id,    run.parent_id,    run.reactor,       run.status,
      run.fingerprint, kHeaderVersion, header_body(run), run.updated_at_ms, expires_at_ms};
}

void encode_whole_run(const Run& root, std::int64_t expires_at_ms, CommitRequest& out) {
  encode_tree(root, expires_at_ms, out);
  encode_trace(root, 0, out);
}

void encode_delta(const Run& root, const CheckpointDelta& delta, std::int64_t expires_at_ms,
                  CommitRequest& out) {
  std::set<const Run*> written;
  for (const Run* run : delta.created) {
    if (written.insert(run).second) encode_created(*run, expires_at_ms, out);
  }
  for (const Run* run : delta.headers) {
    if (written.insert(run).second) out.headers.push_back(encode_header(*run, expires_at_ms));
  }
  std::set<std::pair<const Run*, std::size_t>> steps_written;
  for (const auto& [run, i] : delta.steps) {
    if (delta.created.end() != std::find(delta.created.begin(), delta.created.end(), run)) continue;
    if (steps_written.insert({run, i}).second) out.steps.push_back(step_row(*run, i));
  }
  // Expiry is re-stamped on every write: the root's header always goes.
  if (!written.count(&root)) out.headers.push_back(encode_header(root, expires_at_ms));
  encode_trace(root, delta.trace_begin, out);
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

}  // namespace reactor
