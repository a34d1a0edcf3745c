// Tracing's durable part (docs/observability.md, "Tracing"), on every backend: the W3C traceparent
// a run is started under is stored with it and read back by whoever loads it, malformed ones are
// refused with nothing stored, and the runs a run starts (fan-out elements, retries) carry its
// trace with its span as their parent.
#include <gmock/gmock.h>

#include "conformance/conformance_support.hpp"
#include "reactor/reactor.hpp"
#include "reactor/trace_context.hpp"
#include "records/run_rows.hpp"
#include "support/result_testing.hpp"

namespace reactor::conformance {
namespace {

constexpr const char* kCallerTrace = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

Definition single(bool fail) {
  return Builder("TracedSingle")
      .input("fail", boolean().default_value(false))
      .step("only",
            [fail](const Args&) -> StepResult {
              if (fail) return Failure("fails for good", false);
              return Success(1);
            })
      .returns("only")
      .build();
}

Definition mapper() {
  Definition doubled =
      Builder("TracedElement")
          .input("x", integer())
          .step("double",
                [](const Args& a) -> StepResult { return Success(2 * a.get<std::int64_t>("x")); })
          .argument("x", input("x"))
          .returns("double")
          .build();
  Builder b("TracedMapper");
  b.input("items", array());
  b.map("m", doubled).source(input("items")).argument("x", element("m"));
  b.fan_out(2);
  return b.returns("m").build();
}

template <typename Factory>
class TraceContextStore : public ::testing::Test {
 protected:
  void SetUp() override {
    Status s = open_durable_engine(factory_, 2s, engine_);
    ASSERT_TRUE(s.ok()) << s.to_string();
  }

  // The run as a worker of another process would read it.
  reactor::Run stored(const std::string& id) {
    reactor::Run run;
    Result<StoredRun> row = engine_->backend()->load_run(id);
    EXPECT_TRUE(row.ok()) << row.status().to_string();
    if (row.ok()) {
      EXPECT_TRUE(records::decode_run(*row, run).ok());
    }
    return run;
  }

  Factory factory_;
  std::unique_ptr<Engine> engine_;
};
TYPED_TEST_SUITE(TraceContextStore, ConformanceBackends, BackendName);

TYPED_TEST(TraceContextStore, ABackgroundRunKeepsItsTraceparentThroughItsExecution) {
  this->engine_->registry().add(single(false));
  BackgroundOptions options;
  options.traceparent = kCallerTrace;
  std::string id;
  ASSERT_OK_AND_ASSIGN(id,
                       this->engine_->run_in_background("TracedSingle", Value::object(), options));
  EXPECT_EQ(this->stored(id).trace_parent, kCallerTrace);
  ASSERT_TRUE(this->engine_->run_due_jobs("TracedSingle").ok());
  reactor::Run done = this->stored(id);
  EXPECT_EQ(done.status, RunStatus::kCompleted);
  EXPECT_EQ(done.trace_parent, kCallerTrace);
}

TYPED_TEST(TraceContextStore, ARunStartedWithoutOneStoresNone) {
  this->engine_->registry().add(single(false));
  std::string id;
  ASSERT_OK_AND_ASSIGN(id, this->engine_->run_in_background("TracedSingle", Value::object(), {}));
  EXPECT_EQ(this->stored(id).trace_parent, "");
}

TYPED_TEST(TraceContextStore, AMalformedTraceparentIsRefusedAndNothingIsStored) {
  this->engine_->registry().add(single(false));
  BackgroundOptions background;
  background.run_id = "tp-bad-background";
  background.traceparent = "00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01";
  Result<std::string> refused =
      this->engine_->run_in_background("TracedSingle", Value::object(), background);
  EXPECT_EQ(refused.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(this->engine_->backend()->load_header("tp-bad-background").status().code(),
            StatusCode::kNotFound);

  RunOptions sync;
  sync.run_id = "tp-bad-sync";
  sync.traceparent = "not a traceparent";
  RunResult r = this->engine_->run("TracedSingle", Value::object(), sync);
  ASSERT_TRUE(r.error.has_value());
  EXPECT_EQ(r.error->kind, ErrorKind::kInputInvalid);
  EXPECT_THAT(r.error->message, ::testing::HasSubstr("traceparent"));
  EXPECT_EQ(this->engine_->backend()->load_header("tp-bad-sync").status().code(),
            StatusCode::kNotFound);
}

TYPED_TEST(TraceContextStore, FanOutElementsAreInTheRunsTraceUnderItsSpan) {
  this->engine_->registry().add(mapper());
  RunOptions options;
  options.traceparent = kCallerTrace;
  RunResult r = this->engine_->run("TracedMapper", Value{{"items", {1, 2, 3}}}, options);
  ASSERT_EQ(r.status, RunStatus::kWaiting) << (r.error ? r.error->message : "");
  const std::string expected = child_trace_parent(kCallerTrace, r.run_id, "");
  EXPECT_EQ(this->stored(r.run_id).trace_parent, kCallerTrace);
  for (int i = 0; i < 2; ++i) {  // the first window
    reactor::Run element = this->stored(r.run_id + ":m[" + std::to_string(i) + "]");
    EXPECT_EQ(element.trace_parent, expected) << i;
  }
  TraceContext parsed;
  ASSERT_OK_AND_ASSIGN(parsed, parse_traceparent(expected));
  EXPECT_EQ(parsed.trace_id, "4bf92f3577b34da6a3ce929d0e0e4736");
  EXPECT_EQ(parsed.span_id, run_span_id(r.run_id, ""));
}

TYPED_TEST(TraceContextStore, ARetryContinuesTheOriginalsTrace) {
  this->engine_->registry().add(single(true));
  BackgroundOptions options;
  options.traceparent = kCallerTrace;
  std::string id;
  ASSERT_OK_AND_ASSIGN(id,
                       this->engine_->run_in_background("TracedSingle", Value::object(), options));
  ASSERT_TRUE(this->engine_->run_due_jobs("TracedSingle").ok());
  ASSERT_EQ(this->stored(id).status, RunStatus::kFailed);
  std::string retry;
  ASSERT_OK_AND_ASSIGN(retry, this->engine_->retry(id));
  EXPECT_EQ(this->stored(retry).trace_parent, child_trace_parent(kCallerTrace, id, ""));
}

}  // namespace
}  // namespace reactor::conformance
