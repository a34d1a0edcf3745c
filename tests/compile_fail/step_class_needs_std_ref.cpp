// expect-error: Builder::step<T>(name, args...): T must be constructible from copies of the arguments after the name (pass references with std::ref)
// A Step class that takes a reference, given its dependency without std::ref.
#include <reactor/reactor.hpp>

using namespace reactor;

struct Payments {};

struct Charge : Step {
  explicit Charge(Payments& p) : payments(p) {}
  StepResult run(const Args&, StepContext&) override { return Success(); }
  Payments& payments;
};

Definition d(Payments& payments) { return Builder("R").step<Charge>("charge", payments).build(); }
