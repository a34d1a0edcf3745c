// Helpers for testing your own reactors with GoogleTest: run a reactor with
// mocked steps, force a failure at a named step, run it one step at a time,
// and assert on the trace in one readable line.
//
//   #include <reactor/testing.hpp>
//   using namespace reactor;
//   using namespace reactor::testkit;
//
//   TEST(OrderSaga, DeclinedCardReleasesStock) {
//     RunResult r = TestRun(order_saga(inventory))
//                       .mock_step("reserve", [](const Args&) { return Success(7); })
//                       .fail_at("ship", "carrier down")
//                       .run({{"order_id", 1}, {"amount", 5}});
//     EXPECT_THAT(r, HasStatus(RunStatus::kFailed));
//     EXPECT_THAT(r, HasTrace("ran reserve, charge, ship; compensated ship; undid charge,
//     reserve")); EXPECT_THAT(r.trace_summary(), testing::HasSubstr("undid"));  // GoogleTest's
//     ::testing
//   }
//
// The helpers live in reactor::testkit, not reactor::testing, so that
// `using namespace reactor;` leaves `testing::` meaning GoogleTest's. Until
// 0.3, defining REACTOR_TESTING_NAMESPACE_ALIAS before including this header
// declares the old name, reactor::testing, as an alias (and brings the
// ambiguity back).
//
// Header-only; link GTest::gmock alongside reactor::reactor.
#pragma once

#include <gmock/gmock.h>

#include <algorithm>
#include <memory>
#include <mutex>
#include <ostream>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

#include "reactor/reactor.hpp"

namespace reactor::testkit {

// Records the jobs every commit queues (TestRun::step_by_step's pending_jobs).
class JobRecorder : public BackendWrapper {
 public:
  using BackendWrapper::BackendWrapper;

  Status commit(const CommitRequest& c) override {
    note(c);
    return BackendWrapper::commit(c);
  }
  Result<std::optional<Delivery>> commit_then_fetch(const CommitRequest& c,
                                                    const FetchRequest& f) override {
    note(c);
    return BackendWrapper::commit_then_fetch(c, f);
  }
  std::vector<JobSpec> jobs() const {
    std::lock_guard lock(mu_);
    return jobs_;
  }
  void clear() {
    std::lock_guard lock(mu_);
    jobs_.clear();
  }

 private:
  void note(const CommitRequest& c) {
    std::lock_guard lock(mu_);
    jobs_.insert(jobs_.end(), c.enqueue.begin(), c.enqueue.end());
  }
  mutable std::mutex mu_;
  std::vector<JobSpec> jobs_;
};

class TestRun {
 public:
  explicit TestRun(Definition definition, EngineOptions options = {})
      : definition_(std::move(definition)),
        options_of_engine_(options),
        engine_(std::make_unique<Engine>(std::move(options))) {}

  // Replaces the body of the step at `path`, in-process and durable() alike: "charge"; a
  // composed child's, a map's elements' or an async unit's step under its step's name,
  // "payment/charge", "tickets/email" (every element's), "invoice/render"; one element's,
  // "tickets[1]/email" (reactor/definition.hpp, step paths). A mocked compose or map step runs
  // once, as a plain step; a mocked map's element() arguments are left out; an async_step's
  // name mocks its unit's body. `fn` is a step body, as Builder::step takes it. A path that
  // names no step throws std::invalid_argument naming it and the nearest one that does.
  template <typename F>
  TestRun& mock_step(const std::string& path, F fn) {
    static_assert(StepFunction<F>, REACTOR_STEP_FUNCTION_MESSAGE("TestRun::mock_step(path, fn)"));
    if constexpr (std::is_invocable_r_v<StepResult, F&, const Args&, StepContext&>) {
      return override_at(path, RunFn(std::move(fn)));
    } else if constexpr (std::is_invocable_r_v<StepResult, F&, const Args&>) {
      return override_at(path, [f = std::move(fn)](const Args& a, StepContext&) { return f(a); });
    } else {
      return *this;  // the static_assert above said why
    }
  }

  // Makes the step at `path` (as mock_step takes it) fail, not retryable, every time it runs;
  // its compensate still runs, since its body "started".
  TestRun& fail_at(const std::string& path, std::string message = "forced failure") {
    return override_at(path,
                       [message](const Args&, StepContext&) { return Failure(message, false); });
  }

  // Runs one step at a time — the reactor, and every composed child and map
  // element reactor in it — whatever their max_concurrency: among the ready
  // steps the one declared first runs first, so the trace is the same on
  // every run (docs/testing.md, "When a trace is deterministic"). A parallel
  // saga's trace is then the one of its sequential order, which is one of
  // the orders it may take in production.
  TestRun& sequential() {
    definition_ = Definition(one_at_a_time(definition_.data()));
    return *this;
  }

