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
// validate_output, and for maps source, source_pages, fan_out, atomic,
// collect, undo_all) apply to the step declared last. build() checks the whole graph and throws
// DefinitionError naming the step at fault.
#pragma once

#include <concepts>
#include <initializer_list>
#include <memory>
#include <string>
#include <type_traits>
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

  // A step from a function — a lambda or any callable — of one of these
  // signatures (the StepFunction concept, definition.hpp):
  //   StepResult(const Args&)
  //   StepResult(const Args&, StepContext&)
  template <typename F>
  requires(!std::derived_from<F, Step>) Builder& step(std::string name, F fn) {
    static_assert(StepFunction<F>, REACTOR_STEP_FUNCTION_MESSAGE("Builder::step(name, fn)"));
    if constexpr (std::is_invocable_r_v<StepResult, F&, const Args&, StepContext&>) {
      return add_step(std::move(name), RunFn(std::move(fn)));
    } else if constexpr (std::is_invocable_r_v<StepResult, F&, const Args&>) {
      return add_step(
          std::move(name),
          RunFn([f = std::move(fn)](const Args& a, StepContext&) mutable { return f(a); }));
    } else {
      return *this;
    }
  }
  // A step from a Step class: T derives from reactor::Step and overrides run();
  // a fresh T(ctor_args...) is made for each action, from copies of the
  // arguments given here (pass references with std::ref).
  template <typename T, typename... CtorArgs>
  Builder& step(std::string name, CtorArgs... ctor_args) {
    static_assert(std::derived_from<T, Step>,
                  "Builder::step<T>(name, args...): T must be a class derived from reactor::Step "
                  "(for a function or lambda, call step(name, fn) without <T>)");
    if constexpr (std::derived_from<T, Step>) {
      static_assert(!std::is_abstract_v<T>,
                    "Builder::step<T>(name, args...): T must override "
                    "StepResult run(const Args&, StepContext&) (compensate and undo are optional)");
      if constexpr (!std::is_abstract_v<T>) {
        static_assert(std::is_constructible_v<T, const CtorArgs&...>,
                      "Builder::step<T>(name, args...): T must be constructible from copies of the "
                      "arguments after the name (pass references with std::ref)");
        if constexpr (std::is_constructible_v<T, const CtorArgs&...>) {
          return add_step_class(std::move(name), StepFactory([=] {
                                  return std::unique_ptr<Step>(std::make_unique<T>(ctor_args...));
                                }));
        }
      }
    }
    return *this;
  }
  // A registered reactor run as one step, with its own undo stack. Its
  // arguments become the child's inputs.
  Builder& compose(std::string name, const Definition& child);
  // Runs `element_reactor` once per item of source(). Its arguments, one of
  // them element(name), become each element's inputs.
  Builder& map(std::string name, const Definition& element_reactor);

  // Async units (docs/async.md): work sent off as a job of its own while the run goes on.
  // Steps that read the unit's result (result(name)) wait for it to finish and get its real
  // Success or Failure (a failure read is the reader's own, and rolls the run back); the others
  // run as soon as it is dispatched. A unit rolls itself back: it is never on the run's undo
  // stack, and one that fails unread leaves the run to complete. The run ends only once every
  // unit it dispatched has finished (a failing run does not wait for them).
  //
  // async_step: a step, as step(name, fn) declares it (arguments, compensate, retries, timeout),
  // whose attempts run in its own job, as the reactor "<reactor>.<name>" of one step. undo() is
  // rejected: a unit is never undone.
  template <typename F>
  requires(!std::derived_from<F, Step>) Builder& async_step(std::string name, F fn) {
    step(std::move(name), std::move(fn));
    return make_async_step();
  }
  template <typename T, typename... CtorArgs>
  Builder& async_step(std::string name, CtorArgs... ctor_args) {
    step<T>(std::move(name), std::move(ctor_args)...);
    return make_async_step();
  }
  // async_reactor: a run of `child` with its own id (<root>:<path>[0]), linked to this run,
  // started with the step's arguments as inputs — validated at dispatch: invalid ones fail this
  // step. Its retries are its own steps'; retries() on it is rejected.
  Builder& async_reactor(std::string name, const Definition& child);

  // Interrupts (docs/interrupts.md): a step that waits for a payload from outside — a person's
  // approval, another system's callback. Reaching it (its arguments and wait_for met) pauses
  // the run once nothing else can run: status `paused`, no lease, no thread, no job (but an
  // active timeout's). Its result is the payload it is resumed with (Engine::resume_interrupt);
  // later steps read it with result(name). Not allowed inside a map's element reactor or an
  // async_reactor (build() rejects them); inside a composed child it pauses the root, and is
  // resumed by its path ("child/approve"). It takes argument() and wait_for(), and these:
  Builder& interrupt(std::string name);
  // A field of the payload, checked as an input is (required unless optional() or with a
  // default; a field not declared is an error). Without any, any JSON object is accepted.
  Builder& payload(std::string field, Schema schema = any());
  // The interrupt's correlation id, from its arguments: fn is std::string(const Args&). A resume
  // may name it instead of the run (Engine::resume_by_correlation). Two waiting interrupts may
  // not hold one id: the second fails its step.
  template <typename F>
  Builder& correlation_id(F fn) {
    static_assert(std::is_invocable_r_v<std::string, F&, const Args&>,
                  "Builder::correlation_id(fn): fn must be callable as std::string(const Args&)");
    if constexpr (std::is_invocable_r_v<std::string, F&, const Args&>) {
      return correlation(CorrelationFn(std::move(fn)));
    }
    return *this;
  }
  // 1 (default): an invalid payload is refused and the interrupt goes on waiting. n > 1: the
  // n-th invalid payload fails the interrupt, and the run rolls back and fails.
  Builder& max_attempts(int n);
  // How long the interrupt waits, from when it is reached: a fixed time, or a number of seconds
  // read from an argument source (an input, a result) then. Lazy or active (TimeoutMode). A
  // plain step's timeout(limit) is the limit of one attempt instead.
  Builder& timeout(Duration limit, TimeoutMode mode);
  Builder& timeout(ArgumentSource seconds, TimeoutMode mode);

  // Modifiers of the last declared step.
  Builder& argument(std::string name, ArgumentSource source);
  Builder& wait_for(std::string step);
  Builder& wait_for(std::initializer_list<std::string> steps);
  // The step's own failure, after its last attempt: fn is
  //   StepResult(const std::string& error, const Args&, StepContext&)
  // (CompensateFunction), `error` the failure's message.
  template <typename F>
  Builder& compensate(F fn) {
    static_assert(CompensateFunction<F>, REACTOR_COMPENSATE_FUNCTION_MESSAGE);
    if constexpr (CompensateFunction<F>) return compensate(CompensateFn(std::move(fn)));
    return *this;
  }
  Builder& compensate(CompensateFn fn);
  // A later step's failure, to revert this completed step: fn is
  //   StepResult(const Value& result, const Args&, StepContext&)
  // (UndoFunction), `result` the value the step returned.
  template <typename F>
  Builder& undo(F fn) {
    static_assert(UndoFunction<F>, REACTOR_UNDO_FUNCTION_MESSAGE);
    if constexpr (UndoFunction<F>) return undo(UndoFn(std::move(fn)));
    return *this;
  }
  Builder& undo(UndoFn fn);
  Builder& retries(RetryPolicy policy);
  // The step's stop_token is signalled after `limit`; its result is then a
  // retryable timeout failure.
  Builder& timeout(Duration limit);
  // A value that fails the schema is a failure of the step; the step is
  // compensated (its side effect happened).
  Builder& validate_output(Schema schema);

  // Map modifiers.
  // The array the map runs over: input("items"), result("step", "path"), …
  Builder& source(ArgumentSource collection);
  // Or its items a page at a time, never all in one record: fn is
  //   Value(const Args& args, std::size_t offset, std::size_t limit)
  // (PageFunction), returning the items at [offset, offset + limit) as an
  // array, fewer than `limit` on the last page; `args` are the map's
  // arguments other than element(). It may be called more than once for a
  // page (a worker that takes over reads it again): return the same items.
  template <typename F>
  Builder& source_pages(F fn) {
    static_assert(PageFunction<F>, REACTOR_PAGE_FUNCTION_MESSAGE);
    if constexpr (PageFunction<F>) return source_pages(PageFn(std::move(fn)));
    return *this;
  }
  Builder& source_pages(PageFn fn);
  // Every element runs as a job of its own, on any worker serving the
  // reactor, with at most batch_size of them outstanding: the next is released
  // as one finishes. The map step hands the run off (docs/maps.md). In an
  // engine without a store the elements run in the step, as without fan_out.
  Builder& fan_out(std::uint32_t batch_size = 50);
  // The same, its batch size read when the map starts: input("batch_size"),
  // result(…); an integer from 1 to kMaxMapElements, else the map fails
  // unresolved.
  Builder& fan_out(ArgumentSource batch_size);
  // With fan_out: the elements are claimed `elements` at a time (docs/maps.md, "Claims"). A
  // claim is released as one job; the worker that fetches it runs its elements one after
  // another in memory and files their results with one commit, so an element costs the store
  // a small part of a run. What it gives up: an element's steps are not checkpointed one by one
  // — a worker lost mid-claim takes the whole claim with it, and its next delivery runs every
  // element of the claim again from its first step; a retry's wait holds the worker's thread.
  // The element reactor must be made of plain steps (no composed child, map, async unit or
  // interrupt). 1 (the default): each element a run of its own, as checkpoint_steps() says.
  Builder& claim_batch(std::uint32_t elements);
  // The same, its claim size read when the map starts: input("claim"), result(…); an integer
  // from 1 to kMaxMapElements, else the map fails unresolved. The element reactor must be made
  // of plain steps whatever the size turns out to be.
  Builder& claim_batch(ArgumentSource elements);
  // With fan_out: each element a run of its own, checkpointed step by step, so a worker lost
  // mid-element re-runs at most the step in flight (docs/maps.md). The default; stating it
  // keeps a map that relies on it from being given claims: with claim_batch(n > 1) it is refused.
  Builder& checkpoint_steps();
  // true (default): the first failed element fails the map, and completed
  // elements are undone highest index first. false: the map succeeds with
  // every element's outcome; failed elements roll themselves back.
  Builder& atomic(bool atomic);
  // The map's value from its elements' outcomes: fn is
  //   Value(const MapResults&)
  // (CollectFunction).
  template <typename F>
  Builder& collect(F fn) {
    static_assert(CollectFunction<F>, REACTOR_COLLECT_FUNCTION_MESSAGE);
    if constexpr (CollectFunction<F>) return collect(CollectFn(std::move(fn)));
    return *this;
  }
  Builder& collect(CollectFn fn);
  // Rolls the map back in one call over its completed elements, instead of
  // each element's own undo: fn is
  //   StepResult(const MapResults& completed, StepContext&)
  // (UndoAllFunction); `completed` is read page by page. A failure is one
  // rollback failure of the map; the steps before it are still undone.
  template <typename F>
  Builder& undo_all(F fn) {
    static_assert(UndoAllFunction<F>, REACTOR_UNDO_ALL_FUNCTION_MESSAGE);
    if constexpr (UndoAllFunction<F>) return undo_all(UndoAllFn(std::move(fn)));
    return *this;
  }
  Builder& undo_all(UndoAllFn fn);

  // Coordination (coordination.hpp, docs/coordination.md). Before the first step: the reactor's,
  // its keys computed from the run's inputs, held from admission to the run's end. After a
  // plain step: that step's, its keys from the step's resolved arguments, held around its body.
  // Misuse (a limit < 1, no window, a period or ordered lock on a step twice, on a map, compose,
  // async or interrupt step, an ordered lock on a step) is a DefinitionError from build().
  Builder& with_lock(KeyFn key, LockOptions options = {});
  Builder& with_lock(std::string key, LockOptions options = {});
  Builder& with_semaphore(KeyFn key, int limit, LockOptions options = {});
  Builder& with_semaphore(std::string key, int limit, LockOptions options = {});
  Builder& with_rate_limit(KeyFn key, std::vector<RateWindow> windows);
  // The engine's limit `name` (Engine::rate_limits()), one bucket for every run that names it.
  Builder& with_rate_limit(std::string name);
  // At most one completed run (or step) per bucket of `every`, per key (none: one per reactor,
  // or per step). Reactor level: a second run halts (reason "period"); step level: the step is
  // skipped.
  Builder& with_period(PeriodSpec every, KeyFn key = {});
  // Reactor level only: runs of one key run one at a time, in the order they were started.
  Builder& with_ordered_lock(KeyFn key, OrderedLockOptions options = {});

  // The run's value is this step's result (default: an object of all results).
  Builder& returns(std::string step);

  // The hand-off point (one per reactor; docs/durability.md, "Hand-off"): a run a caller starts
  // durably (Engine::run with a store) runs in the caller until it reaches `step`, then the
  // rest goes to a worker and the caller gets the run as it stands (status `running`).
  // background_after: `step` runs in the caller, what has not run yet in a worker.
  // background_before: `step` and what has not run yet run in a worker.
  // Reaching the step triggers it: a step that does not run never does; a Halt at the `after`
  // step halts, a Skipped one hands off. A worker never hands off. build() rejects two
  // declarations and an unknown step.
  Builder& background_after(std::string step);
  Builder& background_before(std::string step);

  // Validates and freezes the graph. Throws DefinitionError.
  Definition build() const;

 private:
  struct State;
  Builder& add_step(std::string name, RunFn fn);
  Builder& add_step_class(std::string name, StepFactory factory);
  Builder& make_async_step();
  Builder& correlation(CorrelationFn fn);
  StepSpec* current(const char* modifier);
  // The reactor's coordination before the first step, the last step's after it (nullptr and
  // misuse for a step that cannot take any).
  CoordinationSpec* coordination_target(const char* modifier);
  InterruptSpec* current_interrupt(const char* modifier);
  Builder& hand_off(HandOff::Kind kind, std::string step);

  std::unique_ptr<State> state_;
};

}  // namespace reactor
