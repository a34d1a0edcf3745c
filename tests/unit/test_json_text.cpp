// The records written as text (core/json_text.hpp, durability/run_records.cpp) are byte for
// byte what dumping their Value forms gives, so stores hold the same JSON either way.
#include <gtest/gtest.h>

#include "core/json_text.hpp"
#include "core/run_json.hpp"
#include "durability/run_records.hpp"
#include "reactor/backend.hpp"

namespace reactor {
namespace {

TEST(JsonText, StringsAreEscapedAsValueDumpEscapesThem) {
  const std::string samples[] = {"",
                                 "plain",
                                 "quote \" and \\ backslash",
                                 "tab\tnl\ncr\rbs\bff\f",
                                 std::string("nul\0and\x1f unit", 14),
                                 "caf\xc3\xa9 \xe2\x82\xac",
                                 "del\x7f"};
  for (const auto& text : samples) {
    std::string out;
    json_text::append_string(out, text);
    EXPECT_EQ(out, Value(text).dump()) << "for " << Value(text).dump();
  }
}

TEST(JsonText, ObjectsAreWhatValueDumpGives) {
  std::string out;
  json_text::ObjectWriter(out)
      .field("a", std::int64_t{-12})
      .field("b", std::uint64_t{18446744073709551615u})
      .field("c", true)
      .field("d", "x\"y")
      .value("e", Value{{"k", {1, 2.5, "z"}}})
      .null("f")
      .close();
  Value expected{{"a", -12},    {"b", 18446744073709551615u},  {"c", true},
                 {"d", "x\"y"}, {"e", {{"k", {1, 2.5, "z"}}}}, {"f", nullptr}};
  EXPECT_EQ(out, expected.dump());
}

Run sample_run() {
  Run run;
  run.id = run.root_id = "r-1";
  run.reactor = "OrderSaga";
  run.fingerprint = "fp";
  run.status = RunStatus::kRollingBack;
  run.path = "";
  run.value = Value{{"total", 12}, {"note", "a \"quoted\" word"}};
  run.next_completion_seq = 3;
  run.created_at_ms = 1'700'000'000'000;
  run.updated_at_ms = 1'700'000'000'123;
  run.failed_step = 1;
  StepRecord done;
  done.name = "reserve";
  done.status = StepStatus::kCompleted;
  done.result = Value{{"pad", std::string(140, 'x')}, {"counter", 2}};
  done.attempts = 2;
  done.completion_seq = 1;
  done.started_at_ms = 5;
  done.finished_at_ms = 6;
  done.body_started = true;
  StepRecord failed;
  failed.name = "charge";
  failed.status = StepStatus::kFailed;
  failed.error = "declined:\n\"card\"";
  run.steps = {done, failed};
  run.trace = {TraceEvent{TraceType::kRun, "reserve", 1, "success", "", 6},
               TraceEvent{TraceType::kRun, "charge", 1, "failure", "declined \"x\"", 7}};
  return run;
}

TEST(JsonText, StepRowsHeadersAndTraceAreTheValueForms) {
  reactor::Run run = sample_run();
  for (bool with_error : {false, true}) {
    if (with_error) run.error = RunError{};
    CommitRequest c;
    CheckpointDelta delta;
    delta.created.push_back(&run);
    encode_delta(run, delta, 0, c);
    ASSERT_EQ(c.steps.size(), run.steps.size());
    for (std::size_t i = 0; i < run.steps.size(); ++i) {
      EXPECT_EQ(c.steps[i].body, step_record_to_json(run.steps[i], false).dump());
    }
    ASSERT_EQ(c.trace.size(), run.trace.size());
    for (std::size_t i = 0; i < run.trace.size(); ++i) {
      EXPECT_EQ(c.trace[i].body, Value(run.trace[i]).dump());
    }
    ASSERT_EQ(c.headers.size(), 1u);
    const Value body{{"path", run.path},
                     {"value", run.value},
                     {"error", run.error ? Value(*run.error) : Value(nullptr)},
                     {"failed_step", Value(*run.failed_step)},
                     {"next_completion_seq", run.next_completion_seq},
                     {"step_count", run.steps.size()},
                     {"created_at_ms", run.created_at_ms}};
    EXPECT_EQ(c.headers[0].body, body.dump());
    // And it reads back as the same run.
    reactor::Run back = decode_header(c.headers[0]);
    EXPECT_EQ(back.value, run.value);
    EXPECT_EQ(back.failed_step, run.failed_step);
    EXPECT_EQ(back.error.has_value(), with_error);
  }
}

}  // namespace
}  // namespace reactor