  // Runs the reactor durably, on a store in memory, as workers would: a hand-off point
  // (background_after/before), a fan-out map, an async unit or a retry goes through a job, and
  // run() executes those jobs in this thread before it returns. The result is the run's end;
  // its trace says what ran in the caller (before "handed off ...") and what in a worker.
  // Mocked steps are part of the reactor those jobs run (a mapped step's path without its
  // element index: "m/charge" mocks every element's; an async_step's name mocks its body).
  // Call before run().
  TestRun& durable() { return go_durable(/*step_by_step=*/false); }
  // Durable, one leg at a time: run() returns where the run leaves the caller (`running` at its
  // hand-off point, `waiting` at a fan-out map or an async unit); pending_jobs() lists the jobs
  // queued since the last run() or drain_jobs(); drain_jobs() executes every job due, and those
  // they queue, and returns the run as it stands then.
  TestRun& step_by_step() { return go_durable(/*step_by_step=*/true); }

  RunResult run(Value inputs = Value::object()) {
    if (!durable_) return engine_->run(definition_, std::move(inputs), options_);
    Engine& engine = this->engine();
    engine.registry().add(definition_);
    recorder_->clear();
    RunResult r = engine.run(definition_, std::move(inputs));
    last_run_id_ = r.run_id;
    return r;
  }

  // step_by_step(): the jobs queued since the last run() or drain_jobs().
  std::vector<JobSpec> pending_jobs() const {
    return recorder_ ? recorder_->jobs() : std::vector<JobSpec>{};
  }
  // step_by_step(): executes the jobs due (and those they queue) and returns the last run.
  RunResult drain_jobs() {
    RunResult r;
    if (!durable_) return r;
    recorder_->clear();
    Status s = engine().run_due_jobs(definition_.name());
    if (s.ok()) {
      Result<RunResult> found = engine().find(last_run_id_);
      s = found.status();
      if (found.ok()) r = std::move(found).value();
    }
    if (!s.ok()) {
      r.error = RunError{};
      r.error->kind = ErrorKind::kInternal;
      r.error->message = s.to_string();
    }
    return r;
  }

  // The engine runs go through; durable(): made at the first run() (or this call), with the
  // mocks given by then.
  Engine& engine() {
    if (!engine_) engine_ = durable_engine();
    return *engine_;
  }

 private:
  TestRun& override_at(const std::string& path, RunFn fn) {
    if (auto why = step_path_error(definition_, path)) {
      throw std::invalid_argument("TestRun: " + *why);
    }
    if (durable_ && engine_) {
      throw std::logic_error("TestRun: mock_step and fail_at come before run() (step '" + path +
                             "'): a durable run's workers were made with the mocks given then");
    }
    options_.overrides[path] = std::move(fn);
    return *this;
  }

  // A copy of `d` and of every reactor composed or mapped in it, with
  // max_concurrency 1. Step bodies are shared, not copied.
  static std::shared_ptr<const DefinitionData> one_at_a_time(
      const std::shared_ptr<const DefinitionData>& d) {
    auto copy = std::make_shared<DefinitionData>(*d);
    copy->max_concurrency = 1;
    for (StepSpec& s : copy->steps) {
      if (s.child) s.child = one_at_a_time(s.child);
    }
    return copy;
  }

  TestRun& go_durable(bool step_by_step) {
    durable_ = true;
    step_by_step_ = step_by_step;
    engine_.reset();  // made at the first run(), with the mocks given by then
    return *this;
  }

  // A durable engine on a store in memory whose every execution — the caller's and the jobs'
  // — runs the mocks (EngineOptions::step_overrides), by the same paths as in-process.
  std::unique_ptr<Engine> durable_engine() {
    Result<std::unique_ptr<Backend>> memory = open_backend("memory:", options_of_engine_.clock);
    Status s = memory.status();
    if (!s.ok()) throw std::runtime_error("TestRun: " + s.to_string());
    recorder_ = std::make_shared<JobRecorder>(std::move(memory).value());
    EngineOptions o = options_of_engine_;
    o.backend = recorder_;
    o.step_overrides = options_.overrides;
    o.durability.inline_jobs = !step_by_step_;
    // One leg at a time: a caller never waits for an async unit, it leaves its job pending.
    if (step_by_step_) o.durability.async_wait_timeout = Duration::zero();
    return std::make_unique<Engine>(std::move(o));
  }

