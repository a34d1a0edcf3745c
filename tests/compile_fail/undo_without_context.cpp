// expect-error: undo must be callable as StepResult(const Value& result, const Args&, StepContext&), and return a StepResult
// An undo that leaves out the StepContext.
#include <reactor/reactor.hpp>

using namespace reactor;

Definition d() {
  return Builder("R")
      .step("a", [](const Args&) { return Success(); })
      .undo([](const Value&, const Args&) { return Success(); })
      .build();
}
