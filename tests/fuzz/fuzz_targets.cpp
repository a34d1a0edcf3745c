#include "fuzz_targets.hpp"

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <stdexcept>
#include <string>

#include "data/corpus_reactors.hpp"
#include "reactor/limits.hpp"
#include "reactor/run.hpp"
#include "reactor/run_result.hpp"
#include "records/codec.hpp"
#include "records/run_rows.hpp"
#include "records/run_shape.hpp"

namespace reactor::fuzz {

void finding(const char* what, const std::string& detail) {
  std::fprintf(stderr, "fuzz finding: %s%s%s\n", what, detail.empty() ? "" : ": ", detail.c_str());
  std::abort();
}

namespace {

// `read` refusing the input is fine; any other exception is a finding.
template <typename Read>
bool refused(Read&& read) {
  try {
    read();
    return false;
  } catch (const records::RecordError&) {
    return true;
  } catch (const std::invalid_argument&) {  // snapshots and results refuse with these
    return true;
  } catch (const Value::parse_error&) {  // the caller's JSON text
    return true;
  } catch (const Value::out_of_range&) {  // … with a number no double holds (nlohmann's 406)
    return true;
  } catch (const std::exception& e) {
    finding("unexpected exception", e.what());
  }
}

// What was read writes back, and that text reads to the same text again.
template <typename Write, typename Read>
void round_trip(const std::string& written, Write&& write, Read&& read) {
  std::string again;
  try {
    again = write(read(written));
  } catch (const std::exception& e) {
    finding("a record this build wrote does not read back", e.what() + ("\n" + written));
  }
  if (again != written) finding("a record does not write back as it read", written + "\n" + again);
}

void step_row(std::string_view input) {
  StepRecord s;
  if (refused([&] { s = records::decode_step(input); })) return;
  round_trip(records::encode_step(s), records::encode_step, records::decode_step);
}

void trace_event(std::string_view input) {
  TraceEvent e;
  if (refused([&] { e = records::decode_trace(input); })) return;
  round_trip(records::encode_trace(e), records::encode_trace, records::decode_trace);
}

void slot_record(std::string_view input) {
  MapSlotRow slot;
  if (refused([&] { slot = records::decode_slot_record(input); })) return;
  round_trip(records::encode_slot_record(slot), records::encode_slot_record,
             records::decode_slot_record);
}

void inputs(std::string_view input) {
  Value v;
  if (refused([&] { v = records::decode_inputs(input); })) return;
  round_trip(records::encode_inputs(v), records::encode_inputs, records::decode_inputs);
}

// A run header as SQLite keeps it: the first byte picks the schema version, the text up to the
// first newline is every text column (id, root id, reactor, fingerprint), the rest the body.
RunHeaderRow header_columns(std::string_view input) {
  RunHeaderRow row;
  if (input.empty()) return row;
  row.schema_version = static_cast<unsigned char>(input[0]) % (records::kHeaderVersion + 2);
  input.remove_prefix(1);
  const auto newline = input.find('\n');
  const std::string_view column = input.substr(0, newline);
  row.id = row.root_id = row.reactor = row.fingerprint = std::string(column);
  if (newline != std::string_view::npos) row.body = std::string(input.substr(newline + 1));
  return row;
}

std::string header_text(const Run& run) {
  const RunHeaderRow row = records::encode_header(run, 0);
  return records::encode_header_record(row);
}

Run header_run(const std::string& text) {
  return records::decode_header(records::decode_header_record(text));
}

void header_row(std::string_view input) {
  const RunHeaderRow row = header_columns(input);
  Run run;
  if (refused([&] { run = records::decode_header(row); })) return;
  round_trip(header_text(run), header_text, header_run);
}

// A record is accepted as a store accepts it: its columns, then its body, decode.
void redis_header(std::string_view input) {
  RunHeaderRow row;
  Run run;
  if (refused([&] { run = records::decode_header(row = records::decode_header_record(input)); })) {
    return;
  }
  const auto write = [](const RunHeaderRow& r) { return records::encode_header_record(r); };
  round_trip(write(row), write, records::decode_header_record);
  round_trip(header_text(run), header_text, header_run);
}

// A whole stored run, one row a line: "h<header record>", "i<run id>\t<inputs>",
// "s<run id>\t<index>\t<step row>", "t<trace event>" (trace rows in line order). Decoded as a
// delivery decodes it, then checked against the corpus reactor it names as a delivery checks it.
StoredRun stored_rows(std::string_view input) {
  StoredRun stored;
  while (!input.empty()) {
    const auto newline = input.find('\n');
    std::string_view line = input.substr(0, newline);
    input = newline == std::string_view::npos ? std::string_view() : input.substr(newline + 1);
    if (line.empty()) continue;
    const char kind = line[0];
    line.remove_prefix(1);
    const auto tab = line.find('\t');
    const std::string first(line.substr(0, tab));
    const std::string_view rest = tab == std::string_view::npos ? "" : line.substr(tab + 1);
    if (kind == 'h') {
      try {
        stored.headers.push_back(records::decode_header_record(line));
      } catch (const records::RecordError&) {
      }
    } else if (kind == 'i') {
      stored.inputs.push_back(RunInputsRow{first, std::string(rest)});
    } else if (kind == 's') {
      const auto tab2 = rest.find('\t');
      const std::string_view index = rest.substr(0, tab2);
      std::uint32_t n = 0;
      for (const char c : index.substr(0, 9)) n = n * 10 + static_cast<std::uint32_t>(c & 0x0f);
      stored.steps.push_back(StepRow{
          first, n, std::string(tab2 == std::string_view::npos ? "" : rest.substr(tab2 + 1))});
    } else if (kind == 't') {
      stored.trace.push_back(TraceRow{"", stored.trace.size(), std::string(line)});
    }
  }
  return stored;
}

const Registry& corpus_registry() {
  static const Registry* registry = [] {
    auto* r = new Registry;
    corpus::register_all(*r);
    return r;
  }();
  return *registry;
}

std::string whole_run_text(const Run& run) {
  RunRows rows;
  records::encode_whole_run(run, 0, rows);
  std::string text;
  for (const auto& h : rows.headers) text += "h" + records::encode_header_record(h) + "\n";
  for (const auto& i : rows.inputs) text += "i" + i.run_id + "\t" + i.inputs + "\n";
  for (const auto& s : rows.steps) {
    text += "s" + s.run_id + "\t" + std::to_string(s.index) + "\t" + s.body + "\n";
  }
  for (const auto& t : rows.trace) text += "t" + t.body + "\n";
  return text;
}

Run whole_run(const std::string& text) {
  StoredRun stored = stored_rows(text);
  Run run;
  Status s = records::decode_run(stored, run);
  if (!s.ok()) throw std::runtime_error(s.message());
  return run;
}

void stored_run(std::string_view input) {
  const StoredRun stored = stored_rows(input);
  Run run;
  const Status decoded = records::decode_run(stored, run);
  if (!decoded.ok()) {
    if (decoded.code() != StatusCode::kCorruption) finding("decode_run", decoded.message());
    return;
  }
  const auto def = corpus_registry().find(run.reactor);
  if (!def || run.fingerprint != def->fingerprint()) return;
  if (records::run_shape_error(run, *def->data(), kDefaultMaxValueBytes)) return;
  // A run that fits its definition: the rows it writes read back as the same run.
  const std::string written = whole_run_text(run);
  std::string again;
  try {
    again = whole_run_text(whole_run(written));
  } catch (const std::exception& e) {
    finding("a run this build wrote does not read back", e.what() + ("\n" + written));
  }
  if (again != written) finding("a run does not write back as it read", written + "\n" + again);
}

std::string snapshot_text(const Run& run) { return run_to_json(run).dump(); }
Run snapshot_run(const std::string& text) { return run_from_json(Value::parse(text)); }

void snapshot(std::string_view input) {
  Run run;
  if (refused([&] { run = run_from_json(Value::parse(input)); })) return;
  round_trip(snapshot_text(run), snapshot_text, snapshot_run);
}

std::string result_text(const RunResult& r) { return to_json(r).dump(); }
RunResult result_of(const std::string& text) { return run_result_from_json(Value::parse(text)); }

void run_result(std::string_view input) {
  RunResult r;
  if (refused([&] { r = run_result_from_json(Value::parse(input)); })) return;
  round_trip(result_text(r), result_text, result_of);
}

// Only RecordError refuses a slot: every reader turns it into Corruption, nothing else.
template <typename Read>
bool slot_refused(Read&& read) {
  try {
    read();
    return false;
  } catch (const records::RecordError&) {
    return true;
  } catch (const std::exception& e) {
    finding("a slot's reader threw something else than RecordError", e.what());
  }
}

// A slot's body as an async unit's reader (RunDriver::collect_unit) takes it: completed is the
// unit's value, failed its error, halted ends it; a unit's slot is never undone.
records::SlotBody read_unit_slot(const MapSlotRow& slot) {
  records::SlotBody body = records::decode_slot_body(slot, kDefaultMaxValueBytes);
  if (slot.state == SlotState::kUndone) throw records::RecordError("a unit's slot is undone");
  return body;
}

records::SlotBody read_map_slot(const MapSlotRow& slot) {
  return records::decode_slot_body(slot, kDefaultMaxValueBytes);
}

// What a slot's reader read holds what its state says, and writes back as an element's last
// commit writes it (settle_of: the value, or Value(RunError)) to a body that reads the same.
void slot_reader(std::string_view input, records::SlotBody (*read)(const MapSlotRow&)) {
  const MapSlotRow slot = slot_input(input, "fuzz:m");
  records::SlotBody body;
  if (slot_refused([&] { body = read(slot); })) return;
  const bool failed = slot.state == SlotState::kFailed;
  if (failed != body.error.has_value()) {
    finding("a slot read with an error iff failed", to_string(slot.state) + ("\n" + slot.body));
  }
  const auto write = [failed](const records::SlotBody& b) {
    return records::encode_value(failed ? Value(*b.error) : b.value);
  };
  const auto read_text = [&](const std::string& text) {
    return read(MapSlotRow{slot.map_id, slot.index, slot.state, text});
  };
  round_trip(write(body), write, read_text);
}

void slot_body(std::string_view input) { slot_reader(input, read_map_slot); }
void unit_slot(std::string_view input) { slot_reader(input, read_unit_slot); }

const Target kTargets[] = {
    {"step_row", step_row},     {"trace_event", trace_event},   {"inputs", inputs},
    {"header_row", header_row}, {"redis_header", redis_header}, {"stored_run", stored_run},
    {"snapshot", snapshot},     {"run_result", run_result},     {"slot_record", slot_record},
    {"slot_body", slot_body},   {"unit_slot", unit_slot},
};

}  // namespace

MapSlotRow slot_input(std::string_view input, const std::string& map_id) {
  MapSlotRow slot{map_id, 0, SlotState::kCompleted, {}};
  if (input.empty()) return slot;
  slot.state = static_cast<SlotState>(static_cast<unsigned char>(input[0]) % 4);
  slot.body = std::string(input.substr(1));
  return slot;
}

bool slot_unreadable(const MapSlotRow& slot) {
  return slot_refused([&] { (void)read_map_slot(slot); });
}

const Target* targets() { return kTargets; }
std::size_t target_count() { return sizeof kTargets / sizeof kTargets[0]; }

const Target* find_target(std::string_view name) {
  for (const Target& t : kTargets) {
    if (name == t.name) return &t;
  }
  return nullptr;
}

}  // namespace reactor::fuzz
