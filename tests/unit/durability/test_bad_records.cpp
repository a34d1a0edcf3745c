// Stored records that decode but no worker may execute, and values past the limits
// (reactor/limits.hpp, DurabilityOptions::max_value_bytes). A worker never dies of a record:
// each such run fails with corrupt_record, its job is acknowledged, and the worker goes on to
// complete the next run. Values past the limits are refused where they come in.
#include <atomic>

#include "support/result_testing.hpp"
#include "unit/durability/durable_fixture.hpp"
#include "unit/nested_value.hpp"

namespace reactor::durable_test {
namespace {

class BadRecords : public DurableRules {
 protected:
  // A background "Five" run, its header edited by `edit` (and `rows` planted) before any worker
  // sees it.
  template <typename Edit>
  std::string plant(Edit&& edit, RunRows rows = {}) {
    std::string id;
    EXPECT_OK_AND_ASSIGN(id, engine_->run_in_background("Five", {{"n", 0}}));
    RunHeaderRow h;
    EXPECT_OK_AND_ASSIGN(h, store_->load_header(id));
    edit(h);
    CommitRequest c;
    c.headers.push_back(h);
    for (auto& s : rows.steps) {
      s.run_id = id;
      c.steps.push_back(s);
    }
    EXPECT_TRUE(store_->commit(c).ok());
    return id;
  }

  static void edit_body(RunHeaderRow& h, const std::function<void(Value&)>& edit) {
    Value body = Value::parse(h.body);
    edit(body);
    h.body = body.dump();
  }

