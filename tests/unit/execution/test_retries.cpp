// Retries on the injected clock: exact backoff waits, the max_delay cap, seeded jitter, the
// retry veto, and compensation exactly once after the last attempt. No test sleeps: the
// ManualClock jumps to each deadline and records the wait.
#include "unit/engine_test_support.hpp"

using namespace reactor;
using namespace reactor_test;
using std::chrono::milliseconds;
using ::testing::ElementsAre;
using ::testing::IsEmpty;

namespace {

std::vector<std::int64_t> in_ms(const std::vector<Duration>& ds) {
  std::vector<std::int64_t> out;
  for (auto d : ds) out.push_back(std::chrono::duration_cast<milliseconds>(d).count());
  return out;
}

struct Flaky {
  Journal log;
  int fail_until = 1'000;  // attempts before this one fail

  Definition saga(RetryPolicy policy, bool with_later_failure = false) {
    Builder b("Flaky");
    b.step("pay",
           [this](const Args&, StepContext& ctx) {
             log.add("pay#" + std::to_string(ctx.attempt()));
             if (ctx.attempt() < fail_until) {
               return Failure("attempt " + std::to_string(ctx.attempt()) + " failed");
             }
             return Success("paid");
           })
        .retries(policy)
        .compensate([this](const std::string& error, const Args&, StepContext&) {
          log.add("compensate pay (" + error + ")");
          return Success();
        })
        .undo([this](const Value&, const Args&, StepContext&) {
          log.add("undo pay");
          return Success();
        });
    if (with_later_failure) {
      b.step("ship", [this](const Args&) {
         log.add("ship");
         return Failure("no carrier", false);
       }).wait_for("pay");
    }
    return b.build();
  }
};

}  // namespace

TEST(Retries, FixedBackoffWaitsTheBaseDelayEachTime) {
  auto clock = manual_clock();
  const TimePoint start = clock->now();
  Flaky f;
  f.fail_until = 4;
  Engine engine(with_clock(clock));
  RunResult r = engine.run(f.saga(fixed_backoff(4, milliseconds(100))), Value::object());
  ASSERT_TRUE(r.ok()) << r.trace_summary();
  EXPECT_THAT(in_ms(clock->sleeps()), ElementsAre(100, 100, 100));
  EXPECT_EQ(clock->now() - start, milliseconds(300));
  EXPECT_EQ(r.trace_summary(), "ran pay, pay, pay, pay");
  EXPECT_EQ(r.step("pay")->attempts, 4);
}

TEST(Retries, LinearBackoffGrowsByTheBaseDelay) {
  auto clock = manual_clock();
  Flaky f;
  f.fail_until = 4;
  Engine engine(with_clock(clock));
  RunResult r = engine.run(f.saga(linear_backoff(4, milliseconds(100))), Value::object());
  ASSERT_TRUE(r.ok());
  EXPECT_THAT(in_ms(clock->sleeps()), ElementsAre(100, 200, 300));
}

TEST(Retries, ExponentialBackoffDoubles) {
  auto clock = manual_clock();
  Flaky f;
  f.fail_until = 5;
  Engine engine(with_clock(clock));
  RunResult r = engine.run(f.saga(exponential_backoff(5, milliseconds(100))), Value::object());
  ASSERT_TRUE(r.ok());
  EXPECT_THAT(in_ms(clock->sleeps()), ElementsAre(100, 200, 400, 800));
}

TEST(Retries, MaxDelayCapsEveryWait) {
  auto clock = manual_clock();
  Flaky f;
  f.fail_until = 6;
  Engine engine(with_clock(clock));
  RunResult r =
      engine.run(f.saga(exponential_backoff(6, milliseconds(100)).max_delay(milliseconds(250))),
                 Value::object());
  ASSERT_TRUE(r.ok());
  EXPECT_THAT(in_ms(clock->sleeps()), ElementsAre(100, 200, 250, 250, 250));
}

