#include "records/codec.hpp"

#include "base/run_errors.hpp"
#include "reactor/limits.hpp"
#include "records/field_writer.hpp"
#include "records/fields.hpp"
#include "records/json_reader.hpp"
#include "records/json_writer.hpp"
#include "records/value_limits.hpp"

namespace reactor::records {

namespace {

template <typename Record>
Record read_fields(std::string_view text, const char* what) {
  Record r;
  read_record(text, what, [&](FieldReader& v) { fields(r, v); });
  return r;
}

// A field-list visitor `V` that takes a raw_json member as a string: a slot record's body.
template <typename V>
class BodyAsString {
 public:
  explicit BodyAsString(V& v) : v_(v) {}
  template <typename T>
  void operator()(std::string_view key, T& value) {
    v_(key, value);
  }
  template <typename S>
  void raw_json(std::string_view key, S& text) {
    v_(key, text);
  }
  template <typename T>
  void optional(std::string_view key, T& value) {
    v_.optional(key, value);
  }

 private:
  V& v_;
};

// The body of a header: the run's state, then how many steps it has. Not their names: the
// header is rewritten by every checkpoint, and its size must not grow with the run.
std::string header_body(const Run& run) {
  std::string out;
  out.reserve(256);
  FieldWriter v(out);
  run_state_fields(run, v);
  auto count = static_cast<std::uint32_t>(run.steps.size());
  v("step_count", count);
  v.close();
  return out;
}

// Reads the steps' list of a header body of `version` into run.steps.
void read_step_list(FieldReader& v, int version, Run& run) {
  // A count is checked before anything is allocated for it: 41 bytes must not ask for
  // gigabytes (no definition has more steps than kMaxRunSteps).
  const auto too_many = [](std::size_t count) {
    return RecordError("the header counts " + std::to_string(count) + " steps, more than " +
                       std::to_string(kMaxRunSteps));
  };
  if (version == 1 || version >= 4) {
    std::uint32_t count = 0;
    v("step_count", count);
    if (count > kMaxRunSteps) throw too_many(count);
    run.steps.resize(count);
    return;
  }
  Value names;
  v("step_names", names);
  if (!names.is_array()) throw RecordError("step_names is not an array");
  if (names.size() > kMaxRunSteps) throw too_many(names.size());
  run.steps.resize(names.size());
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (!names[i].is_string()) throw RecordError("step_names holds a non-string");
    run.steps[i].name = names[i].get<std::string>();
  }
}

// A quarantined run's header is the one its last delivery found, its status alone rewritten
// (durability's end_crash_loop reads nothing): the status says why it stopped.
void set_aside(Run& run) {
  if (run.error && run.error->kind == ErrorKind::kPoisonDelivery) return;
  std::string message =
      "quarantined: its deliveries kept ending without progress (max_deliveries_without_progress),"
      " and so did the one that failed it";
  if (run.error) message += "; its error before: " + run.error->message;
  run.error = engine_error(ErrorKind::kPoisonDelivery, run.reactor, std::move(message));
}

}  // namespace

Value decode_value(std::string_view text) { return parse_value(text); }

std::string encode_value(const Value& value) {
  std::string out;
  append_value(out, value);
  return out;
}

std::string encode_step(const StepRecord& s) {
  return write_record(s, [](const StepRecord& r, FieldWriter& v) { fields(r, v); });
}

StepRecord decode_step(std::string_view text) { return read_fields<StepRecord>(text, "step row"); }

std::string encode_trace(const TraceEvent& e) {
  return write_record(e, [](const TraceEvent& r, FieldWriter& v) { fields(r, v); });
}

TraceEvent decode_trace(std::string_view text) {
  return read_fields<TraceEvent>(text, "trace event");
}

std::string encode_inputs(const Value& inputs) { return encode_value(inputs); }

Value decode_inputs(std::string_view text) { return parse_value(text); }

