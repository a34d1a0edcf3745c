// expect-error: a step must be callable as StepResult(const Args&) or StepResult(const Args&, StepContext&), and return a StepResult
// The mistake of the 48-line error (issue 16): a step body that returns an int.
#include <reactor/reactor.hpp>

reactor::Definition d() {
  return reactor::Builder("R").step("a", [](const reactor::Args&) { return 1; }).build();
}