TEST(Retries, JitterStaysWithinBoundsAndIsReproducibleWithASeed) {
  auto waits_with_seed = [](std::uint64_t seed) {
    auto clock = manual_clock();
    EngineOptions o = with_clock(clock);
    o.random_seed = seed;
    Engine engine(o);
    Flaky f;  // always fails
    RunResult r = engine.run(f.saga(fixed_backoff(9, milliseconds(100)).jitter(milliseconds(50))),
                             Value::object());
    EXPECT_EQ(r.status, RunStatus::kFailed);
    return clock->sleeps();
  };
  const std::vector<Duration> first = waits_with_seed(42);
  ASSERT_EQ(first.size(), 8u);
  bool any_jitter = false;
  for (Duration d : first) {
    EXPECT_GE(d, milliseconds(100));
    EXPECT_LE(d, milliseconds(150));
    any_jitter = any_jitter || d > milliseconds(100);
  }
  EXPECT_TRUE(any_jitter) << "jitter was never applied";
  EXPECT_EQ(waits_with_seed(42), first) << "the same seed must give the same waits";
  EXPECT_NE(waits_with_seed(43), first);
}

TEST(Retries, NonRetryableFailureVetoesFurtherAttempts) {
  auto clock = manual_clock();
  Counters calls;
  Definition d = Builder("Pay")
                     .step("charge",
                           [&](const Args&, StepContext& ctx) {
                             calls.hit("charge");
                             // The first failure is transient; the second is final.
                             return Failure(ctx.attempt() == 1 ? "timeout" : "card declined",
                                            ctx.attempt() == 1);
                           })
                     .retries(fixed_backoff(5, milliseconds(100)))
                     .build();
  Engine engine(with_clock(clock));
  RunResult r = engine.run(d, Value::object());
  EXPECT_EQ(r.status, RunStatus::kFailed);
  EXPECT_EQ(calls.get("charge"), 2);
  EXPECT_THAT(in_ms(clock->sleeps()), ElementsAre(100));
  ASSERT_TRUE(r.error);
  EXPECT_FALSE(r.error->retryable);
  EXPECT_EQ(r.error->attempts, 2);
  EXPECT_EQ(r.error->message, "card declined");
}

TEST(Retries, VetoOnTheFirstAttemptMeansNoWaitAtAll) {
  auto clock = manual_clock();
  Counters calls;
  Definition d = Builder("Pay")
                     .step("charge",
                           [&](const Args&) {
                             calls.hit("charge");
                             return Failure("card declined", false);
                           })
                     .retries(exponential_backoff(5, milliseconds(100)))
                     .build();
  Engine engine(with_clock(clock));
  RunResult r = engine.run(d, Value::object());
  EXPECT_EQ(calls.get("charge"), 1);
  EXPECT_THAT(clock->sleeps(), IsEmpty());
  ASSERT_TRUE(r.error);
  EXPECT_EQ(r.error->attempts, 1);
}

TEST(Retries, DefaultPolicyMakesOneAttempt) {
  auto clock = manual_clock();
  Flaky f;
  Engine engine(with_clock(clock));
  RunResult r = engine.run(f.saga(RetryPolicy()), Value::object());
  EXPECT_EQ(r.status, RunStatus::kFailed);
  EXPECT_EQ(f.log.count("pay#1"), 1);
  EXPECT_EQ(f.log.count("pay#2"), 0);
  EXPECT_THAT(clock->sleeps(), IsEmpty());
}

TEST(Retries, CompensationRunsExactlyOnceAfterTheLastAttempt) {
  auto clock = manual_clock();
  Flaky f;  // always fails
  Engine engine(with_clock(clock));
  RunResult r = engine.run(f.saga(fixed_backoff(3, milliseconds(10))), Value::object());
  EXPECT_EQ(r.status, RunStatus::kFailed);
  EXPECT_EQ(f.log.entries(), (std::vector<std::string>{"pay#1", "pay#2", "pay#3",
                                                       "compensate pay (attempt 3 failed)"}));
  EXPECT_EQ(r.trace_summary(), "ran pay, pay, pay; compensated pay");
  ASSERT_TRUE(r.error);
  EXPECT_EQ(r.error->attempts, 3);
  EXPECT_EQ(r.error->message, "attempt 3 failed");
}

