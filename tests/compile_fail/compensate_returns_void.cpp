// expect-error: compensate must be callable as StepResult(const std::string& error, const Args&, StepContext&), and return a StepResult
// A compensate that returns nothing.
#include <reactor/reactor.hpp>

using namespace reactor;

Definition d() {
  return Builder("R")
      .step("a", [](const Args&) { return Success(); })
      .compensate([](const std::string&, const Args&, StepContext&) {})
      .build();
}
