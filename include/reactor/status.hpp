// Status: how library operations report errors as values (after LevelDB).
#pragma once

#include <string>
#include <utility>

namespace reactor {

enum class StatusCode {
  kOk,
  kNotFound,         // no such run, reactor or record
  kInvalidArgument,  // the caller's input was rejected
  kCorruption,       // a stored record could not be read
  kLeaseLost,        // another writer holds the run now; nothing was written
  kUnavailable,      // a backend could not be reached
  kAlreadyExists,    // a run with this id exists (and differs from what was asked); nothing written
  kFailedPrecondition,  // the run is not in a state that allows it (cancel a finished run)
  kInternal,
  kDeadlineExceeded,  // asked after its deadline (an interrupt's lazy timeout)
};

const char* to_string(StatusCode code);

// [[nodiscard]]: a Status a caller drops is an error it ignored; the build
// refuses it. Where ignoring one is right, `(void)` it and say why.
class [[nodiscard]] Status {
 public:
  Status() = default;  // ok
  Status(StatusCode code, std::string message) : code_(code), message_(std::move(message)) {}

  static Status Ok() { return {}; }
  static Status NotFound(std::string m) { return {StatusCode::kNotFound, std::move(m)}; }
  static Status InvalidArgument(std::string m) {
    return {StatusCode::kInvalidArgument, std::move(m)};
  }
  static Status Corruption(std::string m) { return {StatusCode::kCorruption, std::move(m)}; }
  static Status LeaseLost(std::string m) { return {StatusCode::kLeaseLost, std::move(m)}; }
  static Status Unavailable(std::string m) { return {StatusCode::kUnavailable, std::move(m)}; }
  static Status AlreadyExists(std::string m) { return {StatusCode::kAlreadyExists, std::move(m)}; }
  static Status FailedPrecondition(std::string m) {
    return {StatusCode::kFailedPrecondition, std::move(m)};
  }
  static Status Internal(std::string m) { return {StatusCode::kInternal, std::move(m)}; }
  static Status DeadlineExceeded(std::string m) {
    return {StatusCode::kDeadlineExceeded, std::move(m)};
  }

  bool ok() const { return code_ == StatusCode::kOk; }
  StatusCode code() const { return code_; }
  const std::string& message() const { return message_; }
  std::string to_string() const;

 private:
  StatusCode code_ = StatusCode::kOk;
  std::string message_;
};

}  // namespace reactor
