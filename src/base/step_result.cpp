#include "reactor/step_result.hpp"

namespace reactor {

const char* to_string(Outcome o) {
  switch (o) {
    case Outcome::kSuccess:
      return "success";
    case Outcome::kFailure:
      return "failure";
    case Outcome::kHalt:
      return "halt";
    case Outcome::kSkipped:
      return "skipped";
  }
  return "unknown";
}

StepResult Success(Value value) { return StepResult(Outcome::kSuccess, std::move(value)); }

StepResult Failure(std::string message, bool retryable) {
  return Failure(std::move(message), Value(nullptr), retryable);
}

StepResult Failure(std::string message, Value details, bool retryable) {
  StepResult r(Outcome::kFailure, std::move(details));
  r.message_ = std::move(message);
  r.retryable_ = retryable;
  return r;
}

StepResult Halt(Value reason) { return StepResult(Outcome::kHalt, std::move(reason)); }

StepResult ResumableHalt(Value reason) {
  StepResult r(Outcome::kHalt, std::move(reason));
  r.resumable_ = true;
  return r;
}
StepResult Skipped(Value value) { return StepResult(Outcome::kSkipped, std::move(value)); }

// Exceptions are usually transient (I/O, timeouts in client libraries), so they are retried
// like a plain Failure; a step that knows better returns Failure(..., false) itself.
StepResult FailureFromException(std::string type, std::string message) {
  StepResult r = Failure(std::move(message), Value(nullptr), true);
  r.exception_type_ = std::move(type);
  return r;
}

}  // namespace reactor
