// How the operator commands (cancel, undo, retry, resume) end on an error: the message on
// stderr, and an exit code a script can branch on.
#pragma once

#include <string>

#include "cli/text.hpp"
#include "reactor/status.hpp"

namespace reactor::cli {

// 2 for no such run (as `show`), 3 for a run the command does not apply to (its status, a
// lease held elsewhere, an interrupt resumed already or past its deadline, an invalid payload),
// 1 for anything else (the store, a record).
inline int refused(const std::string& who, const Status& s) {
  print_error(who, s.to_string());
  switch (s.code()) {
    case StatusCode::kNotFound:
      return 2;
    case StatusCode::kFailedPrecondition:
    case StatusCode::kInvalidArgument:
    case StatusCode::kAlreadyExists:
    case StatusCode::kDeadlineExceeded:
      return 3;
    default:
      return 1;
  }
}

}  // namespace reactor::cli
