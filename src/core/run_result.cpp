#include "reactor/run_result.hpp"

#include <stdexcept>
#include <string>

#include "reactor/run.hpp"

namespace reactor {

namespace {

// Whether `path` (a child run's path) is already complete below `prefix`. Run::path is meant to
// be the full path inside the root ("payment/items[2]"); a bare name ("items[2]") is accepted
// too, and placed under its parent. Bare names never contain '/', so the two never mix up.
std::string child_prefix(const std::string& prefix, const std::string& child_path) {
  const bool full = !prefix.empty() && child_path.compare(0, prefix.size(), prefix) == 0;
  return (full ? child_path : prefix + child_path) + "/";
}

// Each step, then its children's steps right after it, so a reader sees a composed step's
// inner work where the step sits in the definition.
void flatten(const Run& run, const std::string& prefix, std::vector<StepOutcome>& out) {
  for (const StepRecord& record : run.steps) {
    out.push_back(StepOutcome{prefix + record.name, record.status, record.result, record.attempts});
    for (const Run& child : record.children) flatten(child, child_prefix(prefix, child.path), out);
  }
}

std::size_t count_steps(const Run& run) {
  std::size_t n = run.steps.size();
  for (const StepRecord& record : run.steps) {
    for (const Run& child : record.children) n += count_steps(child);
  }
  return n;
}

void flatten_move(Run& run, const std::string& prefix, std::vector<StepOutcome>& out) {
  for (StepRecord& record : run.steps) {
    out.push_back(StepOutcome{prefix.empty() ? std::move(record.name) : prefix + record.name,
                              record.status, std::move(record.result), record.attempts});
    for (Run& child : record.children) flatten_move(child, child_prefix(prefix, child.path), out);
  }
}

Value step_outcome_to_json(const StepOutcome& s) {
  return Value{{"step", s.step},
               {"status", to_string(s.status)},
               {"result", s.result},
               {"attempts", s.attempts}};
}

StepOutcome step_outcome_from_json(const Value& j) {
  if (!j.is_object()) throw std::invalid_argument("step outcome is not an object");
  StepOutcome s;
  j.at("step").get_to(s.step);
  s.status = step_status_from_string(j.at("status").get<std::string>());
  s.result = j.at("result");
  j.at("attempts").get_to(s.attempts);
  return s;
}

const Value& array_at(const Value& j, const char* key) {
  const Value& a = j.at(key);
  if (!a.is_array()) throw std::invalid_argument(std::string("'") + key + "' is not an array");
  return a;
}

void check_schema_version(const Value& j) {
  if (!j.is_object()) throw std::invalid_argument("run result is not a JSON object");
  auto it = j.find("schema_version");
  if (it == j.end()) throw std::invalid_argument("run result has no schema_version");
  if (!it->is_number_integer()) {
    throw std::invalid_argument("run result schema_version is not an integer");
  }
  const auto version = it->get<std::int64_t>();
  if (version < 1 || version > RunResult::kSchemaVersion) {
    throw std::invalid_argument("run result has unsupported schema_version " +
                                std::to_string(version) + " (this build reads up to " +
                                std::to_string(RunResult::kSchemaVersion) + ")");
  }
}

RunResult run_result_body_from_json(const Value& j) {
  RunResult r;
  j.at("run_id").get_to(r.run_id);
  j.at("reactor").get_to(r.reactor);
  r.status = run_status_from_string(j.at("status").get<std::string>());
  r.value = j.at("value");
  if (const Value& error = j.at("error"); !error.is_null()) r.error = error.get<RunError>();
  for (const Value& e : array_at(j, "trace")) r.trace.push_back(e.get<TraceEvent>());
  for (const Value& s : array_at(j, "steps")) r.steps.push_back(step_outcome_from_json(s));
  return r;
}

}  // namespace

const StepOutcome* RunResult::step(const std::string& path) const {
  for (const StepOutcome& s : steps) {
    if (s.step == path) return &s;
  }
  return nullptr;
}

RunResult make_run_result(const Run& run) {
  RunResult r;
  r.run_id = run.id;
  r.reactor = run.reactor;
  r.status = run.status;
  r.value = run.value;
  r.error = run.error;
  r.trace = run.trace;
  flatten(run, "", r.steps);
  return r;
}

RunResult make_run_result(Run&& run) {
  RunResult r;
  r.run_id = std::move(run.id);
  r.reactor = std::move(run.reactor);
  r.status = run.status;
  r.value = std::move(run.value);
  r.error = std::move(run.error);
  r.trace = std::move(run.trace);
  r.steps.reserve(count_steps(run));
  flatten_move(run, "", r.steps);
  return r;
}

Value to_json(const RunResult& r) {
  Value steps = Value::array();
  for (const StepOutcome& s : r.steps) steps.push_back(step_outcome_to_json(s));
  return Value{{"schema_version", RunResult::kSchemaVersion},
               {"run_id", r.run_id},
               {"reactor", r.reactor},
               {"status", to_string(r.status)},
               {"value", r.value},
               {"error", r.error ? Value(*r.error) : Value(nullptr)},
               {"trace", r.trace},
               {"steps", std::move(steps)}};
}

RunResult run_result_from_json(const Value& j) {
  check_schema_version(j);
  try {
    return run_result_body_from_json(j);
  } catch (const Value::exception& e) {
    throw std::invalid_argument(std::string("malformed run result: ") + e.what());
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(std::string("malformed run result: ") + e.what());
  }
}

}  // namespace reactor
