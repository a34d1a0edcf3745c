// RunResult of real runs: JSON round trip with a schema version; unknown reactor names and
// resuming on a changed definition come back as typed errors with no step run.
#include "unit/engine_test_support.hpp"

using namespace reactor;
using namespace reactor_test;
using std::chrono::milliseconds;
using ::testing::HasSubstr;

namespace {

struct Calls {
  Counters c;
};

Definition payment() {
  return Builder("Payment")
      .input("amount", integer())
      .step("charge", [](const Args& a) { return Success(a["amount"]); })
      .undo([](const Value&, const Args&, StepContext&) { return Failure("refund api down"); })
      .returns("charge")
      .build();
}

// reserve -> payment (composed) -> ship (fails after a retry, compensate fails)
Definition rich_failure(Calls& calls) {
  return Builder("Rich")
      .input("amount", integer())
      .input("card", string().redacted())
      .step("reserve",
            [&calls](const Args&) {
              calls.c.hit("reserve");
              return Success(Value{{"sku", "A-1"}, {"qty", 2}});
            })
      .undo([](const Value&, const Args&, StepContext&) { return Success(); })
      .compose("payment", payment())
      .argument("amount", input("amount"))
      .wait_for("reserve")
      .step("ship",
            [](const Args&) -> StepResult { throw std::runtime_error("carrier \"X\" down"); })
      .wait_for("payment")
      .retries(fixed_backoff(2, milliseconds(250)))
      .compensate([](const std::string&, const Args&, StepContext&) {
        return Failure("cannot cancel label", false);
      })
      .build();
}

RunResult round_trip(const RunResult& r) {
  const std::string text = to_json(r).dump();
  return run_result_from_json(Value::parse(text));
}

}  // namespace

TEST(RunResultJson, RoundTripOfARealFailedRun) {
  Calls calls;
  Engine engine(with_clock(manual_clock()));
  RunResult r = engine.run(rich_failure(calls), Value{{"amount", 5}, {"card", "4242"}});
  ASSERT_EQ(r.status, RunStatus::kFailed);
  // The run exercised the fields worth round-tripping.
  ASSERT_TRUE(r.error);
  EXPECT_EQ(r.error->kind, ErrorKind::kCompensationFailed);
  EXPECT_EQ(r.error->exception_type, "std::runtime_error");
  EXPECT_EQ(r.error->attempts, 2);
  EXPECT_EQ(r.error->rollback_failures.size(), 2u);
  EXPECT_EQ(r.error->inputs["card"], "[REDACTED]");
  EXPECT_NE(r.step("payment/charge"), nullptr);

  Value j = to_json(r);
  EXPECT_EQ(j["schema_version"], RunResult::kSchemaVersion);
  EXPECT_EQ(j["schema_version"], 1);
  for (const char* key : {"run_id", "reactor", "status", "value", "error", "trace", "steps"}) {
    EXPECT_TRUE(j.contains(key)) << key;
  }
  EXPECT_EQ(j["status"], "failed");
  EXPECT_EQ(j["error"]["kind"], "compensation_failed");
  EXPECT_EQ(round_trip(r), r);
}

TEST(RunResultJson, RoundTripOfCompletedHaltedAndRejectedRuns) {
  Engine engine(with_clock(manual_clock()));
  Definition ok = Builder("Ok")
                      .step("a",
                            [](const Args&) {
                              return Success(Value{{"nested", {1, 2, 3}}});
                            })
                      .step("b", [](const Args&) { return Skipped("nothing to do"); })
                      .build();
  RunResult completed = engine.run(ok, Value::object());
  ASSERT_TRUE(completed.ok());
  EXPECT_EQ(round_trip(completed), completed);

  Definition halting = Builder("Halting")
                           .step("h",
                                 [](const Args&) {
                                   return Halt(Value{{"why", "review"}});
                                 })
                           .build();
  RunResult halted = engine.run(halting, Value::object());
  ASSERT_EQ(halted.status, RunStatus::kHalted);
  EXPECT_EQ(round_trip(halted), halted);

  Definition strict = Builder("Strict")
                          .input("n", integer().min(1))
                          .step("s", [](const Args&) { return Success(); })
                          .build();
  RunResult rejected = engine.run(strict, Value{{"n", 0}});
  ASSERT_TRUE(rejected.error);
  ASSERT_FALSE(rejected.error->validation_errors.empty());
  EXPECT_EQ(round_trip(rejected), rejected);
}

