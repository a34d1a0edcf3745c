// Calls user code (a step body, compensate or undo) and turns whatever it
// does — return, throw, overrun its timeout — into a StepResult.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <typeinfo>

#include "reactor/args.hpp"
#include "reactor/clock.hpp"
#include "reactor/step_result.hpp"

namespace reactor {

struct Invocation {
  StepResult result;
  bool timed_out = false;
};

// Runs `body(stop_token)`. With a timeout, a watchdog signals the token when
// the clock passes the deadline; once the body returns, the result is then a
// retryable timeout failure whatever the body returned. If the body is still
// running `hung_grace` after that, `on_hung` is called (once): the durable
// layer stops the run's heartbeat so a hung thread cannot hold it forever.
Invocation invoke_user_code(const std::function<StepResult(std::stop_token)>& body,
                            std::optional<Duration> timeout, Clock& clock,
                            const std::function<void()>& on_hung = {},
                            Duration hung_grace = Duration::zero());

// "std::runtime_error" for a std::runtime_error.
std::string demangled_type_name(const std::type_info& type);

// Calls body(token) and turns what it throws into a Failure. Templated so the
// no-timeout hot path calls the step without a std::function.
template <typename Body>
StepResult call_user_code(Body& body, std::stop_token token = {}) {
  try {
    return body(token);
  } catch (const UndeclaredArgument& e) {
    // A programming error in the step: retrying cannot help.
    return Failure(e.what(), false);
  } catch (const std::exception& e) {
    return FailureFromException(demangled_type_name(typeid(e)), e.what());
  } catch (...) {
    return FailureFromException("unknown", "a non-standard exception was thrown");
  }
}

}  // namespace reactor
