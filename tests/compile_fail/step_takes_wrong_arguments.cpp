// expect-error: a step must be callable as StepResult(const Args&) or StepResult(const Args&, StepContext&)
// A step body that takes its arguments by the wrong type.
#include <reactor/reactor.hpp>

reactor::Definition d() {
  return reactor::Builder("R").step("a", [](int) { return reactor::Success(); }).build();
}
