// The errors a run can end with, and the failures met while rolling back.
#pragma once

#include <string>
#include <vector>

#include "reactor/value.hpp"

namespace reactor {

// One reason a field was rejected. `field` is the input name or, for step
// outputs, the step name, with the path of a nested value when a nested schema
// rejected it ("travellers[2].email"); the message never contains a redacted
// value.
struct FieldError {
  std::string field;
  std::string message;

  friend bool operator==(const FieldError&, const FieldError&) = default;
};

// nlohmann's conversion hooks (Value(e), j.get<FieldError>()), found by ADL: their reference
// parameters are the form nlohmann::json calls, not out-parameters a caller writes through.
void to_json(Value& j, const FieldError& e);
void from_json(const Value& j, FieldError& e);

// What kind of failure ended a run. Callers branch on this, not on messages.
enum class ErrorKind {
  kStepFailed,          // a step returned Failure or threw, after its last attempt
  kTimeout,             // a step outlived its timeout on its last attempt
  kInputInvalid,        // reactor inputs were rejected; no step ran
  kArgumentResolution,  // a step's argument could not be resolved; not compensated
  kOutputInvalid,       // a step's output failed its validation; compensated
  kCompensationFailed,  // the failing step's compensate failed too
  kUnknownReactor,      // no reactor registered under the name
  kDefinitionChanged,   // the run was started on a different graph
  kRunIdConflict,       // a run with this id exists, of another reactor or with other inputs
  kInterrupted,         // a step's executions kept dying with their worker (a poison pill)
  kCorruptRecord,       // a stored record could not be read
  kContention,          // the store stayed busy through lock_snooze_max_attempts snoozes
  kValueTooLarge,       // a step returned a value past the limits (reactor/limits.hpp); compensated
  kAsyncWaitTimeout,    // a caller waited async_wait_timeout for an async unit a step reads
  kAsyncParkTimeout,    // a parked run waited async_park_timeout since an async unit's dispatch
  kAsyncUnitFailed,     // a step read an async unit that failed (and rolled itself back)
  kPoisonDelivery,      // the run's deliveries kept ending without progress (a crash loop)
  kOwnerEnded,          // an async unit whose run ended before it started: nothing ran
  kCancelled,           // an operator cancelled the run (Engine::cancel); the message says why
  kUndone,              // an operator undid the run (Engine::undo): rolled back, then cancelled
  // A coordination key stayed held (a lock, a semaphore, a rate limit): a caller waited
  // LockOptions::wait, a worker snoozed lock_snooze_max_attempts times. Not compensated.
  kContended,
  kCoordinationKey,  // a coordination key function threw or returned ""; not compensated
  kInternal,
};

const char* to_string(ErrorKind kind);
ErrorKind error_kind_from_string(const std::string& s);

// A rollback action (compensate or undo) that did not succeed. Rollback
// carries on past it; every one is listed in the run's error.
struct RollbackFailure {
  std::string step;    // step path, e.g. "payment/charge" inside a composed child
  std::string kind;    // "compensate" or "undo"
  std::string reason;  // "returned_failure" or "raised"
  std::string message;

  friend bool operator==(const RollbackFailure&, const RollbackFailure&) = default;
};

void to_json(Value& j, const RollbackFailure& f);
void from_json(const Value& j, RollbackFailure& f);

// Why a run failed.
struct RunError {
  ErrorKind kind = ErrorKind::kStepFailed;
  std::string step;            // path of the step that failed (empty for input errors)
  std::string reactor;         // reactor that owns that step
  std::string exception_type;  // C++ type of a thrown exception, if any
  std::string message;
  Value details;          // the Failure's payload, if it carried one
  int attempts = 0;       // attempts made by the failing step
  bool retryable = true;  // as the last attempt reported it
  std::vector<FieldError> validation_errors;
  std::vector<RollbackFailure> rollback_failures;
  Value inputs;  // the run's inputs, redacted fields masked

  friend bool operator==(const RunError&, const RunError&) = default;
};

void to_json(Value& j, const RunError& e);
void from_json(const Value& j, RunError& e);

}  // namespace reactor
