// expect-error: Builder::step<T>(name, args...): T must override StepResult run(const Args&, StepContext&)
// A Step class whose run() has the wrong parameters, so that it overrides nothing.
#include <reactor/reactor.hpp>

using namespace reactor;

struct Charge : Step {
  StepResult run(const Args&) { return Success(); }
};

Definition d() { return Builder("R").step<Charge>("charge").build(); }
