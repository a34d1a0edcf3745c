// Calls user code (a step body, compensate or undo) and turns whatever it
// does — return, throw, overrun its timeout — into a StepResult.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "reactor/clock.hpp"
#include "reactor/step_result.hpp"

namespace reactor {

struct Invocation {
  StepResult result;
  bool timed_out = false;
};

// Runs `body(stop_token)`. With a timeout, a watchdog signals the token when
// the clock passes the deadline; once the body returns, the result is then a
// retryable timeout failure whatever the body returned.
Invocation invoke_user_code(const std::function<StepResult(std::stop_token)>& body,
                            std::optional<Duration> timeout, Clock& clock);

// "std::runtime_error" for a std::runtime_error.
std::string demangled_type_name(const std::type_info& type);

}  // namespace reactor
