// The JSON forms users hold, through the records' field lists
// (records/fields.hpp): run snapshots (run_to_json), run results
// (to_json(RunResult)) and trace events. Each carries a schema version that
// guards readers against a newer release's records.
#include <cstdint>
#include <stdexcept>
#include <string>

#include "reactor/limits.hpp"
#include "reactor/run.hpp"
#include "reactor/run_result.hpp"
#include "records/fields.hpp"
#include "records/value_fields.hpp"
#include "records/value_limits.hpp"

namespace reactor {

namespace {

using records::ValueReader;

// How deep a snapshot or result may nest: its values at most kMaxValueDepth levels, inside a
// few levels (run, steps, step, children, …) per run of the kMaxRunNesting a tree may hold.
constexpr int kMaxSnapshotDepth = kMaxValueDepth + 8 * kMaxRunNesting;
using records::ValueWriter;

// Iterating a JSON object yields its values, so a record with an object where a list belongs
// would otherwise be read without complaint.
const Value& array_at(const Value& j, const char* key) {
  const Value& a = j.at(key);
  if (!a.is_array()) throw std::invalid_argument(std::string("'") + key + "' is not an array");
  return a;
}

void check_schema_version(const Value& j, const char* what, int newest) {
  if (!j.is_object()) throw std::invalid_argument(std::string(what) + " is not a JSON object");
  // A parsed Value nests as deep as its text did; reading it copies its members recursively.
  // A run's values nest at most kMaxValueDepth levels, and its record a few levels more per
  // composed run.
  const records::ValueSize size = records::measure_value(j, SIZE_MAX, kMaxSnapshotDepth);
  if (size.depth > kMaxSnapshotDepth) {
    throw std::invalid_argument(std::string(what) + " nests deeper than " +
                                std::to_string(kMaxSnapshotDepth) + " levels");
  }
  auto it = j.find("schema_version");
  if (it == j.end()) throw std::invalid_argument(std::string(what) + " has no schema_version");
  if (!it->is_number_integer()) {
    throw std::invalid_argument(std::string(what) + " schema_version is not an integer");
  }
  const auto version = it->get<std::int64_t>();
  if (version < 1 || version > newest) {
    throw std::invalid_argument(std::string(what) + " has unsupported schema_version " +
                                std::to_string(version) + " (this build reads up to " +
                                std::to_string(newest) + ")");
  }
}

// Callers handle one exception type for every unreadable record.
template <typename Read>
auto read_or_throw(const char* what, Read&& read) {
  try {
    return read();
  } catch (const Value::exception& e) {
    throw std::invalid_argument(std::string("malformed ") + what + ": " + e.what());
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(std::string("malformed ") + what + ": " + e.what());
  }
}

Value run_body_to_json(const Run& run);
Run run_body_from_json(const Value& j);

// A step with its children (composed child or map elements): in a snapshot
// the whole tree is one value; children carry no schema_version of their own.
Value step_to_json(const StepRecord& s) {
  Value j = Value::object();
  ValueWriter v(j);
  records::fields(s, v);
  Value children = Value::array();
  for (const Run& child : s.children) children.push_back(run_body_to_json(child));
  j["children"] = std::move(children);
  return j;
}

StepRecord step_from_json(const Value& j) {
  StepRecord s;
  ValueReader v(j);
  records::fields(s, v);
  if (j.contains("children")) {
    for (const Value& child : array_at(j, "children")) {
      s.children.push_back(run_body_from_json(child));
    }
  }
  return s;
}

Value run_body_to_json(const Run& run) {
  Value j = Value::object();
  ValueWriter v(j);
  records::run_identity_fields(run, v);
  records::run_state_fields(run, v);
  j["inputs"] = run.inputs;
  Value steps = Value::array();
  for (const StepRecord& s : run.steps) steps.push_back(step_to_json(s));
  j["steps"] = std::move(steps);
  j["trace"] = run.trace;
  return j;
}

Run run_body_from_json(const Value& j) {
  Run run;
  ValueReader v(j);
  records::run_identity_fields(run, v);
  records::run_state_fields(run, v);
  run.inputs = j.at("inputs");
  for (const Value& s : array_at(j, "steps")) run.steps.push_back(step_from_json(s));
  for (const Value& e : array_at(j, "trace")) run.trace.push_back(e.get<TraceEvent>());
  return run;
}

// One step of a result, children flattened under their paths.
struct StepOutcomeFields {
  template <typename S, typename V>
  void operator()(S& s, V& v) const {
    v("step", s.step);
    v("status", s.status);
    v("result", s.result);
    v("attempts", s.attempts);
    v.optional("interrupted", s.interrupted);
  }
};

}  // namespace

void to_json(Value& j, const TraceEvent& e) {
  j = Value::object();
  ValueWriter v(j);
  records::fields(e, v);
}

void from_json(const Value& j, TraceEvent& e) {
  ValueReader v(j);
  records::fields(e, v);
}

Value run_to_json(const Run& run) {
  Value j = run_body_to_json(run);
  j["schema_version"] = Run::kSchemaVersion;
  return j;
}

Run run_from_json(const Value& j) {
  check_schema_version(j, "run record", Run::kSchemaVersion);
  return read_or_throw("run record", [&] { return run_body_from_json(j); });
}

Value to_json(const RunResult& r) {
  Value steps = Value::array();
  for (const StepOutcome& s : r.steps) {
    Value step = Value::object();
    ValueWriter v(step);
    StepOutcomeFields{}(s, v);
    steps.push_back(std::move(step));
  }
  Value out{{"schema_version", RunResult::kSchemaVersion},
            {"run_id", r.run_id},
            {"reactor", r.reactor},
            {"status", to_string(r.status)},
            {"value", r.value},
            {"error", r.error ? Value(*r.error) : Value(nullptr)},
            {"trace", r.trace},
            {"steps", std::move(steps)}};
  // Added later: present only when set, so results without them read as before.
  if (!r.retried_from.empty()) out["retried_from"] = r.retried_from;
  if (!r.retries.empty()) out["retries"] = r.retries;
  return out;
}

RunResult run_result_from_json(const Value& j) {
  check_schema_version(j, "run result", RunResult::kSchemaVersion);
  return read_or_throw("run result", [&] {
    RunResult r;
    j.at("run_id").get_to(r.run_id);
    j.at("reactor").get_to(r.reactor);
    r.status = run_status_from_string(j.at("status").get<std::string>());
    r.value = j.at("value");
    if (const Value& error = j.at("error"); !error.is_null()) r.error = error.get<RunError>();
    for (const Value& e : array_at(j, "trace")) r.trace.push_back(e.get<TraceEvent>());
    for (const Value& s : array_at(j, "steps")) {
      StepOutcome out;
      ValueReader v(s);
      StepOutcomeFields{}(out, v);
      r.steps.push_back(std::move(out));
    }
    if (j.contains("retried_from")) j.at("retried_from").get_to(r.retried_from);
    if (j.contains("retries")) j.at("retries").get_to(r.retries);
    return r;
  });
}

}  // namespace reactor