TEST(RunResultJson, StepsListChildrenUnderTheirComposedStep) {
  Calls calls;
  Engine engine(with_clock(manual_clock()));
  RunResult r = engine.run(rich_failure(calls), Value{{"amount", 5}, {"card", "4242"}});
  std::vector<std::string> paths;
  for (const auto& s : r.steps) paths.push_back(s.step);
  EXPECT_EQ(paths, (std::vector<std::string>{"reserve", "payment", "payment/charge", "ship"}));
  EXPECT_EQ(r.step("ship")->attempts, 2);
  EXPECT_EQ(r.step("nope"), nullptr);
}

TEST(RunResultErrors, UnknownReactorNameFailsWithoutRunning) {
  Engine engine;
  RunResult r = engine.run("NoSuchSaga", Value::object());
  EXPECT_EQ(r.status, RunStatus::kFailed);
  ASSERT_TRUE(r.error);
  EXPECT_EQ(r.error->kind, ErrorKind::kUnknownReactor);
  EXPECT_THAT(r.error->message, HasSubstr("'NoSuchSaga'"));
  EXPECT_EQ(r.reactor, "NoSuchSaga");
  EXPECT_TRUE(r.trace.empty());
  EXPECT_TRUE(r.steps.empty());

  // Resuming a stored run whose reactor this engine does not know.
  reactor::Run orphan = engine.create_run(
      Builder("Elsewhere").step("s", [](const Args&) { return Success(); }).build(),
      Value::object(), "orphan-1");
  RunResult resumed = engine.resume(std::move(orphan));
  ASSERT_TRUE(resumed.error);
  EXPECT_EQ(resumed.error->kind, ErrorKind::kUnknownReactor);
  EXPECT_EQ(resumed.run_id, "orphan-1");
}

TEST(RunResultErrors, ResumeOnAChangedDefinitionFailsWithDefinitionChanged) {
  Calls calls;
  auto v1 = [&](bool extra_step) {
    Builder b("Evolving");
    b.step("a",
           [&calls](const Args&) {
             calls.c.hit("a");
             return Success();
           })
        .step("b",
              [&calls](const Args&) {
                calls.c.hit("b");
                return Success();
              })
        .wait_for("a");
    if (extra_step) b.step("c", [](const Args&) { return Success(); }).wait_for("b");
    return b.build();
  };
  std::optional<Value> after_a;
  RunOptions opts;
  opts.run_id = "evolving-1";
  opts.on_checkpoint = [&](const reactor::Run& root) {
    if (!after_a && root.steps[0].status == StepStatus::kCompleted) after_a = run_to_json(root);
    return Status::Ok();
  };
  Engine(with_clock(manual_clock())).run(v1(false), Value::object(), opts);
  ASSERT_TRUE(after_a);
  calls.c.reset();

  Definition v2 = v1(true);
  ASSERT_NE(v2.fingerprint(), v1(false).fingerprint());
  Engine fresh(with_clock(manual_clock()));
  RunResult r = fresh.resume(v2, run_from_json(*after_a));
  EXPECT_EQ(r.status, RunStatus::kFailed);
  ASSERT_TRUE(r.error);
  EXPECT_EQ(r.error->kind, ErrorKind::kDefinitionChanged);
  EXPECT_EQ(r.run_id, "evolving-1");
  EXPECT_THAT(r.error->message, HasSubstr("Evolving"));
  EXPECT_TRUE(calls.c.all().empty()) << "no step may run on a changed graph";

  // By name, through the registry, the same.
  fresh.registry().add(v2);
  RunResult by_name = fresh.resume(run_from_json(*after_a));
  ASSERT_TRUE(by_name.error);
  EXPECT_EQ(by_name.error->kind, ErrorKind::kDefinitionChanged);

  // The same graph with different step code is not a change: the run resumes after "a".
  Engine other(with_clock(manual_clock()));
  RunResult resumed = other.resume(v1(false), run_from_json(*after_a));
  EXPECT_TRUE(resumed.ok());
  EXPECT_EQ(calls.c.get("a"), 0);
  EXPECT_EQ(calls.c.get("b"), 1);
}
