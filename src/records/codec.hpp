// The codec of each durable record, the one place its stored text is made
// and read (field lists in records/fields.hpp). Every backend stores this
// text and nothing of its own making; docs/storage.md shows the layouts.
//
// Decoders throw RecordError (records/record_error.hpp) for a record that
// cannot be read; run_rows.hpp turns that into Corruption naming the run.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "reactor/records.hpp"
#include "reactor/run.hpp"
#include "reactor/trace.hpp"
#include "records/record_error.hpp"

namespace reactor::records {

// The version of the run header written here. 4: the body counts the run's
// steps ("step_count") and names none of them: a checkpoint of step 500 costs
// what one of step 5 does. A step row names its step; a step still as it was
// created has no row, and its name comes from the definition
// (records::name_steps). 3 (read only): the body may hold a suspension (a
// `waiting` run). 2 (read only): the body names the run's steps
// ("step_names"), and a step still as it was created has no row. 1 (read
// only): the body counts them ("step_count"), and every step has a row.
inline constexpr int kHeaderVersion = 4;

// Any JSON text (a value of any type) as a Value, through the bounded reader: the one door for
// JSON text outside a record's own decoder. Throws RecordError for text that is not one JSON
// value or nests deeper than kMaxValueDepth, never recursing past that depth.
Value decode_value(std::string_view text);
// `value` as the JSON text the stores keep (a slot's body, inputs).
std::string encode_value(const Value& value);

std::string encode_step(const StepRecord& s);
StepRecord decode_step(std::string_view text);

std::string encode_trace(const TraceEvent& e);
TraceEvent decode_trace(std::string_view text);

std::string encode_inputs(const Value& inputs);
Value decode_inputs(std::string_view text);

// The header row of one run: its columns and its body.
RunHeaderRow encode_header(const Run& run, std::int64_t expires_at_ms);
// One run's header alone (no inputs, steps or trace): what its columns and
// body hold. Throws RecordError for an unreadable or too new record.
Run decode_header(const RunHeaderRow& row);

// A header row as one JSON object, its body inline, for stores that keep a
// header as one value (Redis). Reads the layouts before 5 too, whose body
// is an escaped string.
std::string encode_header_record(const RunHeaderRow& row);
RunHeaderRow decode_header_record(std::string_view text);

// A fan-out map's slot as one JSON object, for stores that keep a slot as one value (Redis),
// its body a JSON string: the text the element gave, kept as it is, whatever it holds.
std::string encode_slot_record(const MapSlotRow& slot);
MapSlotRow decode_slot_record(std::string_view text);

// What a slot's body holds, read through the bounded reader (json_reader.hpp): a completed,
// halted or undone element's value, or a failed element's error. Throws RecordError for a body
// that is not JSON, nests deeper than kMaxValueDepth, holds a value past `max_value_bytes`, or
// (failed) is no RunError. Every reader of a slot (a map's owner, an async unit's reader) comes
// here: a slot's body is text an element's last commit wrote, so it is read as any record is.
struct SlotBody {
  Value value;                    // completed, halted, undone
  std::optional<RunError> error;  // failed
};
// A schedule as one JSON object, for stores that keep it as one value (Redis).
std::string encode_schedule_record(const ScheduleRow& row);
ScheduleRow decode_schedule_record(std::string_view text);

SlotBody decode_slot_body(const MapSlotRow& slot, std::size_t max_value_bytes);

}  // namespace reactor::records
