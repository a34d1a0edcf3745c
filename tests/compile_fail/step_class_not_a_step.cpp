// expect-error: Builder::step<T>(name, args...): T must be a class derived from reactor::Step
// A class step whose class does not derive from reactor::Step.
#include <reactor/reactor.hpp>

using namespace reactor;

struct Charge {
  StepResult run(const Args&, StepContext&) { return Success(); }
};

Definition d() { return Builder("R").step<Charge>("charge").build(); }