RunHeaderRow encode_header(const Run& run, std::int64_t expires_at_ms) {
  RunHeaderRow row;
  row.id = run.id;
  row.root_id = run.root_id;
  row.parent_id = run.parent_id;
  row.reactor = run.reactor;
  row.status = run.status;
  row.fingerprint = run.fingerprint;
  row.schema_version = kHeaderVersion;
  row.body = header_body(run);
  row.updated_at_ms = run.updated_at_ms;
  row.expires_at_ms = expires_at_ms;
  row.wake_at_ms = run.suspension ? run.suspension->wake_at_ms() : 0;
  row.exec_token = run.exec_token;
  row.exec_worker = run.exec_worker;
  return row;
}

Run decode_header(const RunHeaderRow& row) {
  if (row.schema_version < 1 || row.schema_version > kHeaderVersion) {
    throw RecordError("run " + row.id + " has unsupported schema_version " +
                      std::to_string(row.schema_version) + " (this build reads up to " +
                      std::to_string(kHeaderVersion) + ")");
  }
  // The columns a store keeps beside the body (SQLite's) are text of its own: what is not UTF-8
  // there is as corrupt as a body that is not.
  for (const std::string* column :
       {&row.id, &row.root_id, &row.parent_id, &row.reactor, &row.fingerprint}) {
    if (!valid_utf8(*column)) throw RecordError("run header: a column is not UTF-8");
  }
  Run run;
  run.id = row.id;
  run.root_id = row.root_id;
  run.parent_id = row.parent_id;
  run.reactor = row.reactor;
  run.status = row.status;
  run.fingerprint = row.fingerprint;
  run.exec_token = row.exec_token;
  run.exec_worker = row.exec_worker;
  read_record(row.body, "run header", [&](FieldReader& v) {
    run_state_fields(run, v);
    read_step_list(v, row.schema_version, run);
  });
  run.updated_at_ms = row.updated_at_ms;
  if (run.status == RunStatus::kQuarantined) set_aside(run);
  return run;
}

std::string encode_header_record(const RunHeaderRow& row) {
  std::string out;
  out.reserve(row.body.size() + row.id.size() + row.root_id.size() + row.parent_id.size() +
              row.reactor.size() + row.fingerprint.size() + 160);
  FieldWriter v(out);
  header_row_fields(row, v);
  v.close();
  return out;
}

RunHeaderRow decode_header_record(std::string_view text) {
  RunHeaderRow row;
  read_record(text, "run header", [&](FieldReader& v) { header_row_fields(row, v); });
  return row;
}

std::string encode_slot_record(const MapSlotRow& slot) {
  std::string out;
  out.reserve(slot.body.size() + slot.map_id.size() + 64);
  FieldWriter writer(out);
  BodyAsString<FieldWriter> v(writer);
  fields(slot, v);
  writer.close();
  return out;
}

MapSlotRow decode_slot_record(std::string_view text) {
  MapSlotRow slot;
  read_record(text, "map slot", [&](FieldReader& reader) {
    BodyAsString<FieldReader> v(reader);
    fields(slot, v);
  });
  return slot;
}

std::string encode_schedule_record(const ScheduleRow& row) {
  std::string out;
  FieldWriter writer(out);
  fields(row, writer);
  writer.close();
  return out;
}

ScheduleRow decode_schedule_record(std::string_view text) {
  return read_fields<ScheduleRow>(text, "schedule");
}

SlotBody decode_slot_body(const MapSlotRow& slot, std::size_t max_value_bytes) {
  const auto within_limits = [&](const Value& v, const char* what) {
    if (auto why = value_limit_error(v, max_value_bytes, what)) throw RecordError(*why);
  };
  SlotBody out;
  Value body = parse_value(slot.body);  // depth-limited: a stored text never recurses deeper
  if (slot.state != SlotState::kFailed && slot.state != SlotState::kCancelled) {
    within_limits(body, "the slot's value");
    out.value = std::move(body);
    return out;
  }
  try {
    out.error = body.get<RunError>();
  } catch (const std::exception& e) {
    throw RecordError(std::string("the slot's error is no run error: ") + e.what());
  }
  within_limits(out.error->details, "the slot's error details");
  within_limits(out.error->inputs, "the slot's error inputs");
  return out;
}

}  // namespace reactor::records
