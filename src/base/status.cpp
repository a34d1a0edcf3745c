#include "reactor/status.hpp"

namespace reactor {

// snake_case, like every other enum name Reactor prints or stores.
const char* to_string(StatusCode code) {
  switch (code) {
    case StatusCode::kOk:
      return "ok";
    case StatusCode::kNotFound:
      return "not_found";
    case StatusCode::kInvalidArgument:
      return "invalid_argument";
    case StatusCode::kCorruption:
      return "corruption";
    case StatusCode::kLeaseLost:
      return "lease_lost";
    case StatusCode::kUnavailable:
      return "unavailable";
    case StatusCode::kAlreadyExists:
      return "already_exists";
    case StatusCode::kFailedPrecondition:
      return "failed_precondition";
    case StatusCode::kInternal:
      return "internal";
    case StatusCode::kDeadlineExceeded:
      return "deadline_exceeded";
  }
  return "unknown";
}

std::string Status::to_string() const {
  std::string out = reactor::to_string(code_);
  if (!message_.empty()) {
    out += ": ";
    out += message_;
  }
  return out;
}

}  // namespace reactor
