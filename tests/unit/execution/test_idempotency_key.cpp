// Every step execution gets an idempotency key, "<root run id>:<step path>", stable across
// attempts, rollback actions and resumes, and distinct per step, element and run.
#include <cctype>

#include "unit/engine_test_support.hpp"

using namespace reactor;
using namespace reactor_test;
using ::testing::ElementsAre;

namespace {

struct Keys {
  Journal seen;  // "<action>#<attempt> <key>"

  Definition saga(int fail_attempts) {
    return Builder("Pay")
        .step("charge",
              [this, fail_attempts](const Args&, StepContext& ctx) {
                seen.add("run#" + std::to_string(ctx.attempt()) + " " + ctx.idempotency_key());
                return ctx.attempt() <= fail_attempts ? Failure("gateway timeout") : Success();
              })
        .retries(fixed_backoff(3, std::chrono::seconds(1)))
        .compensate([this](const std::string&, const Args&, StepContext& ctx) {
          seen.add("compensate " + ctx.idempotency_key());
          return Success();
        })
        .undo([this](const Value&, const Args&, StepContext& ctx) {
          seen.add("undo " + ctx.idempotency_key());
          return Success();
        })
        .step("ship", [](const Args&) { return Failure("no carrier", false); })
        .wait_for("charge")
        .build();
  }
};

// xxxxxxxx-xxxx-7xxx-[89ab]xxx-xxxxxxxxxxxx, lower-case hex: a fresh run id (new_run_id).
bool is_uuid_v7(const std::string& s) {
  if (s.size() != 36) return false;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const bool dash = i == 8 || i == 13 || i == 18 || i == 23;
    if (dash != (s[i] == '-')) return false;
    if (!dash &&
        !(std::isdigit(static_cast<unsigned char>(s[i])) || (s[i] >= 'a' && s[i] <= 'f'))) {
      return false;
    }
  }
  return s[14] == '7' && std::string("89ab").find(s[19]) != std::string::npos;
}

}  // namespace

TEST(IdempotencyKey, IsRunIdAndStepPath) {
  Keys k;
  Engine engine(with_clock(manual_clock()));
  RunOptions opts;
  opts.run_id = "order-42";
  engine.run(k.saga(0), Value::object(), opts);
  EXPECT_EQ(k.seen.entries(),
            (std::vector<std::string>{"run#1 order-42:charge", "undo order-42:charge"}));
}

TEST(IdempotencyKey, UsesTheGeneratedRunIdAndDiffersBetweenRuns) {
  Keys k;
  Engine engine(with_clock(manual_clock()));
  RunResult first = engine.run(k.saga(0), Value::object());
  RunResult second = engine.run(k.saga(0), Value::object());
  EXPECT_TRUE(is_uuid_v7(first.run_id)) << first.run_id;
  EXPECT_NE(first.run_id, second.run_id);
  auto seen = k.seen.entries();
  ASSERT_EQ(seen.size(), 4u);
  EXPECT_EQ(seen[0], "run#1 " + first.run_id + ":charge");
  EXPECT_EQ(seen[2], "run#1 " + second.run_id + ":charge");
}

TEST(IdempotencyKey, StableAcrossRetriesAndRollbackActions) {
  Keys k;
  auto clock = manual_clock();
  Engine engine(with_clock(clock));
  RunOptions opts;
  opts.run_id = "r";
  engine.run(k.saga(3), Value::object(), opts);  // every attempt fails
  EXPECT_EQ(k.seen.entries(), (std::vector<std::string>{"run#1 r:charge", "run#2 r:charge",
                                                        "run#3 r:charge", "compensate r:charge"}));
}

TEST(IdempotencyKey, StableAcrossAResumeInAFreshEngine) {
  Keys k;
  std::vector<Value> snaps;
  RunOptions opts;
  opts.run_id = "durable-1";
  opts.on_checkpoint = [&](const reactor::Run& root) {
    snaps.push_back(run_to_json(root));
    return Status::Ok();
  };
  Engine(with_clock(manual_clock())).run(k.saga(1), Value::object(), opts);
  // The snapshot taken when the first attempt's retry was scheduled.
  std::optional<Value> retry_snapshot;
  for (const auto& s : snaps) {
    if (s["steps"][0]["status"] == "retry_scheduled") retry_snapshot = s;
  }
  ASSERT_TRUE(retry_snapshot);
  k.seen.clear();
  Engine fresh(with_clock(manual_clock()));
  fresh.resume(k.saga(1), run_from_json(*retry_snapshot));
  EXPECT_EQ(k.seen.entries(),
            (std::vector<std::string>{"run#2 durable-1:charge", "undo durable-1:charge"}));
}

TEST(IdempotencyKey, DistinctPerStepComposedChildAndMapElement) {
  Journal keys;
  auto record = [&](const Args&, StepContext& ctx) {
    keys.add(ctx.idempotency_key());
    return Success();
  };
  Definition leaf = Builder("Leaf").input("item", any().optional()).step("call", record).build();
  Definition d = Builder("Tree")
                     .step("call", record)
                     .compose("child", leaf)
                     .map("each", leaf)
                     .source(value(Value::array({"x", "y"})))
                     .argument("item", element("each"))
                     .build();
  Engine engine;
  RunOptions opts;
  opts.run_id = "t";
  ASSERT_TRUE(engine.run(d, Value::object(), opts).ok());
  EXPECT_THAT(keys.entries(),
              ElementsAre("t:call", "t:child/call", "t:each[0]/call", "t:each[1]/call"));
}
