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
  // A step's arguments (or a map's source) could not be resolved: its body
  // never started. Outcome failure ("could not resolve" in the summary), or
  // not_started ("did not start") when the async unit it reads failed or did
  // not finish in time.
  kUnresolved,
  // An execution of a step that was lost with its worker (the worker died or
  // lost the run's lease while the step ran): recorded by the worker that took
  // the run over. Outcome "interrupted"; worker and token are the lost one's.
  kInterrupted,
  // The caller handed the run to a worker at its hand-off point (Builder::background_after,
  // background_before): step is that step, outcome "after" or "before". What precedes it in
  // the trace ran in the caller, what follows in workers.
  kHandOff,
  // An interrupt (Builder::interrupt): outcome "paused" when it is reached (message: its
  // correlation id), "resumed" when a payload completed it, "invalid_payload" for a payload it
  // refused and counted, "timed_out" past its deadline.
  kInterrupt,
};

struct TraceEvent {
  TraceType type = TraceType::kRun;
  std::string step;  // step path
  int attempt = 0;
  std::string outcome;
  std::string message;  // failure message, if any
  std::int64_t at_ms = 0;
  // Who did it: the worker's id ("host:pid", WorkerOptions::id) and the
  // fencing token of the run's lease it held. Empty and 0 in process.
  std::string worker{};
  std::uint64_t token = 0;

  friend bool operator==(const TraceEvent&, const TraceEvent&) = default;
};

const char* to_string(TraceType t);
// Throws std::invalid_argument for an unknown name.
TraceType trace_type_from_string(const std::string& s);
// nlohmann's conversion hooks, as in error.hpp.
void to_json(Value& j, const TraceEvent& e);
void from_json(const Value& j, TraceEvent& e);

// "ran a, b; compensated b; undid a": the trace in one readable line, runs of
// the same kind folded together. A fan-out map's step reads "dispatched m" when
// its elements were handed to the queue and "ran m" when it was collected; a
// hand-off reads "handed off after charge" (or "before ship").
std::string summarize(const std::vector<TraceEvent>& trace);

}  // namespace reactor
