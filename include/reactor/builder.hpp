// Builder: describes a saga top to bottom, the way it reads on a whiteboard.
//
//   Definition saga = Builder("OrderSaga")
//       .input("order_id", integer())
//       .step("reserve", reserve_fn)
//         .argument("order_id", input("order_id"))
//         .undo(release_fn)
//       .step<ChargeCard>("charge", std::ref(payments))
//         .argument("reservation", result("reserve"))
//         .retries(exponential_backoff(3, 200ms))
//       .returns("charge")
//       .build();
//
// Step modifiers (argument, wait_for, compensate, undo, retries, timeout,
// validate_output, and for maps source, atomic, collect) apply to the step
// declared last. build() checks the whole graph and throws DefinitionError
// naming the step at fault.
#pragma once

#include <concepts>
#include <initializer_list>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "reactor/definition.hpp"

namespace reactor {

class Builder {
 public:
  explicit Builder(std::string reactor_name);
  Builder(Builder&&) noexcept;
  Builder& operator=(Builder&&) noexcept;
  ~Builder();

  // Inputs. Required unless the schema says optional() or has a default.
  Builder& input(std::string name, Schema schema = any());
  // Up to n independent ready steps run at once (default 1: one at a time,
  // in definition order).
  Builder& max_concurrency(int n);
  // Observers for runs of this reactor only (after the engine's).
  Builder& observe(std::shared_ptr<Observer> observer);

  // A step from a function: StepResult(const Args&, StepContext&) or
  // StepResult(const Args&).
  template <typename F>
    requires std::invocable<F, const Args&, StepContext&> || std::invocable<F, const Args&>
  Builder& step(std::string name, F fn) {
    if constexpr (std::invocable<F, const Args&, StepContext&>) {
      return add_step(std::move(name), RunFn(std::move(fn)));
    } else {
      return add_step(std::move(name),
                      RunFn([f = std::move(fn)](const Args& a, StepContext&) { return f(a); }));
    }
  }
  // A step from a Step class; a fresh T(ctor_args...) is made for each action.
  template <typename T, typename... CtorArgs>
    requires std::derived_from<T, Step>
  Builder& step(std::string name, CtorArgs... ctor_args) {
    return add_step_class(std::move(name), StepFactory([=] {
                            return std::unique_ptr<Step>(std::make_unique<T>(ctor_args...));
                          }));
  }
  // A registered reactor run as one step, with its own undo stack. Its
  // arguments become the child's inputs.
  Builder& compose(std::string name, const Definition& child);
  // Runs `element_reactor` once per item of source(). Its arguments, one of
  // them element(name), become each element's inputs.
  Builder& map(std::string name, const Definition& element_reactor);

  // Modifiers of the last declared step.
  Builder& argument(std::string name, ArgumentSource source);
  Builder& wait_for(std::string step);
  Builder& wait_for(std::initializer_list<std::string> steps);
  Builder& compensate(CompensateFn fn);
  Builder& undo(UndoFn fn);
  Builder& retries(RetryPolicy policy);
  // The step's stop_token is signalled after `limit`; its result is then a
  // retryable timeout failure.
  Builder& timeout(Duration limit);
  // A value that fails the schema is a failure of the step; the step is
  // compensated (its side effect happened).
  Builder& validate_output(Schema schema);

  // Map modifiers.
  Builder& source(ArgumentSource collection);
  // true (default): the first failed element fails the map, and completed
  // elements are undone highest index first. false: the map succeeds with
  // every element's outcome; failed elements roll themselves back.
  Builder& atomic(bool atomic);
  Builder& collect(CollectFn fn);

  // The run's value is this step's result (default: an object of all results).
  Builder& returns(std::string step);

  // Validates and freezes the graph. Throws DefinitionError.
  Definition build() const;

 private:
  struct State;
  Builder& add_step(std::string name, RunFn fn);
  Builder& add_step_class(std::string name, StepFactory factory);
  StepSpec* current(const char* modifier);

  std::unique_ptr<State> state_;
};

}  // namespace reactor
