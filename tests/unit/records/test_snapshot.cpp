#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "reactor/run.hpp"

namespace reactor {
namespace {

StepRecord record(std::string name, StepStatus status, Value result, int attempts,
                  std::uint64_t seq) {
  StepRecord s;
  s.name = std::move(name);
  s.status = status;
  s.result = std::move(result);
  s.attempts = attempts;
  s.completion_seq = seq;
  s.started_at_ms = 1000 + static_cast<std::int64_t>(seq);
  s.finished_at_ms = 2000 + static_cast<std::int64_t>(seq);
  return s;
}

Run child_run(std::string id, std::string path, std::string reactor) {
  reactor::Run run;
  run.id = std::move(id);
  run.reactor = std::move(reactor);
  run.root_id = "root-1";
  run.parent_id = "root-1";
  run.path = std::move(path);
  run.fingerprint = "fp-child";
  run.status = RunStatus::kCompleted;
  run.inputs = {{"amount", 1999}};
  run.created_at_ms = 10;
  run.updated_at_ms = 20;
  return run;
}

// A failed root with every optional field set, a composed child and two map elements, one of
// which composes a grandchild.
Run sample_run() {
  Run root;
  root.id = "root-1";
  root.reactor = "OrderSaga";
  root.root_id = "root-1";
  root.path = "";
  root.fingerprint = "fp-root";
  root.status = RunStatus::kFailed;
  root.inputs = {{"order_id", 42}, {"card", "[REDACTED]"}, {"ratio", 0.25}};
  root.next_completion_seq = 4;
  root.value = nullptr;
  root.failed_step = 3;
  root.created_at_ms = 1'700'000'000'000;
  root.updated_at_ms = 1'700'000'000'500;

  root.steps.push_back(record("reserve", StepStatus::kUndone, {{"reservation", "r-9"}}, 1, 1));

  StepRecord payment = record("payment", StepStatus::kUndone, {{"charge", "c-1"}}, 1, 2);
  Run pay = child_run("child-pay", "payment", "Payments");
  pay.steps.push_back(record("charge", StepStatus::kUndone, {{"id", "c-1"}}, 2, 1));
  pay.next_completion_seq = 2;
  pay.value = {{"charge", "c-1"}};
  payment.children.push_back(pay);
  root.steps.push_back(payment);

  StepRecord items = record("items", StepStatus::kUndone, Value::array({1, 2}), 1, 3);
  for (int i = 0; i < 2; ++i) {
    Run element = child_run("el-" + std::to_string(i), "items[" + std::to_string(i) + "]", "Ship");
    StepRecord ship = record("ship", StepStatus::kCompleted, Value(i), 1, 1);
    if (i == 1) {
      Run grandchild = child_run("gc", "items[1]/label", "Label");
      grandchild.parent_id = "el-1";
      grandchild.steps.push_back(record("print", StepStatus::kCompleted, "ok", 1, 1));
      ship.children.push_back(grandchild);
    }
    element.steps.push_back(ship);
    items.children.push_back(element);
  }
  root.steps.push_back(items);

  StepRecord notify = record("notify", StepStatus::kCompensated, nullptr, 3, 0);
  notify.retry_at_ms = 123456;
  notify.error = "smtp down";
  notify.body_started = true;
  root.steps.push_back(notify);
  root.steps.push_back(record("archive", StepStatus::kPending, nullptr, 0, 0));

  TraceEvent e;
  e.type = TraceType::kRun;
  e.step = "reserve";
  e.attempt = 1;
  e.outcome = "success";
  e.at_ms = 5;
  root.trace.push_back(e);
  e.type = TraceType::kCompensate;
  e.step = "notify";
  e.outcome = "failure";
  e.message = "nope";
  root.trace.push_back(e);

  RunError error;
  error.kind = ErrorKind::kCompensationFailed;
  error.step = "notify";
  error.reactor = "OrderSaga";
  error.exception_type = "std::runtime_error";
  error.message = "smtp down";
  error.details = {{"code", 421}};
  error.attempts = 3;
  error.retryable = false;
  error.validation_errors.push_back({"order_id", "must be an integer"});
  error.rollback_failures.push_back({"notify", "compensate", "raised", "nope"});
  error.inputs = root.inputs;
  root.error = error;
  return root;
}

TEST(RunJsonTest, HasSchemaVersionAndNamedStatuses) {
  const Value j = run_to_json(sample_run());
  EXPECT_EQ(j.at("schema_version"), Run::kSchemaVersion);
  EXPECT_EQ(j.at("status"), "failed");
  EXPECT_EQ(j.at("failed_step"), 3);
  EXPECT_EQ(j.at("steps").at(3).at("status"), "compensated");
  EXPECT_EQ(j.at("error").at("kind"), "compensation_failed");
  EXPECT_EQ(j.at("steps").at(1).at("children").at(0).at("path"), "payment");
  EXPECT_FALSE(j.at("steps").at(1).at("children").at(0).contains("schema_version"));
}

TEST(RunJsonTest, RoundTripIsExact) {
  const reactor::Run original = sample_run();
  const Value first = run_to_json(original);
  const reactor::Run back = run_from_json(first);
  EXPECT_EQ(run_to_json(back), first);
  EXPECT_EQ(run_to_json(back).dump(), first.dump());

  EXPECT_EQ(back.id, "root-1");
  EXPECT_EQ(back.status, RunStatus::kFailed);
  EXPECT_EQ(back.failed_step, std::optional<std::size_t>(3));
  ASSERT_TRUE(back.error.has_value());
  EXPECT_EQ(*back.error, *original.error);
  EXPECT_EQ(back.trace, original.trace);
  ASSERT_EQ(back.steps.size(), 5u);
  EXPECT_EQ(back.steps[3].error, "smtp down");
  EXPECT_TRUE(back.steps[3].body_started);
  EXPECT_EQ(back.steps[3].retry_at_ms, 123456);
  ASSERT_EQ(back.steps[2].children.size(), 2u);
  ASSERT_EQ(back.steps[2].children[1].steps.at(0).children.size(), 1u);
  EXPECT_EQ(back.steps[2].children[1].steps[0].children[0].path, "items[1]/label");
  EXPECT_DOUBLE_EQ(back.inputs.at("ratio").get<double>(), 0.25);
}

TEST(RunJsonTest, RoundTripOfAMinimalRun) {
  reactor::Run run;
  run.id = "x";
  const Value j = run_to_json(run);
  const reactor::Run back = run_from_json(j);
  EXPECT_FALSE(back.error.has_value());
  EXPECT_FALSE(back.failed_step.has_value());
  EXPECT_EQ(back.status, RunStatus::kPending);
  EXPECT_EQ(run_to_json(back), j);
}

TEST(RunJsonTest, SurvivesTextSerialisation) {
  const Value j = run_to_json(sample_run());
  EXPECT_EQ(run_to_json(run_from_json(Value::parse(j.dump()))).dump(), j.dump());
}

TEST(RunJsonTest, NewerOrMissingSchemaVersionIsRejected) {
  Value j = run_to_json(sample_run());
  j["schema_version"] = Run::kSchemaVersion + 1;
  EXPECT_THROW(run_from_json(j), std::invalid_argument);
  j["schema_version"] = 0;
  EXPECT_THROW(run_from_json(j), std::invalid_argument);
  j["schema_version"] = "1";
  EXPECT_THROW(run_from_json(j), std::invalid_argument);
  j.erase("schema_version");
  EXPECT_THROW(run_from_json(j), std::invalid_argument);
}

TEST(RunJsonTest, UnknownVersionMessageNamesIt) {
  Value j = run_to_json(sample_run());
  j["schema_version"] = 7;
  try {
    run_from_json(j);
    FAIL() << "expected std::invalid_argument";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("schema_version 7"), std::string::npos) << e.what();
  }
}

TEST(RunJsonTest, GarbageIsRejectedAsInvalidArgument) {
  const Value good = run_to_json(sample_run());
  EXPECT_THROW(run_from_json(Value(nullptr)), std::invalid_argument);
  EXPECT_THROW(run_from_json(Value("run")), std::invalid_argument);
  EXPECT_THROW(run_from_json(Value::array({1, 2})), std::invalid_argument);

  auto broken = [&good](auto&& mutate) {
    Value j = good;
    mutate(j);
    return j;
  };
  EXPECT_THROW(run_from_json(broken([](Value& j) { j.erase("id"); })), std::invalid_argument);
  EXPECT_THROW(run_from_json(broken([](Value& j) { j["id"] = 5; })), std::invalid_argument);
  EXPECT_THROW(run_from_json(broken([](Value& j) { j["status"] = "exploded"; })),
               std::invalid_argument);
  EXPECT_THROW(run_from_json(broken([](Value& j) { j["steps"] = Value::object(); })),
               std::invalid_argument);
  EXPECT_THROW(run_from_json(broken([](Value& j) { j["steps"][0] = "reserve"; })),
               std::invalid_argument);
  EXPECT_THROW(run_from_json(broken([](Value& j) { j["steps"][0]["status"] = "?"; })),
               std::invalid_argument);
  EXPECT_THROW(
      run_from_json(broken([](Value& j) { j["steps"][1]["children"][0].erase("reactor"); })),
      std::invalid_argument);
  EXPECT_THROW(run_from_json(broken([](Value& j) { j["trace"][0]["type"] = "warp"; })),
               std::invalid_argument);
  EXPECT_THROW(run_from_json(broken([](Value& j) { j["error"]["kind"] = "bad"; })),
               std::invalid_argument);
  EXPECT_THROW(run_from_json(broken([](Value& j) { j["failed_step"] = -1; })),
               std::invalid_argument);
  EXPECT_THROW(run_from_json(broken([](Value& j) { j["next_completion_seq"] = "1"; })),
               std::invalid_argument);
}

}  // namespace
}  // namespace reactor