TEST(Retries, ALaterSuccessIsNeverCompensatedOnlyUndone) {
  auto clock = manual_clock();
  Flaky f;
  f.fail_until = 3;
  Engine engine(with_clock(clock));
  RunResult r = engine.run(f.saga(fixed_backoff(3, milliseconds(10)), true), Value::object());
  EXPECT_EQ(r.status, RunStatus::kFailed);
  EXPECT_EQ(f.log.entries(),
            (std::vector<std::string>{"pay#1", "pay#2", "pay#3", "ship", "undo pay"}));
  EXPECT_EQ(r.step("pay")->status, StepStatus::kUndone);
  ASSERT_TRUE(r.error);
  EXPECT_EQ(r.error->step, "ship");
}

TEST(Retries, AttemptsAreCountedInContextRecordsTraceAndEvents) {
  auto clock = manual_clock();
  const std::int64_t t0 = to_unix_ms(clock->now());
  auto observer = std::make_shared<RecordingObserver>();
  std::vector<Duration> retry_delays;
  struct DelayObserver : Observer {
    std::vector<Duration>& out;
    explicit DelayObserver(std::vector<Duration>& o) : out(o) {}
    void on_step_retry(const EventContext&, Duration delay, const std::string&) override {
      out.push_back(delay);
    }
  };
  EngineOptions o = with_clock(clock);
  o.observers = {observer, std::make_shared<DelayObserver>(retry_delays)};
  Flaky f;
  f.fail_until = 3;
  Engine engine(o);
  RunResult r = engine.run(f.saga(linear_backoff(3, milliseconds(100))), Value::object());
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(f.log.entries(), (std::vector<std::string>{"pay#1", "pay#2", "pay#3"}));
  EXPECT_EQ(r.step("pay")->attempts, 3);
  ASSERT_EQ(r.trace.size(), 3u);
  for (int k = 0; k < 3; ++k) EXPECT_EQ(r.trace[k].attempt, k + 1);
  // Each attempt is stamped with injected-clock time: 0, +100 ms, +100+200 ms.
  EXPECT_EQ(r.trace[0].at_ms - t0, 0);
  EXPECT_EQ(r.trace[1].at_ms - t0, 100);
  EXPECT_EQ(r.trace[2].at_ms - t0, 300);
  EXPECT_THAT(in_ms(retry_delays), ElementsAre(100, 200));
  EXPECT_EQ(observer->events(),
            (std::vector<std::string>{"run_start [Flaky]", "step_start pay#1", "step_retry pay#1",
                                      "step_start pay#2", "step_retry pay#2", "step_start pay#3",
                                      "step_complete(success) pay#3",
                                      "run_complete(completed) [Flaky]"}));
}

// While one step waits for its retry, a ready sibling runs first (in definition order).
TEST(Retries, ReadySiblingRunsWhileAStepWaitsForItsRetry) {
  auto clock = manual_clock();
  Journal log;
  Definition d = Builder("Two")
                     .step("a",
                           [&](const Args&, StepContext& ctx) {
                             log.add("a#" + std::to_string(ctx.attempt()));
                             return ctx.attempt() == 1 ? Failure("flaky") : Success();
                           })
                     .retries(fixed_backoff(2, milliseconds(50)))
                     .step("b",
                           [&](const Args&) {
                             log.add("b");
                             return Success();
                           })
                     .build();
  Engine engine(with_clock(clock));
  RunResult r = engine.run(d, Value::object());
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(log.entries(), (std::vector<std::string>{"a#1", "b", "a#2"}));
  EXPECT_THAT(in_ms(clock->sleeps()), ElementsAre(50));
}
