// The durable JSON form of a Run. Every field is written, always, so a record read back
// serialises byte for byte as it was written; the schema version guards readers against records
// from a newer release.
#include <stdexcept>
#include <string>

#include "core/run_json.hpp"
#include "reactor/run.hpp"

namespace reactor {

namespace {

Value run_body_to_json(const Run& run);
Run run_body_from_json(const Value& j);

// Children carry no schema_version of their own: they are only ever read as part of their root.
Value run_body_to_json(const Run& run) {
  Value steps = Value::array();
  for (const StepRecord& s : run.steps) steps.push_back(step_record_to_json(s));
  return Value{{"id", run.id},
               {"reactor", run.reactor},
               {"root_id", run.root_id},
               {"parent_id", run.parent_id},
               {"path", run.path},
               {"fingerprint", run.fingerprint},
               {"status", to_string(run.status)},
               {"inputs", run.inputs},
               {"steps", std::move(steps)},
               {"next_completion_seq", run.next_completion_seq},
               {"trace", run.trace},
               {"value", run.value},
               {"error", run.error ? Value(*run.error) : Value(nullptr)},
               {"failed_step", run.failed_step ? Value(*run.failed_step) : Value(nullptr)},
               {"created_at_ms", run.created_at_ms},
               {"updated_at_ms", run.updated_at_ms}};
}

// Iterating a JSON object yields its values, so a record with an object where a list belongs
// would otherwise be read without complaint.
const Value& array_at(const Value& j, const char* key) {
  const Value& a = j.at(key);
  if (!a.is_array()) throw std::invalid_argument(std::string("'") + key + "' is not an array");
  return a;
}

void require_object(const Value& j, const char* what) {
  if (!j.is_object()) throw std::invalid_argument(std::string(what) + " is not an object");
}

Run run_body_from_json(const Value& j) {
  require_object(j, "run");
  Run run;
  j.at("id").get_to(run.id);
  j.at("reactor").get_to(run.reactor);
  j.at("root_id").get_to(run.root_id);
  j.at("parent_id").get_to(run.parent_id);
  j.at("path").get_to(run.path);
  j.at("fingerprint").get_to(run.fingerprint);
  run.status = run_status_from_string(j.at("status").get<std::string>());
  run.inputs = j.at("inputs");
  for (const Value& s : array_at(j, "steps")) run.steps.push_back(step_record_from_json(s));
  j.at("next_completion_seq").get_to(run.next_completion_seq);
  for (const Value& e : array_at(j, "trace")) run.trace.push_back(e.get<TraceEvent>());
  run.value = j.at("value");
  if (const Value& error = j.at("error"); !error.is_null()) run.error = error.get<RunError>();
  if (const Value& failed = j.at("failed_step"); !failed.is_null()) {
    if (!failed.is_number_integer() || failed.get<std::int64_t>() < 0) {
      throw std::invalid_argument("'failed_step' is not a step index");
    }
    run.failed_step = failed.get<std::size_t>();
  }
  j.at("created_at_ms").get_to(run.created_at_ms);
  j.at("updated_at_ms").get_to(run.updated_at_ms);
  return run;
}

void check_schema_version(const Value& j) {
  if (!j.is_object()) throw std::invalid_argument("run record is not a JSON object");
  auto it = j.find("schema_version");
  if (it == j.end()) throw std::invalid_argument("run record has no schema_version");
  if (!it->is_number_integer()) {
    throw std::invalid_argument("run record schema_version is not an integer");
  }
  const auto version = it->get<std::int64_t>();
  if (version < 1 || version > Run::kSchemaVersion) {
    throw std::invalid_argument("run record has unsupported schema_version " +
                                std::to_string(version) + " (this build reads up to " +
                                std::to_string(Run::kSchemaVersion) + ")");
  }
}

}  // namespace

Value step_record_to_json(const StepRecord& s, bool with_children) {
  Value j{{"name", s.name},
               {"status", to_string(s.status)},
               {"result", s.result},
               {"attempts", s.attempts},
               {"completion_seq", s.completion_seq},
               {"started_at_ms", s.started_at_ms},
               {"finished_at_ms", s.finished_at_ms},
               {"retry_at_ms", s.retry_at_ms},
               {"error", s.error},
               {"body_started", s.body_started}};
  if (with_children) {
    Value children = Value::array();
    for (const Run& child : s.children) children.push_back(run_body_to_json(child));
    j["children"] = std::move(children);
  }
  return j;
}

StepRecord step_record_from_json(const Value& j) {
  require_object(j, "step record");
  StepRecord s;
  j.at("name").get_to(s.name);
  s.status = step_status_from_string(j.at("status").get<std::string>());
  s.result = j.at("result");
  j.at("attempts").get_to(s.attempts);
  j.at("completion_seq").get_to(s.completion_seq);
  j.at("started_at_ms").get_to(s.started_at_ms);
  j.at("finished_at_ms").get_to(s.finished_at_ms);
  j.at("retry_at_ms").get_to(s.retry_at_ms);
  j.at("error").get_to(s.error);
  j.at("body_started").get_to(s.body_started);
  // Durable step rows carry no children: those are runs of their own there.
  if (j.contains("children")) {
    for (const Value& child : array_at(j, "children")) {
      s.children.push_back(run_body_from_json(child));
    }
  }
  return s;
}

Value run_to_json(const Run& run) {
  Value j = run_body_to_json(run);
  j["schema_version"] = Run::kSchemaVersion;
  return j;
}

Run run_from_json(const Value& j) {
  check_schema_version(j);
  // Callers handle one exception type for every unreadable record, whichever layer noticed.
  try {
    return run_body_from_json(j);
  } catch (const Value::exception& e) {
    throw std::invalid_argument(std::string("malformed run record: ") + e.what());
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(std::string("malformed run record: ") + e.what());
  }
}

}  // namespace reactor
