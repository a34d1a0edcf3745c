#include "reactor/trace.hpp"

#include <stdexcept>
#include <string_view>

namespace reactor {

TraceType trace_type_from_string(const std::string& s) {
  if (s == "run") return TraceType::kRun;
  if (s == "compensate") return TraceType::kCompensate;
  if (s == "undo") return TraceType::kUndo;
  if (s == "unresolved") return TraceType::kUnresolved;
  if (s == "interrupted") return TraceType::kInterrupted;
  if (s == "hand_off") return TraceType::kHandOff;
  if (s == "interrupt") return TraceType::kInterrupt;
  throw std::invalid_argument("unknown trace event type '" + s + "'");
}

namespace {

const char* past_tense(TraceType t) {
  switch (t) {
    case TraceType::kRun:
      return "ran";
    case TraceType::kCompensate:
      return "compensated";
    case TraceType::kUndo:
      return "undid";
    case TraceType::kUnresolved:
      return "could not resolve";
    case TraceType::kInterrupted:
      return "lost";
    case TraceType::kHandOff:
      return "handed off";
    case TraceType::kInterrupt:
      return "paused at";
  }
  return "?";
}

// A fan-out map's step is traced as run twice: when its elements are handed to the queue
// (outcome "dispatched", execution/step_attempt.cpp) and when it is collected once they settle.
const char* verb_of(const TraceEvent& e) {
  if (e.type == TraceType::kRun && e.outcome == "dispatched") return "dispatched";
  // A step that failed before its body could start for want of an async unit's outcome.
  if (e.type == TraceType::kUnresolved && e.outcome == "not_started") return "did not start";
  // Its outcome says where: "handed off after charge", "handed off before ship".
  if (e.type == TraceType::kHandOff) {
    return e.outcome == "before" ? "handed off before" : "handed off after";
  }
  if (e.type == TraceType::kInterrupt && e.outcome != "paused") {
    return e.outcome == "resumed"     ? "resumed"
           : e.outcome == "timed_out" ? "timed out at"
                                      : "refused a payload of";
  }
  return past_tense(e.type);
}

}  // namespace

const char* to_string(TraceType t) {
  switch (t) {
    case TraceType::kRun:
      return "run";
    case TraceType::kCompensate:
      return "compensate";
    case TraceType::kUndo:
      return "undo";
    case TraceType::kUnresolved:
      return "unresolved";
    case TraceType::kInterrupted:
      return "interrupted";
    case TraceType::kHandOff:
      return "hand_off";
    case TraceType::kInterrupt:
      return "interrupt";
  }
  return "unknown";
}

// Every event is listed, retries included ("ran a, b, b"), so the line still shows how often a
// step was attempted; only the verb is folded across consecutive events with the same one. A
// fan-out map reads "dispatched sum; ...; ran sum": its hand-off, then its collection.
std::string summarize(const std::vector<TraceEvent>& trace) {
  std::string out;
  const char* verb = nullptr;
  for (std::size_t i = 0; i < trace.size(); ++i) {
    const char* next = verb_of(trace[i]);
    const bool new_clause = verb == nullptr || std::string_view(next) != verb;
    verb = next;
    if (new_clause) {
      if (i != 0) out += "; ";
      out += verb;
      out += ' ';
    } else {
      out += ", ";
    }
    out += trace[i].step;
  }
  return out;
}

}  // namespace reactor
