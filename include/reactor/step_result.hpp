// What a step returns: Success, Failure, Halt or Skipped.
#pragma once

#include <string>
#include <utility>

#include "reactor/value.hpp"

namespace reactor {

enum class Outcome {
  kSuccess,  // value flows on; the step is undone if the run later fails
  kFailure,  // retried while attempts remain (unless not retryable), then rollback
  kHalt,     // stop the run now: no rollback, status `halted`
  kSkipped,  // value flows on like Success, but the step is never undone
};

const char* to_string(Outcome o);

class StepResult {
 public:
  Outcome outcome() const { return outcome_; }
  bool ok() const { return outcome_ == Outcome::kSuccess || outcome_ == Outcome::kSkipped; }

  // Success / Skipped: the value. Halt: the reason. Failure: details, if any.
  const Value& value() const& { return value_; }
  Value&& value() && { return std::move(value_); }

  // Failure only.
  const std::string& message() const { return message_; }
  bool retryable() const { return retryable_; }
  const std::string& exception_type() const { return exception_type_; }
  // Halt only: whether an operator may resume the run from this halt (ResumableHalt).
  bool resumable() const { return resumable_; }

  friend StepResult Success(Value value);
  friend StepResult Failure(std::string message, bool retryable);
  friend StepResult Failure(std::string message, Value details, bool retryable);
  friend StepResult Halt(Value reason);
  friend StepResult ResumableHalt(Value reason);
  friend StepResult Skipped(Value value);
  friend StepResult FailureFromException(std::string type, std::string message);

 private:
  StepResult(Outcome o, Value v) : outcome_(o), value_(std::move(v)) {}

  Outcome outcome_;
  Value value_;
  std::string message_;
  std::string exception_type_;
  bool retryable_ = true;
  bool resumable_ = false;
};

StepResult Success(Value value = nullptr);
// A failure is retried while the step has attempts left, unless `retryable`
// is false, which vetoes further attempts.
StepResult Failure(std::string message, bool retryable = true);
StepResult Failure(std::string message, Value details, bool retryable = true);
StepResult Halt(Value reason = nullptr);
// A Halt an operator may resume (Engine::resume_halted, `reactor resume RUN`): the run stops
// `halted` as with Halt, and a resume runs this step again — its body starts afresh with the
// same arguments — then carries on; the steps completed before are kept. A plain Halt is for
// good: a resume of it is refused.
StepResult ResumableHalt(Value reason = nullptr);
StepResult Skipped(Value value = nullptr);
// What the engine turns a thrown exception into: a retryable Failure that
// names the exception's type.
StepResult FailureFromException(std::string type, std::string message);

}  // namespace reactor
