// max_concurrency(n): independent ready steps run at once on the pool. Overlap is proved by a
// rendezvous both steps must reach (bounded, so a sequential engine fails instead of hanging),
// and completion order is forced through observer events, never through timing.
#include <atomic>
#include <thread>

#include "unit/engine_test_support.hpp"

using namespace reactor;
using namespace reactor_test;
using std::chrono::milliseconds;
using ::testing::ElementsAre;
using ::testing::IsEmpty;

namespace {

// Tracks how many step bodies are inside at once.
struct Occupancy {
  std::atomic<int> inside{0};
  std::atomic<int> peak{0};
  void enter() {
    int now = ++inside;
    int p = peak.load();
    while (now > p && !peak.compare_exchange_weak(p, now)) {
    }
  }
  void leave() { --inside; }
};

// Fires a Signal when a given hook reaches a given step.
struct SignalOn : Observer {
  std::string hook, step;
  Signal& signal;
  SignalOn(std::string h, std::string s, Signal& sig)
      : hook(std::move(h)), step(std::move(s)), signal(sig) {}
  void fire(const char* h, const EventContext& c) {
    if (hook == h && c.step == step) signal.notify();
  }
  void on_step_complete(const EventContext& c, Outcome) override { fire("step_complete", c); }
  void on_step_fail(const EventContext& c, const std::string&) override { fire("step_fail", c); }
  void on_step_retry(const EventContext& c, Duration, const std::string&) override {
    fire("step_retry", c);
  }
};

UndoFn logging_undo(Journal& log, const std::string& name) {
  return [&log, name](const Value&, const Args&, StepContext&) {
    log.add("undo " + name);
    return Success();
  };
}

}  // namespace

TEST(Parallel, TwoIndependentStepsReallyOverlap) {
  Rendezvous both(2);
  auto meet = [&](const Args&) { return Success(both.arrive_and_wait()); };
  Definition d = Builder("Fanout").max_concurrency(2).step("a", meet).step("b", meet).build();
  Engine engine;
  RunResult r = engine.run(d, Value::object());
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.value, (Value{{"a", true}, {"b", true}})) << "a and b never ran at the same time";
}

TEST(Parallel, ConcurrencyNeverExceedsTheLimit) {
  Occupancy occ;
  Rendezvous first_pair(2), second_pair(2);
  auto step = [&](Rendezvous& pair) {
    return [&occ, &pair](const Args&) {
      occ.enter();
      bool met = pair.arrive_and_wait();
      occ.leave();
      return Success(met);
    };
  };
  Definition d = Builder("Limited")
                     .max_concurrency(2)
                     .step("a", step(first_pair))
                     .step("b", step(first_pair))
                     .step("c", step(second_pair))
                     .step("d", step(second_pair))
                     .build();
  Engine engine;
  RunResult r = engine.run(d, Value::object());
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.value, (Value{{"a", true}, {"b", true}, {"c", true}, {"d", true}}));
  EXPECT_EQ(occ.peak.load(), 2);
}

TEST(Parallel, SequentialDefaultRunsInDefinitionOrderOnTheCallingThread) {
  Occupancy occ;
  Journal log;
  const auto caller = std::this_thread::get_id();
  bool all_on_caller = true;
  auto step = [&](const std::string& name) {
    return [&, name](const Args&) {
      occ.enter();
      log.add(name);
      all_on_caller = all_on_caller && std::this_thread::get_id() == caller;
      occ.leave();
      return Success();
    };
  };
  Definition d = Builder("Seq")
                     .step("e", step("e"))
                     .step("b", step("b"))
                     .step("d", step("d"))
                     .wait_for("a")
                     .step("a", step("a"))
                     .step("c", step("c"))
                     .build();
  Engine engine;
  RunResult r = engine.run(d, Value::object());
  ASSERT_TRUE(r.ok());
  // Ready steps in definition order; "d" becomes ready once "a" is done, ahead of "c".
  EXPECT_EQ(log.entries(), (std::vector<std::string>{"e", "b", "a", "d", "c"}));
  EXPECT_EQ(occ.peak.load(), 1);
  EXPECT_TRUE(all_on_caller);
}