  Definition definition_;
  EngineOptions options_of_engine_;
  std::unique_ptr<Engine> engine_;
  RunOptions options_;
  bool durable_ = false;  // durable() or step_by_step()
  bool step_by_step_ = false;
  std::shared_ptr<JobRecorder> recorder_;  // made with the durable engine
  std::string last_run_id_;
};

// EXPECT_THAT(result, HasTrace("ran a, b; compensated b; undid a"))
MATCHER_P(HasTrace, expected, "has trace \"" + std::string(expected) + "\"") {
  std::string actual = arg.trace_summary();
  *result_listener << "whose trace is \"" << actual << "\"";
  return actual == std::string(expected);
}

// EXPECT_THAT(result, HasStatus(RunStatus::kCompleted))
MATCHER_P(HasStatus, expected, std::string("has status ") + to_string(expected)) {
  *result_listener << "whose status is " << to_string(arg.status);
  if (arg.error) *result_listener << " (error: " << arg.error->message << ")";
  return arg.status == expected;
}

// EXPECT_THAT(result, FailedAt("charge", ErrorKind::kStepFailed))
MATCHER_P2(FailedAt, step, kind,
           std::string("failed at step ") + std::string(step) + " with " + to_string(kind)) {
  if (!arg.error) {
    *result_listener << "which has no error";
    return false;
  }
  *result_listener << "which failed at '" << arg.error->step << "' with "
                   << to_string(arg.error->kind) << ": " << arg.error->message;
  return arg.error->step == std::string(step) && arg.error->kind == kind;
}

// Coordination (reactor/coordination.hpp): what a store holds, to assert on.
//   CoordinationView held = coordination_of(*engine.backend());
//   EXPECT_THAT(held, LockHeldBy("account:7", run_id));
//   EXPECT_THAT(held, SemaphoreTokens("bank-api", /*held=*/0, /*available=*/2));
//   EXPECT_THAT(held, RateWindowCount("bank", 1000, 3));
inline CoordinationView coordination_of(HoldStore& store) {
  Result<CoordinationView> v = store.coordination();
  if (!v.ok()) ADD_FAILURE() << "coordination(): " << v.status().to_string();
  return v.ok() ? std::move(v).value() : CoordinationView{};
}

// The live hold of `key` in a CoordinationView, or nullptr.
inline const HoldRow* hold_of(const CoordinationView& v, const std::string& key) {
  for (const HoldRow& h : v.holds) {
    if (h.key == key) return &h;
  }
  return nullptr;
}

// EXPECT_THAT(view, LockHeldBy("account:7", run_id)): the lock (or a token of the semaphore)
// `key` is held by root run `run_id`.
MATCHER_P2(LockHeldBy, key, run_id,
           "has '" + std::string(key) + "' held by " + std::string(run_id)) {
  const HoldRow* h = hold_of(arg, key);
  if (h == nullptr) {
    *result_listener << "where nobody holds it";
    return false;
  }
  std::string holders;
  for (const std::string& r : h->holders) holders += (holders.empty() ? "" : ", ") + r;
  *result_listener << "held by " << holders;
  return std::find(h->holders.begin(), h->holders.end(), std::string(run_id)) != h->holders.end();
}

// EXPECT_THAT(view, SemaphoreTokens("bank-api", 1, 1)): `held` tokens taken, `available` left
// (a semaphore nobody holds is not listed: SemaphoreTokens(key, 0, n) matches it for any n).
MATCHER_P3(SemaphoreTokens, key, held, available,
           "has " + std::to_string(held) + " tokens of '" + std::string(key) + "' held and " +
               std::to_string(available) + " available") {
  const HoldRow* h = hold_of(arg, key);
  const int taken = h == nullptr ? 0 : static_cast<int>(h->holders.size());
  *result_listener << "with " << taken << " held"
                   << (h ? " of " + std::to_string(h->limit) : std::string(" (not listed)"));
  if (h == nullptr) return held == 0;
  return taken == held && h->limit - taken == available;
}

// EXPECT_THAT(view, RateWindowCount("bank", 1000, 3)): the current window of `window_ms` of
// rate limit `key` counted `count` executions (0 when it has none).
MATCHER_P3(RateWindowCount, key, window_ms, count,
           "has " + std::to_string(count) + " in the " + std::to_string(window_ms) +
               " ms window of '" + std::string(key) + "'") {
  int seen = 0;
  for (const RateWindowRow& w : arg.rate_windows) {
    if (w.key == std::string(key) && w.window_ms == window_ms) seen = w.count;
  }
  *result_listener << "which counted " << seen;
  return seen == count;
}

}  // namespace reactor::testkit

#ifdef REACTOR_TESTING_NAMESPACE_ALIAS
// The helpers' name before 0.2, kept until 0.3 for code that defines
// REACTOR_TESTING_NAMESPACE_ALIAS. It clashes with GoogleTest's ::testing
// wherever `using namespace reactor;` is in effect.
namespace reactor {
namespace testing = testkit;
}  // namespace reactor
#endif
