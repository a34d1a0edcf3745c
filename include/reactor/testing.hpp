// Helpers for testing your own reactors with GoogleTest: run a reactor with
// mocked steps, force a failure at a named step, and assert on the trace in
// one readable line.
//
//   #include <reactor/testing.hpp>
//   using namespace reactor::testing;
//
//   TEST(OrderSaga, DeclinedCardReleasesStock) {
//     RunResult r = TestRun(order_saga(inventory))
//                       .mock_step("reserve", [](const Args&) { return Success(7); })
//                       .fail_at("ship", "carrier down")
//                       .run({{"order_id", 1}, {"amount", 5}});
//     EXPECT_THAT(r, HasStatus(RunStatus::kFailed));
//     EXPECT_THAT(r, HasTrace("ran reserve, charge, ship; compensated ship; undid charge, reserve"));
//   }
//
// Header-only; link GTest::gmock alongside reactor::reactor.
#pragma once

#include <gmock/gmock.h>

#include <memory>
#include <ostream>
#include <string>
#include <utility>

#include "reactor/reactor.hpp"

namespace reactor {

// How GoogleTest prints a RunResult in failure messages (found by ADL): one
// line instead of a byte dump.
inline void PrintTo(const RunResult& r, std::ostream* os) {
  *os << "RunResult{" << r.reactor << " run " << r.run_id << ", status " << to_string(r.status);
  if (r.error) {
    *os << ", error " << to_string(r.error->kind) << " at '" << r.error->step
        << "': " << r.error->message;
  } else if (!r.value.is_null()) {
    *os << ", value " << r.value.dump();
  }
  *os << ", trace \"" << r.trace_summary() << "\"}";
}

}  // namespace reactor

namespace reactor::testing {

class TestRun {
 public:
  explicit TestRun(Definition definition, EngineOptions options = {})
      : definition_(std::move(definition)), engine_(std::make_unique<Engine>(std::move(options))) {}

  // Replaces the body of the step at `path` ("charge", "payment/charge"). A
  // mocked compose or map step runs once, as a plain step; a mocked map's
  // element() arguments are left out.
  template <typename F>
  TestRun& mock_step(const std::string& path, F fn) {
    if constexpr (std::is_invocable_v<F, const Args&, StepContext&>) {
      options_.overrides[path] = RunFn(std::move(fn));
    } else {
      options_.overrides[path] = [f = std::move(fn)](const Args& a, StepContext&) { return f(a); };
    }
    return *this;
  }

  // Makes the step at `path` fail (not retryable) every time it runs; its
  // compensate still runs, since its body "started".
  TestRun& fail_at(const std::string& path, std::string message = "forced failure") {
    options_.overrides[path] = [message](const Args&, StepContext&) {
      return Failure(message, false);
    };
    return *this;
  }

  RunResult run(Value inputs = Value::object()) {
    return engine_->run(definition_, std::move(inputs), options_);
  }

  Engine& engine() { return *engine_; }

 private:
  Definition definition_;
  std::unique_ptr<Engine> engine_;
  RunOptions options_;
};

// EXPECT_THAT(result, HasTrace("ran a, b; compensated b; undid a"))
MATCHER_P(HasTrace, expected, "has trace \"" + std::string(expected) + "\"") {
  std::string actual = arg.trace_summary();
  *result_listener << "whose trace is \"" << actual << "\"";
  return actual == std::string(expected);
}

// EXPECT_THAT(result, HasStatus(RunStatus::kCompleted))
MATCHER_P(HasStatus, expected, std::string("has status ") + to_string(expected)) {
  *result_listener << "whose status is " << to_string(arg.status);
  if (arg.error) *result_listener << " (error: " << arg.error->message << ")";
  return arg.status == expected;
}

// EXPECT_THAT(result, FailedAt("charge", ErrorKind::kStepFailed))
MATCHER_P2(FailedAt, step, kind,
           std::string("failed at step ") + std::string(step) + " with " + to_string(kind)) {
  if (!arg.error) {
    *result_listener << "which has no error";
    return false;
  }
  *result_listener << "which failed at '" << arg.error->step << "' with "
                   << to_string(arg.error->kind) << ": " << arg.error->message;
  return arg.error->step == std::string(step) && arg.error->kind == kind;
}

}  // namespace reactor::testing