TEST(Parallel, RollbackFollowsReverseCompletionOrderAcrossBranches) {
  Journal log;
  Signal b_done;
  // "a" is declared first but completes second: it waits until "b" is recorded as complete.
  Definition d = Builder("Branches")
                     .max_concurrency(2)
                     .observe(std::make_shared<SignalOn>("step_complete", "b", b_done))
                     .step("a",
                           [&](const Args&) {
                             if (!b_done.wait()) return Failure("b never completed", false);
                             return Success();
                           })
                     .undo(logging_undo(log, "a"))
                     .step("b", [](const Args&) { return Success(); })
                     .undo(logging_undo(log, "b"))
                     .step("c", [](const Args&) { return Failure("boom", false); })
                     .wait_for({"a", "b"})
                     .build();
  Engine engine;
  RunResult r = engine.run(d, Value::object());
  EXPECT_EQ(r.status, RunStatus::kFailed);
  ASSERT_TRUE(r.error);
  EXPECT_EQ(r.error->step, "c");
  EXPECT_EQ(r.trace_summary(), "ran b, a, c; undid a, b");
  EXPECT_EQ(log.entries(), (std::vector<std::string>{"undo a", "undo b"}));
}

TEST(Parallel, BranchStillInFlightWhenASiblingFailsIsUndoneOnceItCompletes) {
  Journal log;
  Counters calls;
  Signal a_failed;
  Definition d = Builder("Branches")
                     .max_concurrency(2)
                     .observe(std::make_shared<SignalOn>("step_fail", "a", a_failed))
                     .step("a", [](const Args&) { return Failure("boom", false); })
                     .compensate([&](const std::string&, const Args&, StepContext&) {
                       log.add("compensate a");
                       return Success();
                     })
                     .step("b",
                           [&](const Args&) {
                             bool seen = a_failed.wait();
                             log.add(seen ? "b done after a failed" : "b gave up waiting");
                             return Success();
                           })
                     .undo(logging_undo(log, "b"))
                     .step("c",
                           [&](const Args&) {
                             calls.hit("c");
                             return Success();
                           })
                     .build();
  Engine engine;
  RunResult r = engine.run(d, Value::object());
  EXPECT_EQ(r.status, RunStatus::kFailed);
  EXPECT_EQ(log.entries(),
            (std::vector<std::string>{"b done after a failed", "compensate a", "undo b"}));
  EXPECT_EQ(calls.get("c"), 0) << "no new branch starts once the run is failing";
  EXPECT_EQ(r.step("b")->status, StepStatus::kUndone);
  EXPECT_EQ(r.step("c")->status, StepStatus::kPending);
}

// Observers run outside the run's lock: a slow observer must not stall sibling branches. Here
// the observer of a's failure waits for b to complete, which needs the lock to be recorded.
TEST(Parallel, ObserversRunWithoutTheRunLock) {
  Signal a_fail_seen, b_complete;
  struct Blocking : Observer {
    Signal& fail_seen;
    Signal& b_complete;
    bool saw_b = false;
    Blocking(Signal& f, Signal& b) : fail_seen(f), b_complete(b) {}
    void on_step_fail(const EventContext& c, const std::string&) override {
      if (c.step != "a") return;
      fail_seen.notify();
      saw_b = b_complete.wait();
    }
  };
  auto blocking = std::make_shared<Blocking>(a_fail_seen, b_complete);
  Definition d = Builder("Branches")
                     .max_concurrency(2)
                     .observe(blocking)
                     .observe(std::make_shared<SignalOn>("step_complete", "b", b_complete))
                     .step("a", [](const Args&) { return Failure("boom", false); })
                     .step("b",
                           [&](const Args&) {
                             a_fail_seen.wait();
                             return Success();
                           })
                     .build();
  Engine engine;
  RunResult r = engine.run(d, Value::object());
  EXPECT_EQ(r.status, RunStatus::kFailed);
  EXPECT_TRUE(blocking->saw_b) << "b could not complete while a's step_fail observer ran";
}

// Two branches: "a" fails its first attempt (every one unless `recovers`) and is retried after
// 100 ms, `a_retry` signalled when its retry is scheduled; "b" is the caller's to add.
Builder retrying_a(Journal& log, Signal& a_retry, bool recovers, int attempts) {
  Builder b("Retrying");
  b.max_concurrency(2)
      .observe(std::make_shared<SignalOn>("step_retry", "a", a_retry))
      .step("a",
            [&log, recovers](const Args&, StepContext& ctx) {
              log.add("a#" + std::to_string(ctx.attempt()));
              return ctx.attempt() == 1 || !recovers ? Failure("flaky") : Success("a");
            })
      .retries(fixed_backoff(attempts, milliseconds(100)));
  return b;
}

