#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "reactor/run.hpp"
#include "reactor/run_result.hpp"

namespace reactor {
namespace {

using ::testing::ElementsAre;

StepRecord record(std::string name, StepStatus status, Value result = nullptr, int attempts = 1) {
  StepRecord s;
  s.name = std::move(name);
  s.status = status;
  s.result = std::move(result);
  s.attempts = attempts;
  return s;
}

Run child(std::string path) {
  reactor::Run run;
  run.id = "child-" + path;
  run.path = std::move(path);
  return run;
}

// reserve, payment (compose: fraud (compose: score), charge), items (map of two), notify.
Run tree() {
  Run root;
  root.id = "r-1";
  root.reactor = "OrderSaga";
  root.status = RunStatus::kCompleted;
  root.value = {{"shipped", true}};
  root.steps.push_back(record("reserve", StepStatus::kCompleted, "res-1"));

  StepRecord payment = record("payment", StepStatus::kCompleted);
  Run pay = child("payment");
  StepRecord fraud = record("fraud", StepStatus::kCompleted);
  Run fraud_run = child("payment/fraud");  // full path inside the root
  fraud_run.steps.push_back(record("score", StepStatus::kCompleted, 0.1));
  fraud.children.push_back(fraud_run);
  pay.steps.push_back(fraud);
  pay.steps.push_back(record("charge", StepStatus::kCompleted, "ch-1", 3));
  payment.children.push_back(pay);
  root.steps.push_back(payment);

  StepRecord items = record("items", StepStatus::kCompleted);
  for (int i = 0; i < 2; ++i) {
    Run element = child("items[" + std::to_string(i) + "]");
    element.steps.push_back(record("ship", StepStatus::kCompleted, i));
    items.children.push_back(element);
  }
  root.steps.push_back(items);
  root.steps.push_back(record("notify", StepStatus::kPending, nullptr, 0));

  TraceEvent e;
  e.step = "reserve";
  e.outcome = "success";
  e.attempt = 1;
  root.trace.push_back(e);
  return root;
}

std::vector<std::string> paths(const RunResult& r) {
  std::vector<std::string> out;
  for (const StepOutcome& s : r.steps) out.push_back(s.step);
  return out;
}

TEST(RunResultTest, CopiesTheRunHeader) {
  const reactor::Run run = tree();
  const RunResult r = make_run_result(run);
  EXPECT_EQ(r.run_id, "r-1");
  EXPECT_EQ(r.reactor, "OrderSaga");
  EXPECT_EQ(r.status, RunStatus::kCompleted);
  EXPECT_TRUE(r.ok());
  EXPECT_EQ(r.value, (Value{{"shipped", true}}));
  EXPECT_FALSE(r.error.has_value());
  EXPECT_EQ(r.trace, run.trace);
  EXPECT_EQ(r.trace_summary(), "ran reserve");
}

TEST(RunResultTest, ChildrenFollowTheirParentStepUnderTheirPath) {
  const RunResult r = make_run_result(tree());
  EXPECT_THAT(paths(r),
              ElementsAre("reserve", "payment", "payment/fraud", "payment/fraud/score",
                          "payment/charge", "items", "items[0]/ship", "items[1]/ship", "notify"));
}

TEST(RunResultTest, BareChildPathsAreNestedUnderTheirParent) {
  reactor::Run run = tree();
  run.steps[1].children[0].steps[0].children[0].path = "fraud";
  EXPECT_EQ(paths(make_run_result(run)), paths(make_run_result(tree())));
}

TEST(RunResultTest, StepLooksUpByPath) {
  const RunResult r = make_run_result(tree());
  const StepOutcome* charge = r.step("payment/charge");
  ASSERT_NE(charge, nullptr);
  EXPECT_EQ(charge->status, StepStatus::kCompleted);
  EXPECT_EQ(charge->result, "ch-1");
  EXPECT_EQ(charge->attempts, 3);
  ASSERT_NE(r.step("items[1]/ship"), nullptr);
  EXPECT_EQ(r.step("items[1]/ship")->result, 1);
  EXPECT_EQ(r.step("notify")->status, StepStatus::kPending);
  EXPECT_EQ(r.step("charge"), nullptr);
  EXPECT_EQ(r.step("nope"), nullptr);
}

TEST(RunResultTest, FailedResultIsNotOk) {
  reactor::Run run = tree();
  run.status = RunStatus::kFailed;
  RunError error;
  error.kind = ErrorKind::kStepFailed;
  error.step = "payment/charge";
  error.message = "declined";
  run.error = error;
  const RunResult r = make_run_result(run);
  EXPECT_FALSE(r.ok());
  ASSERT_TRUE(r.error.has_value());
  EXPECT_EQ(r.error->step, "payment/charge");
}

TEST(RunResultTest, JsonShape) {
  const Value j = to_json(make_run_result(tree()));
  EXPECT_EQ(j.at("schema_version"), RunResult::kSchemaVersion);
  EXPECT_EQ(j.at("run_id"), "r-1");
  EXPECT_EQ(j.at("reactor"), "OrderSaga");
  EXPECT_EQ(j.at("status"), "completed");
  EXPECT_TRUE(j.at("error").is_null());
  EXPECT_EQ(j.at("steps").at(4), (Value{{"step", "payment/charge"},
                                        {"status", "completed"},
                                        {"result", "ch-1"},
                                        {"attempts", 3}}));
  EXPECT_EQ(j.at("trace").size(), 1u);
}

TEST(RunResultTest, JsonRoundTripIsEqual) {
  reactor::Run run = tree();
  run.status = RunStatus::kFailed;
  RunError error;
  error.kind = ErrorKind::kOutputInvalid;
  error.step = "items[1]/ship";
  error.validation_errors.push_back({"ship", "must be an object"});
  error.rollback_failures.push_back({"reserve", "undo", "returned_failure", "gone"});
  error.details = Value::array({1, "two"});
  run.error = error;
  const RunResult r = make_run_result(run);
  const RunResult back = run_result_from_json(to_json(r));
  EXPECT_EQ(back, r);
  EXPECT_EQ(run_result_from_json(Value::parse(to_json(r).dump())), r);
}

TEST(RunResultTest, UnknownVersionOrShapeIsRejected) {
  Value j = to_json(make_run_result(tree()));
  Value newer = j;
  newer["schema_version"] = RunResult::kSchemaVersion + 1;
  EXPECT_THROW(run_result_from_json(newer), std::invalid_argument);
  Value missing = j;
  missing.erase("schema_version");
  EXPECT_THROW(run_result_from_json(missing), std::invalid_argument);
  Value bad_status = j;
  bad_status["steps"][0]["status"] = "weird";
  EXPECT_THROW(run_result_from_json(bad_status), std::invalid_argument);
  Value bad_steps = j;
  bad_steps["steps"] = 3;
  EXPECT_THROW(run_result_from_json(bad_steps), std::invalid_argument);
  EXPECT_THROW(run_result_from_json(Value::array()), std::invalid_argument);
}

}  // namespace
}  // namespace reactor
