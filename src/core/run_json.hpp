// The JSON form of one StepRecord, shared by the whole-run snapshot
// (run_to_json) and the durable step rows (src/durability/run_records.cpp).
#pragma once

#include "reactor/run.hpp"

namespace reactor {

// Without children, the record is what a durable step row holds: children
// are runs of their own there.
Value step_record_to_json(const StepRecord& s, bool with_children = true);
// Reads a record with or without "children". Throws nlohmann or
// std::invalid_argument exceptions on a malformed record.
StepRecord step_record_from_json(const Value& j);

}  // namespace reactor
