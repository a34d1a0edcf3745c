// The errors the engine makes itself (not from a step's failure): an unknown
// reactor, a changed definition, an unreadable record, a lost lease.
#pragma once

#include <string>

#include "reactor/run_result.hpp"

namespace reactor {

// Not retryable: retrying the same run cannot change these.
inline RunError engine_error(ErrorKind kind, const std::string& reactor, std::string message) {
  RunError e;
  e.kind = kind;
  e.reactor = reactor;
  e.message = std::move(message);
  e.retryable = false;
  return e;
}

// A failed result for a run that never got to execute.
inline RunResult failed_result(const std::string& run_id, const std::string& reactor,
                               ErrorKind kind, std::string message) {
  RunResult r;
  r.run_id = run_id;
  r.reactor = reactor;
  r.status = RunStatus::kFailed;
  r.error = engine_error(kind, reactor, std::move(message));
  return r;
}

}  // namespace reactor
