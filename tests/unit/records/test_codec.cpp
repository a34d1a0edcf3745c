// The record codec (records/codec.hpp, records/run_rows.hpp): every record reads back as it was
// written, records of earlier versions still read, and a record that cannot be read is refused
// with a RecordError naming what is wrong, never misread.
#include <gtest/gtest.h>

#include <limits>

#include "durability/writer.hpp"
#include "reactor/backend.hpp"
#include "reactor/builder.hpp"
#include "records/codec.hpp"
#include "records/json_writer.hpp"
#include "records/run_rows.hpp"
#include "records/run_shape.hpp"

namespace reactor::records {
namespace {

reactor::Run sample_run() {
  reactor::Run run;
  run.id = run.root_id = "r-1";
  run.reactor = "OrderSaga";
  run.fingerprint = "fp";
  run.status = RunStatus::kRollingBack;
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

StoredRun stored_of(const RunRows& rows) {
  StoredRun stored;
  static_cast<RunRows&>(stored) = rows;
  stored.fencing_token = 7;
  return stored;
}

TEST(Codec, StepRowsTraceEventsAndInputsReadBackAsWritten) {
  const reactor::Run run = sample_run();
  for (const StepRecord& s : run.steps) {
    const StepRecord back = decode_step(encode_step(s));
    EXPECT_EQ(encode_step(back), encode_step(s));
    EXPECT_EQ(back.result, s.result);
    EXPECT_EQ(back.status, s.status);
    EXPECT_EQ(back.error, s.error);
  }
  for (const TraceEvent& e : run.trace) EXPECT_EQ(decode_trace(encode_trace(e)), e);
  const Value inputs{{"n", 9007199254740993}, {"t", "na\xc3\xafve \xe2\x9c\x93"}, {"f", 1.25}};
  EXPECT_EQ(decode_inputs(encode_inputs(inputs)), inputs);
  // A step row is the JSON of its Value form, member for member.
  EXPECT_EQ(Value::parse(encode_step(run.steps[0])), (Value{{"attempts", 2},
                                                            {"body_started", true},
                                                            {"completion_seq", 1},
                                                            {"error", ""},
                                                            {"finished_at_ms", 6},
                                                            {"name", "reserve"},
                                                            {"result", run.steps[0].result},
                                                            {"retry_at_ms", 0},
                                                            {"started_at_ms", 5},
                                                            {"status", "completed"}}));
}

TEST(Codec, HeadersReadBackWithTheirStateAndSuspension) {
  reactor::Run run = sample_run();
  for (bool suspended : {false, true}) {
    run.error = RunError{};
    run.error->message = "m";
    if (suspended) {
      run.status = RunStatus::kWaiting;
      run.suspension = Suspension{SuspensionKind::kUntil, 1'700'000'100'000, {}, 0};
    }
    const RunHeaderRow row = encode_header(run, 99);
    EXPECT_EQ(row.schema_version, kHeaderVersion);
    EXPECT_EQ(row.expires_at_ms, 99);
    EXPECT_EQ(row.wake_at_ms, suspended ? 1'700'000'100'000 : 0);
    const reactor::Run back = decode_header(row);
    EXPECT_EQ(back.value, run.value);
    EXPECT_EQ(back.failed_step, run.failed_step);
    EXPECT_EQ(back.error, run.error);
    EXPECT_EQ(back.suspension, run.suspension);
    EXPECT_EQ(back.status, run.status);
    // The header counts the steps and names none: their rows or the definition do.
    ASSERT_EQ(back.steps.size(), 2u);
    EXPECT_EQ(back.steps[1].name, "");
    EXPECT_EQ(row.body.find("charge"), std::string::npos) << row.body;
  }
}

// A checkpoint's header is the same size late in a long run as early in a short one.
TEST(Codec, AHeaderDoesNotGrowWithTheRun) {
  reactor::Run run = sample_run();
  const std::size_t two_steps = encode_header(run, 99).body.size();
  run.steps.resize(502);
  EXPECT_EQ(encode_header(run, 99).body.size(), two_steps + 2);  // "2" became "502"
}

// Redis keeps a header row as one record: its body inline (layout 5), or as an escaped string
// (layouts 3 and 4); both read.
TEST(Codec, AHeaderRecordKeepsItsBodyInlineAndReadsTheEscapedFormToo) {
  const RunHeaderRow row = encode_header(sample_run(), 99);
  const std::string text = encode_header_record(row);
  EXPECT_EQ(text.rfind("{\"status\":\"rolling_back\",\"updated_at\":1700000000123,", 0), 0u)
      << text;
  EXPECT_NE(text.find(",\"body\":{"), std::string::npos) << text;
  const RunHeaderRow back = decode_header_record(text);
  EXPECT_EQ(back.body, row.body);
  EXPECT_EQ(back.id, row.id);
  EXPECT_EQ(back.status, row.status);
  EXPECT_EQ(back.expires_at_ms, 99);

  Value old = Value::parse(text);
  old["body"] = row.body;  // the escaped form
  old.erase("wake_at");    // before layout 5
  const RunHeaderRow from_old = decode_header_record(old.dump());
  EXPECT_EQ(from_old.body, row.body);
  EXPECT_EQ(from_old.wake_at_ms, 0);
}

TEST(Codec, RunsWrittenAsRowsReadBackWhole) {
  reactor::Run run = sample_run();
  run.inputs = Value{{"order", "o-1"}};
  run.error = RunError{};
  RunRows rows;
  encode_whole_run(run, 0, rows);
  reactor::Run back;
  ASSERT_TRUE(decode_run(stored_of(rows), back).ok());
  EXPECT_EQ(run_to_json(back), run_to_json(run));
}

// A step gets a row of its own only once it changes; an untouched step reads back unnamed, and
// takes its name from the definition (name_steps).
TEST(Codec, UntouchedStepsOfANewRunHaveNoRows) {
  reactor::Run run = sample_run();
  StepRecord waiting;
  waiting.name = "ship \"it\"";
  run.steps.push_back(waiting);
  RunRows rows;
  encode_whole_run(run, 0, rows);
  ASSERT_EQ(rows.steps.size(), 2u);
  EXPECT_EQ(rows.steps[0].index, 0u);
  EXPECT_EQ(rows.steps[1].index, 1u);
  reactor::Run back;
  ASSERT_TRUE(decode_run(stored_of(rows), back).ok());
  ASSERT_EQ(back.steps.size(), 3u);
  EXPECT_EQ(back.steps[2].name, "");
  EXPECT_EQ(back.steps[2].status, StepStatus::kPending);
  const Definition def = Builder("OrderSaga")
                             .step("reserve", [](const Args&) { return Success(); })
                             .step("charge", [](const Args&) { return Success(); })
                             .step(waiting.name, [](const Args&) { return Success(); })
                             .build();
  name_steps(back, *def.data());
  EXPECT_EQ(run_to_json(back), run_to_json(run));
}

// A checkpoint writes what its delta names, and the root's header always.
TEST(Codec, ACheckpointWritesWhatItsDeltaNames) {
  reactor::Run run = sample_run();
  CheckpointDelta delta;
  delta.steps.emplace_back(&run, 1);
  delta.trace_begin = 1;
  RunRows rows;
  encode_delta(run, delta, 5, rows);
  ASSERT_EQ(rows.steps.size(), 1u);
  EXPECT_EQ(rows.steps[0].index, 1u);
  ASSERT_EQ(rows.trace.size(), 1u);
  EXPECT_EQ(rows.trace[0].seq, 1u);
  ASSERT_EQ(rows.headers.size(), 1u);
  EXPECT_EQ(rows.headers[0].expires_at_ms, 5);
  EXPECT_TRUE(rows.inputs.empty());
}

// Headers written before steps were named (version 1) count them, and every step has a row.
TEST(Codec, HeadersThatCountStepsStillRead) {
  reactor::Run run = sample_run();
  RunRows rows;
  encode_whole_run(run, 0, rows);
  RunHeaderRow v1 = rows.headers.front();
  v1.schema_version = 1;
  v1.body = R"({"created_at_ms":1,"error":null,"failed_step":null,"next_completion_seq":3,)"
            R"("path":"","step_count":2,"value":null})";
  rows.headers = {v1};
  reactor::Run back;
  ASSERT_TRUE(decode_run(stored_of(rows), back).ok());
  ASSERT_EQ(back.steps.size(), 2u);
  EXPECT_EQ(back.steps[0].name, "reserve");
  EXPECT_EQ(back.steps[1].name, "charge");
  // A version this build does not know is refused, not misread.
  v1.schema_version = kHeaderVersion + 1;
  rows.headers = {v1};
  EXPECT_EQ(decode_run(stored_of(rows), back).code(), StatusCode::kCorruption);
}

TEST(Codec, TextAnyWriterMakesReadsAsWell) {
  // Members in another order, escapes another writer may use, white space.
  const StepRecord s = decode_step(
      R"( { "status" : "completed", "name":"\u0061\/b\ud83d\ude00", "result":{"k":[1,2.5,"z"]},)"
      R"( "attempts":1, "body_started":true, "completion_seq":18446744073709551615, "error":"",)"
      R"( "finished_at_ms":-1, "retry_at_ms":0, "started_at_ms":0 } )");
  EXPECT_EQ(s.name, "a/b\xf0\x9f\x98\x80");
  EXPECT_EQ(s.result, (Value{{"k", {1, 2.5, "z"}}}));
  EXPECT_EQ(s.completion_seq, std::numeric_limits<std::uint64_t>::max());
  EXPECT_EQ(s.finished_at_ms, -1);
  // Integers past 64 bits are doubles in a value, as nlohmann reads them.
  const Value big = decode_inputs(R"({"n":79615011486150111348})");
  EXPECT_TRUE(big["n"].is_number_float());
}

std::string step_with(const std::string& member, const std::string& value) {
  Value j = Value::parse(encode_step(sample_run().steps[0]));
  std::string text = j.dump();
  const std::string key = "\"" + member + "\":";
  const auto at = text.find(key);
  const auto end = text.find_first_of(",}", at + key.size());
  return text.substr(0, at + key.size()) + value + text.substr(end);
}

TEST(Codec, ARecordThatCannotBeReadIsRefusedNamingWhy) {
  const std::pair<std::string, std::string> bad[] = {
      {"", "not JSON"},
      {"[]", "not a JSON object"},
      {R"({"attempts":1)", ""},
      {step_with("attempts", "\"1\""), "'attempts'"},
      {step_with("attempts", "1.5"), "'attempts'"},
      {step_with("attempts", "4294967296"), "'attempts'"},
      {step_with("finished_at_ms", "79615011486150111348"), "'finished_at_ms'"},
      {step_with("status", "\"exploded\""), "'status'"},
      {step_with("name", "\"\xff\""), ""},
      {R"({"attempts":1})", "'body_started'"},
  };
  for (const auto& [text, names] : bad) {
    try {
      (void)decode_step(text);
      ADD_FAILURE() << "read: " << text;
    } catch (const RecordError& e) {
      EXPECT_NE(std::string(e.what()).find(names), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("step row"), std::string::npos) << e.what();
    }
  }
  EXPECT_THROW((void)decode_inputs("{\"a\":"), RecordError);
  EXPECT_THROW((void)decode_inputs(std::string(5000, '[') + std::string(5000, ']')), RecordError);
}

}  // namespace
}  // namespace reactor::records
