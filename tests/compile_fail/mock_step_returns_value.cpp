// expect-error: TestRun::mock_step(path, fn): a step must be callable as StepResult(const Args&) or StepResult(const Args&, StepContext&)
// A mocked step body that returns a Value instead of Success(value).
#include <reactor/testing.hpp>

using namespace reactor;
using namespace reactor::testkit;

RunResult r(const Definition& d) {
  return TestRun(d).mock_step("a", [](const Args&) { return Value(7); }).run();
}
