// The stored names of the enums records carry, read back (to_string writes
// them). A name this build does not know throws std::invalid_argument.
#pragma once

#include <stdexcept>
#include <string>

#include "reactor/error.hpp"
#include "reactor/records.hpp"
#include "reactor/run.hpp"
#include "reactor/trace.hpp"

namespace reactor::records {

inline void from_name(const std::string& s, RunStatus& e) { e = run_status_from_string(s); }
inline void from_name(const std::string& s, StepStatus& e) { e = step_status_from_string(s); }
inline void from_name(const std::string& s, TraceType& e) { e = trace_type_from_string(s); }
inline void from_name(const std::string& s, SuspensionKind& e) {
  e = suspension_kind_from_string(s);
}
inline void from_name(const std::string& s, JobKind& e) { e = job_kind_from_string(s); }
inline void from_name(const std::string& s, ErrorKind& e) { e = error_kind_from_string(s); }
inline void from_name(const std::string& s, MapState& e) { e = map_state_from_string(s); }
inline void from_name(const std::string& s, SlotState& e) { e = slot_state_from_string(s); }
inline void from_name(const std::string& s, MissedPeriods& e) {
  auto m = missed_periods_from_string(s);
  if (!m) throw std::invalid_argument("unknown missed-periods policy '" + s + "'");
  e = *m;
}

}  // namespace reactor::records
