// Step timeouts: once the (injected) clock passes a step's deadline its stop_token is
// signalled, and the attempt is a retryable timeout failure when the body returns.
//
// The bodies below move the ManualClock past their own deadline and then wait on the token.
// That wait is bounded by kSafetyBound only so that a broken engine fails instead of hanging;
// with a working engine the token is already signalled or is signalled at once.
#include <condition_variable>
#include <mutex>
#include <stop_token>

#include "unit/engine_test_support.hpp"

using namespace reactor;
using namespace reactor_test;
using std::chrono::milliseconds;
using std::chrono::seconds;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

namespace {

// Waits on the step's stop_token; true when it was signalled (false: the safety bound ran out).
bool wait_for_cancellation(const StepContext& ctx) {
  std::mutex mu;
  std::condition_variable_any cv;
  std::unique_lock lock(mu);
  std::stop_token token = ctx.stop_token();
  cv.wait_for(lock, token, kSafetyBound, [] { return false; });
  return token.stop_requested();
}

struct Slow {
  std::shared_ptr<ManualClock> clock = manual_clock();
  Journal log;
  int slow_attempts = 1;  // attempts that overrun their deadline

  Definition saga(RetryPolicy policy) {
    return Builder("Slow")
        .step("fetch",
              [this](const Args&, StepContext& ctx) {
                const std::string n = std::to_string(ctx.attempt());
                if (ctx.attempt() > slow_attempts) {
                  log.add("fetch#" + n + " fast");
                  return Success("fresh");
                }
                clock->advance(seconds(10));  // the 5 s deadline passes
                log.add("fetch#" + n +
                        (wait_for_cancellation(ctx) ? " cancelled" : " NOT cancelled"));
                return Success("too late");  // overridden: the attempt timed out
              })
        .timeout(seconds(5))
        .retries(policy)
        .compensate([this](const std::string& error, const Args&, StepContext&) {
          log.add("compensate fetch (" + error + ")");
          return Success();
        })
        .returns("fetch")
        .build();
  }
};

}  // namespace

TEST(Timeout, OverrunningStepSeesItsTokenSignalledAndFailsWithRetryableTimeout) {
  Slow s;
  Engine engine(with_clock(s.clock));
  RunResult r = engine.run(s.saga(RetryPolicy()), Value::object());
  EXPECT_EQ(r.status, RunStatus::kFailed);
  ASSERT_TRUE(r.error);
  EXPECT_EQ(r.error->kind, ErrorKind::kTimeout);
  EXPECT_TRUE(r.error->retryable);
  EXPECT_EQ(r.error->step, "fetch");
  EXPECT_EQ(r.error->attempts, 1);
  EXPECT_THAT(r.error->message, HasSubstr("timed out after 5000 ms"));
  // The body started, so the timed-out step is compensated.
  EXPECT_EQ(s.log.entries(),
            (std::vector<std::string>{"fetch#1 cancelled",
                                      "compensate fetch (timed out after 5000 ms)"}));
}

TEST(Timeout, TimedOutAttemptIsRetried) {
  Slow s;
  Engine engine(with_clock(s.clock));
  RunResult r = engine.run(s.saga(fixed_backoff(3, seconds(1))), Value::object());
  ASSERT_TRUE(r.ok()) << (r.error ? r.error->message : "");
  EXPECT_EQ(r.value, "fresh");
  EXPECT_EQ(s.log.entries(), (std::vector<std::string>{"fetch#1 cancelled", "fetch#2 fast"}));
  EXPECT_EQ(r.step("fetch")->attempts, 2);
  EXPECT_EQ(r.trace_summary(), "ran fetch, fetch");
  EXPECT_EQ(r.trace[0].outcome, "failure");
  EXPECT_THAT(r.trace[0].message, HasSubstr("timed out"));
  EXPECT_EQ(r.trace[1].outcome, "success");
  EXPECT_THAT(s.clock->sleeps(), ElementsAre(seconds(1)));
}

TEST(Timeout, EveryAttemptTimingOutEndsAsTimeoutAfterTheLast) {
  Slow s;
  s.slow_attempts = 2;
  Engine engine(with_clock(s.clock));
  RunResult r = engine.run(s.saga(fixed_backoff(2, seconds(1))), Value::object());
  EXPECT_EQ(r.status, RunStatus::kFailed);
  ASSERT_TRUE(r.error);
  EXPECT_EQ(r.error->kind, ErrorKind::kTimeout);
  EXPECT_EQ(r.error->attempts, 2);
  EXPECT_EQ(s.log.count("fetch#1 cancelled"), 1);
  EXPECT_EQ(s.log.count("fetch#2 cancelled"), 1);
  EXPECT_EQ(s.log.entries().back(), "compensate fetch (timed out after 5000 ms)");
}

TEST(Timeout, StepFinishingBeforeItsDeadlineIsNotCancelled) {
  auto clock = manual_clock();
  bool cancelled = true;
  Definition d = Builder("Quick")
                     .step("fetch",
                           [&](const Args&, StepContext& ctx) {
                             clock->advance(seconds(4));  // within the 5 s limit
                             cancelled = ctx.stop_token().stop_requested();
                             return Success("ok");
                           })
                     .timeout(seconds(5))
                     .returns("fetch")
                     .build();
  Engine engine(with_clock(clock));
  RunResult r = engine.run(d, Value::object());
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.value, "ok");
  EXPECT_FALSE(cancelled);
}

TEST(Timeout, StepWithoutTimeoutGetsATokenThatCannotBeSignalled) {
  auto clock = manual_clock();
  bool stop_possible = true;
  Definition d = Builder("NoLimit")
                     .step("fetch",
                           [&](const Args&, StepContext& ctx) {
                             clock->advance(std::chrono::hours(24));
                             stop_possible = ctx.stop_token().stop_possible();
                             return Success();
                           })
                     .build();
  Engine engine(with_clock(clock));
  RunResult r = engine.run(d, Value::object());
  EXPECT_TRUE(r.ok());
  EXPECT_FALSE(stop_possible);
}

TEST(Timeout, TimeoutIsMeasuredOnTheInjectedClockFromTheAttemptStart) {
  // The clock moves 3 s during the first step; the second step's 5 s budget starts when it
  // starts, so moving 4 s inside it is still in time.
  auto clock = manual_clock();
  bool cancelled = true;
  Definition d = Builder("Budget")
                     .step("first",
                           [&](const Args&) {
                             clock->advance(seconds(3));
                             return Success();
                           })
                     .step("second",
                           [&](const Args&, StepContext& ctx) {
                             clock->advance(seconds(4));
                             cancelled = ctx.stop_token().stop_requested();
                             return Success();
                           })
                     .wait_for("first")
                     .timeout(seconds(5))
                     .build();
  Engine engine(with_clock(clock));
  RunResult r = engine.run(d, Value::object());
  EXPECT_TRUE(r.ok());
  EXPECT_FALSE(cancelled);
}
