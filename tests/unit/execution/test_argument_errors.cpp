// An argument that cannot be resolved (a throwing transform, a missing path, a map's source
// that is not an array) fails its step before the body starts: the run's error keeps the
// exception's type, no attempt is counted, the trace records the unresolved argument, not a
// run, and the step is neither retried nor compensated; completed steps are undone.
#include <stdexcept>

#include "unit/engine_test_support.hpp"

using namespace reactor;
using namespace reactor_test;
using ::testing::HasSubstr;

namespace {

struct BadCents : std::runtime_error {
  using std::runtime_error::runtime_error;
};

Definition saga(Counters& calls) {
  return Builder("Quote")
      .step("quote",
            [&](const Args&) {
              calls.hit("quote");
              return Success(Value{{"eur", 12}});
            })
      .undo([&](const Value&, const Args&, StepContext&) {
        calls.hit("undo quote");
        return Success();
      })
      .step("charge",
            [&](const Args&) {
              calls.hit("charge");
              return Success();
            })
      .argument("cents", result("quote", "eur").transform([](const Value&) -> Value {
        throw BadCents("no cents today");
      }))
      .retries(fixed_backoff(3, std::chrono::milliseconds(1)))
      .compensate([&](const std::string&, const Args&, StepContext&) {
        calls.hit("compensate charge");
        return Success();
      })
      .build();
}

TEST(ArgumentErrors, AThrowingTransformKeepsItsTypeCountsNoAttemptAndIsTracedAsUnresolved) {
  Counters calls;
  Engine engine;
  RunResult r = engine.run(saga(calls), Value::object());
  ASSERT_EQ(r.status, RunStatus::kFailed);
  ASSERT_TRUE(r.error);
  EXPECT_EQ(r.error->kind, ErrorKind::kArgumentResolution);
  EXPECT_EQ(r.error->step, "charge");
  EXPECT_THAT(r.error->exception_type, HasSubstr("BadCents"));
  EXPECT_THAT(r.error->message, HasSubstr("no cents today"));
  EXPECT_EQ(r.error->attempts, 0);
  EXPECT_FALSE(r.error->retryable);
  ASSERT_NE(r.step("charge"), nullptr);
  EXPECT_EQ(r.step("charge")->attempts, 0);
  EXPECT_EQ(r.trace_summary(), "ran quote; could not resolve charge; undid quote");
  ASSERT_EQ(r.trace.size(), 3u);
  EXPECT_EQ(r.trace[1].type, TraceType::kUnresolved);
  EXPECT_EQ(r.trace[1].attempt, 0);
  EXPECT_EQ(calls.get("charge"), 0);
  EXPECT_EQ(calls.get("compensate charge"), 0);  // its body never started
  EXPECT_EQ(calls.get("undo quote"), 1);
}

TEST(ArgumentErrors, AMapWhoseSourceIsNotAnArrayNeverStarts) {
  Definition element =
      Builder("Item").input("x").step("s", [](const Args&) { return Success(); }).build();
  Definition d = Builder("Items")
                     .input("items")
                     .map("each", element)
                     .source(input("items"))
                     .argument("x", reactor::element("each"))
                     .build();
  Engine engine;
  RunResult r = engine.run(d, Value{{"items", "not a list"}});
  ASSERT_TRUE(r.error);
  EXPECT_EQ(r.error->kind, ErrorKind::kArgumentResolution);
  EXPECT_EQ(r.error->attempts, 0);
  EXPECT_EQ(r.trace_summary(), "could not resolve each");
}

}  // namespace
