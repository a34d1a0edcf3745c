// TraceEvent: one entry of a run's ordered execution trace.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "reactor/value.hpp"

namespace reactor {

enum class TraceType {
  kRun,         // one attempt of a step body; outcome success/failure/skipped/halt
  kCompensate,  // compensate of the failing step; outcome success/failure
  kUndo,        // undo of a completed step; outcome success/failure
};

struct TraceEvent {
  TraceType type = TraceType::kRun;
  std::string step;  // step path
  int attempt = 0;
  std::string outcome;
  std::string message;  // failure message, if any
  std::int64_t at_ms = 0;

  friend bool operator==(const TraceEvent&, const TraceEvent&) = default;
};

const char* to_string(TraceType t);
// Throws std::invalid_argument for an unknown name.
TraceType trace_type_from_string(const std::string& s);
void to_json(Value& j, const TraceEvent& e);
void from_json(const Value& j, TraceEvent& e);

// "ran a, b; compensated b; undid a": the trace in one readable line, runs of
// the same kind folded together.
std::string summarize(const std::vector<TraceEvent>& trace);

}  // namespace reactor