TEST(Parallel, BranchWaitingForItsRetryWaitsBesideARunningSibling) {
  auto clock = manual_clock();
  Signal a_retry;
  Journal log;
  Definition d = retrying_a(log, a_retry, /*recovers=*/true, 2)
                     .step("b",
                           [&](const Args&) {
                             bool seen = a_retry.wait();
                             log.add(seen ? "b after a's retry was scheduled" : "b gave up");
                             return Success("b");
                           })
                     .build();
  Engine engine(with_clock(clock));
  RunResult r = engine.run(d, Value::object());
  ASSERT_TRUE(r.ok()) << (r.error ? r.error->message : "");
  EXPECT_EQ(r.value, (Value{{"a", "a"}, {"b", "b"}}));
  EXPECT_EQ(log.count("a#1"), 1);
  EXPECT_EQ(log.count("a#2"), 1);
  EXPECT_EQ(log.count("b after a's retry was scheduled"), 1);
  EXPECT_THAT(clock->sleeps(), ElementsAre(milliseconds(100)));
  EXPECT_EQ(r.step("a")->attempts, 2);
}

// Manual time whose backoffs wait to be woken: `backing_off` is signalled once a retry waits
// beside its siblings, and the wait ends only when the run stops it (or after kSafetyBound, as
// if it had run to its deadline).
class HeldBackoffClock final : public Clock {
 public:
  Signal backing_off;
  TimePoint now() const override { return manual_.now(); }
  void sleep_until(TimePoint deadline) override { manual_.sleep_until(deadline); }
  bool wait_until(TimePoint deadline, std::stop_token stop) override {
    return manual_.wait_until(deadline, stop);
  }
  bool backoff_until(TimePoint deadline, std::stop_token stop) override {
    backing_off.notify();
    std::mutex mu;
    std::condition_variable_any woken;
    std::unique_lock lock(mu);
    woken.wait_for(lock, stop, kSafetyBound, [] { return false; });
    if (stop.stop_requested()) return false;
    manual_.sleep_until(deadline);
    return true;
  }
  std::vector<Duration> sleeps() const { return manual_.sleeps(); }

 private:
  ManualClock manual_;
};

// A branch waiting for its retry when a sibling fails for good gets no further attempt: its
// wait ends there, its last attempt failed, so it is filed failed and compensated with the rest
// (step machine: retry_scheduled, fail, failed). "b" fails only once "a" waits for its retry.
TEST(Parallel, BranchWaitingForItsRetryFailsWhenASiblingFailsForGood) {
  auto clock = std::make_shared<HeldBackoffClock>();
  Signal a_retry;
  Journal log;
  Definition d =
      retrying_a(log, a_retry, /*recovers=*/false, 3)
          .compensate([&](const std::string& error, const Args&, StepContext&) {
            log.add("compensate a (" + error + ")");
            return Success();
          })
          .step("b",
                [&](const Args&) {
                  log.add(clock->backing_off.wait() ? "b after a began waiting" : "b gave up");
                  return Failure("b is down", false);
                })
          .build();
  EngineOptions options;
  options.clock = clock;
  Engine engine(options);
  RunResult r = engine.run(d, Value::object());
  EXPECT_EQ(r.status, RunStatus::kFailed);
  ASSERT_TRUE(r.error);
  EXPECT_EQ(r.error->step, "b");
  EXPECT_EQ(log.count("b after a began waiting"), 1);
  EXPECT_EQ(log.count("a#1"), 1);
  EXPECT_EQ(log.count("a#2"), 0) << "no retry starts once the run is failing";
  EXPECT_EQ(log.count("compensate a (flaky)"), 1);
  EXPECT_EQ(r.step("a")->status, StepStatus::kCompensated);
  EXPECT_EQ(r.step("a")->attempts, 1);
  EXPECT_THAT(clock->sleeps(), IsEmpty()) << "the failing run did not wait out a's backoff";
}

TEST(Parallel, ComposedChildrenRunInParallelBranches) {
  Rendezvous both(2);
  Definition child =
      Builder("Leg")
          .input("n", integer())
          .step("go",
                [&](const Args& a) {
                  return both.arrive_and_wait() ? Success(a["n"]) : Failure("alone", false);
                })
          .returns("go")
          .build();
  Definition d = Builder("Trip")
                     .max_concurrency(2)
                     .compose("out", child)
                     .argument("n", value(1))
                     .compose("back", child)
                     .argument("n", value(2))
                     .build();
  Engine engine;
  RunResult r = engine.run(d, Value::object());
  ASSERT_TRUE(r.ok()) << (r.error ? r.error->message : "");
  EXPECT_EQ(r.value, (Value{{"out", 1}, {"back", 2}}));
}