  // Fails with corrupt_record, job acknowledged; the same worker then completes another run.
  void expect_failed_as_corrupt(const std::string& id, const std::string& says) {
    auto worker = start_worker();
    RunHeaderRow failed = wait_for(id, RunStatus::kFailed);
    ASSERT_EQ(failed.status, RunStatus::kFailed) << failed.body;
    EXPECT_NE(failed.body.find("corrupt_record"), std::string::npos) << failed.body;
    EXPECT_NE(failed.body.find(says), std::string::npos) << failed.body;
    bool has_job = true;
    ASSERT_OK_AND_ASSIGN(has_job, store_->has_job(id));
    EXPECT_FALSE(has_job);
    std::string next;
    ASSERT_OK_AND_ASSIGN(next, engine_->run_in_background("Five", {{"n", 1}}));
    EXPECT_EQ(wait_for(next, RunStatus::kCompleted).status, RunStatus::kCompleted);
  }
};

// The right fingerprint, fewer steps than the graph: rebuild_schedule read past the end.
TEST_F(BadRecords, AStepCountShortOfTheGraphFailsTheRunAsCorrupt) {
  open();
  const std::string id =
      plant([](RunHeaderRow& h) { edit_body(h, [](Value& b) { b["step_count"] = 1; }); });
  expect_failed_as_corrupt(id, "1 steps, the definition 5");
}

// rolling_back with failed_step 100000: compensate wrote past the end.
TEST_F(BadRecords, AFailedStepPastTheStepsFailsTheRunAsCorrupt) {
  open();
  const std::string id = plant([](RunHeaderRow& h) {
    h.status = RunStatus::kRollingBack;
    edit_body(h, [](Value& b) { b["failed_step"] = 100000; });
  });
  expect_failed_as_corrupt(id, "failed_step 100000");
}

// {"attempts":"\xff"}: the reader refuses it; the message of the failure must still be UTF-8.
TEST_F(BadRecords, AStepRowThatIsNotUtf8FailsTheRunAsCorrupt) {
  open();
  RunRows rows;
  rows.steps.push_back(StepRow{"", 1, "{\"attempts\":\"\xff\"}"});
  const std::string id = plant([](RunHeaderRow&) {}, rows);
  expect_failed_as_corrupt(id, "step row");
}

// A fingerprint (or reactor name) column with a byte that is not UTF-8: the run used to be
// failed as definition_changed with a message quoting the byte, which the writer threw on
// (type_error.316), taking the worker down.
TEST_F(BadRecords, AHeaderColumnThatIsNotUtf8FailsTheRunAsCorrupt) {
  open();
  const std::string id = plant([](RunHeaderRow& h) { h.fingerprint += "\xff"; });
  expect_failed_as_corrupt(id, "not UTF-8");
  RunResult r;
  ASSERT_OK_AND_ASSIGN(r, engine_->find(id));
  ASSERT_TRUE(r.error.has_value());
  EXPECT_EQ(r.error->kind, ErrorKind::kCorruptRecord);
}

// A value past max_value_bytes could not have been written under this limit.
TEST_F(BadRecords, AStoredResultPastMaxValueBytesFailsTheRunAsCorrupt) {
  DurabilityOptions d;
  d.max_value_bytes = 100;
  open(d);
  RunRows rows;
  rows.steps.push_back(StepRow{"", 0,
                               R"({"attempts":1,"body_started":true,"completion_seq":1,"error":"",)"
                               R"("finished_at_ms":1,"name":"s1","result":")" +
                                   std::string(200, 'x') +
                                   R"(","retry_at_ms":0,"started_at_ms":1,"status":"completed"})"});
  const std::string id = plant([](RunHeaderRow&) {}, rows);
  expect_failed_as_corrupt(id, "its result: over 100 bytes");
}

using test_values::nested;

TEST_F(BadRecords, InputsPastTheLimitsAreRefusedNamingTheLimit) {
  DurabilityOptions d;
  d.max_value_bytes = 100'000;  // room for a value 10,000 deep: 2 bytes a level
  open(d);
  Status s = engine_->run_in_background("Five", {{"n", std::string(200'000, 'x')}}).status();
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("the inputs: over 100000 bytes as JSON (max_value_bytes)"),
            std::string::npos)
      << s.message();
  s = engine_->run_in_background("Five", {{"n", nested(10000)}}).status();
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("nested deeper than 512 levels"), std::string::npos) << s.message();
  BackgroundBatch batch =
      engine_->run_many_in_background("Five", {{{"n", 1}}, {{"n", nested(600)}}});
  s = batch.status;
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("[1] the inputs: nested deeper"), std::string::npos) << s.message();
  EXPECT_TRUE(batch.run_ids.empty());

  const RunResult r = engine_->run("Five", {{"n", nested(10000)}});
  EXPECT_EQ(r.status, RunStatus::kFailed);
  ASSERT_TRUE(r.error.has_value());
  EXPECT_EQ(r.error->kind, ErrorKind::kInputInvalid);
  EXPECT_NE(r.error->message.find("nested deeper than 512 levels"), std::string::npos);
  std::vector<RunHeaderRow> stored;
  ASSERT_OK_AND_ASSIGN(stored, store_->list_runs(RunFilter{}));
  EXPECT_TRUE(stored.empty());  // refused before anything was stored
}

// A step that returns a value past the limits fails, not retried (it would return the same),
// and is compensated (its side effect happened); the run fails with value_too_large.
TEST_F(BadRecords, AStepReturningAValuePastTheLimitsFailsWithValueTooLarge) {
  DurabilityOptions d;
  d.max_value_bytes = 100'000;  // room for a value 10,000 deep: 2 bytes a level
  open(d);
  auto compensated = std::make_shared<std::atomic<int>>(0);
  auto calls = std::make_shared<std::atomic<int>>(0);
  for (const bool deep : {false, true}) {
    const std::string name = deep ? "Deep" : "Large";
    engine_->registry().add(
        Builder(name)
            .step("big",
                  [calls, deep](const Args&) {
                    ++*calls;
                    return Success(deep ? nested(2000) : Value(std::string(200'000, 'x')));
                  })
            .retries(fixed_backoff(3, 0ms))
            .compensate([compensated](const std::string&, const Args&, StepContext&) {
              ++*compensated;
              return Success();
            })
            .build());
    const RunResult r = engine_->run(name, Value::object());
    EXPECT_EQ(r.status, RunStatus::kFailed) << name;
    ASSERT_TRUE(r.error.has_value());
    EXPECT_EQ(r.error->kind, ErrorKind::kValueTooLarge);
    EXPECT_FALSE(r.error->retryable);
    EXPECT_EQ(r.error->attempts, 1);
    EXPECT_NE(r.error->message.find(deep ? "nested deeper than 512" : "over 100000 bytes"),
              std::string::npos)
        << r.error->message;
    RunResult stored;
    ASSERT_OK_AND_ASSIGN(stored, engine_->find(r.run_id));
    EXPECT_EQ(stored.status, RunStatus::kFailed);
  }
  EXPECT_EQ(calls->load(), 2);
  EXPECT_EQ(compensated->load(), 2);
}

// A snapshot that parses but is not a run of its graph, resumed in process: the executor used to
// index past the steps' end (rebuild_schedule, compensate).
TEST_F(BadRecords, ResumingASnapshotThatIsNotARunOfItsDefinitionFailsAsCorrupt) {
  open();
  const Definition five = *engine_->registry().find("Five");
  reactor::Run run = engine_->create_run(five, {{"n", 0}});
  run.steps.pop_back();
  RunResult r = engine_->resume(run_from_json(run_to_json(run)));
  EXPECT_EQ(r.status, RunStatus::kFailed);
  ASSERT_TRUE(r.error.has_value());
  EXPECT_EQ(r.error->kind, ErrorKind::kCorruptRecord);
  EXPECT_NE(r.error->message.find("4 steps, the definition 5"), std::string::npos);

  run = engine_->create_run(five, {{"n", 0}});
  run.status = RunStatus::kRollingBack;
  run.failed_step = 100000;
  r = engine_->resume(run);
  ASSERT_TRUE(r.error.has_value());
  EXPECT_EQ(r.error->kind, ErrorKind::kCorruptRecord);
  EXPECT_NE(r.error->message.find("failed_step 100000"), std::string::npos);
}

}  // namespace
}  // namespace reactor::durable_test
