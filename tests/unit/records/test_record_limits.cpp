// Stored records that decode into something no worker may use (issue 16, item 19), and the
// limits of reactor/limits.hpp: each is refused as a RecordError or Corruption, or written so
// that it reads back, never thrown at the writer, recursed on without bound, or indexed past
// its end.
#include <gtest/gtest.h>

#include <climits>
#include <string>

#include "reactor/limits.hpp"
#include "reactor/run_result.hpp"
#include "records/codec.hpp"
#include "records/run_rows.hpp"
#include "records/value_limits.hpp"
#include "unit/nested_value.hpp"

namespace reactor::records {
namespace {

RunHeaderRow header_row(const std::string& id, int version, const std::string& body) {
  RunHeaderRow row;
  row.id = row.root_id = id;
  row.reactor = "R";
  row.fingerprint = "fp";
  row.status = RunStatus::kRunning;
  row.schema_version = version;
  row.body = body;
  return row;
}

std::string body_with(const std::string& steps, const std::string& value = "null",
                      const std::string& error = "null", const std::string& path = "") {
  return R"({"created_at_ms":1,"error":)" + error +
         R"(,"failed_step":null,"next_completion_seq":1,"path":")" + path + R"(","value":)" +
         value + "," + steps + "}";
}

using test_values::nested;

// {"attempts":"\xff"}: one byte that is not UTF-8 is refused by the reader, and a message quoting
// it is written back as UTF-8 (U+FFFD), where the writer used to throw type_error.316.
TEST(RecordLimits, TextThatIsNotUtf8IsRefusedWhenReadAndReplacedWhenWritten) {
  EXPECT_THROW(decode_step("{\"attempts\":\"\xff\"}"), RecordError);
  EXPECT_THROW(decode_trace("{\"at_ms\":1,\"attempt\":1,\"message\":\"\xc3\",\"outcome\":\"\","
                            "\"step\":\"\",\"type\":\"run\"}"),
               RecordError);

  reactor::Run run;
  run.id = run.root_id = "r";
  run.reactor = "R\xff";
  run.fingerprint = "fp\xc0";
  run.error = RunError{};
  run.error->message = "step row: member 'attempts': \xff";
  run.error->details = Value{{"quoted", "\xfe"}};
  run.error->reactor = run.reactor;
  run.steps.resize(1);
  run.steps[0].name = "s\xff";
  const RunHeaderRow row = encode_header(run, 0);
  const reactor::Run back = decode_header(decode_header_record(encode_header_record(row)));
  ASSERT_TRUE(back.error.has_value());
  EXPECT_EQ(back.error->message, "step row: member 'attempts': \xef\xbf\xbd");
  EXPECT_EQ(back.error->details, (Value{{"quoted", "\xef\xbf\xbd"}}));
  EXPECT_EQ(back.reactor, "R\xef\xbf\xbd");
  // A step's name is written in its row.
  EXPECT_EQ(decode_step(encode_step(run.steps[0])).name, "s\xef\xbf\xbd");
}

// SQLite keeps a header's id, reactor and fingerprint in columns of their own, outside the JSON
// the reader checks.
TEST(RecordLimits, AHeaderColumnThatIsNotUtf8IsARecordError) {
  for (int column = 0; column < 4; ++column) {
    RunHeaderRow row = header_row("r", 3, body_with(R"("step_names":[])"));
    std::string* texts[] = {&row.id, &row.reactor, &row.fingerprint, &row.parent_id};
    *texts[column] += "\xff";
    EXPECT_THROW(decode_header(row), RecordError) << column;
  }
}

// A version-1 header counted its steps: 41 bytes asked for 35,012,021 of them (5.6 GB).
TEST(RecordLimits, AStepCountPastTheLimitIsRefusedBeforeAnythingIsAllocated) {
  EXPECT_THROW(decode_header(header_row("r", 1, body_with(R"("step_count":35012021)"))),
               RecordError);
  EXPECT_THROW(decode_header(header_row("r", 1, body_with(R"("step_count":20000000)"))),
               RecordError);
  EXPECT_EQ(decode_header(header_row("r", 1, body_with(R"("step_count":3)"))).steps.size(), 3u);
  std::string names = "[";
  for (std::size_t i = 0; i <= kMaxRunSteps; ++i) names += i == 0 ? "\"\"" : ",\"\"";
  names += "]";
  EXPECT_THROW(decode_header(header_row("r", 2, body_with("\"step_names\":" + names))),
               RecordError);
}

TEST(RecordLimits, IntegersPastInt64AreRecordErrorsNotCasts) {
  EXPECT_THROW(decode_trace(R"({"at_ms":79615011486150111348,"attempt":1,"message":"",)"
                            R"("outcome":"","step":"","type":"run"})"),
               RecordError);
  EXPECT_THROW(decode_step(R"({"attempts":1e30})"), RecordError);
  // An error's attempt count, read through Value: a double past int's range used to be cast.
  for (const char* attempts : {"79615011486150111348", "1e300", "-1e300", "2147483648", "1.5"}) {
    const std::string error = R"({"kind":"step_failed","attempts":)" + std::string(attempts) + "}";
    EXPECT_THROW(decode_header(header_row("r", 3, body_with(R"("step_names":[])", "null", error))),
                 RecordError)
        << attempts;
  }
}

// 10,000 levels in a header's value, about 20 KB: refused at kMaxValueDepth as it is read.
TEST(RecordLimits, ValuesNestedPastTheDepthLimitAreRecordErrors) {
  const std::string deep = std::string(10000, '[') + std::string(10000, ']');
  EXPECT_THROW(decode_header(header_row("r", 3, body_with(R"("step_names":[])", deep))),
               RecordError);
  EXPECT_THROW(decode_step(R"({"result":)" + deep + "}"), RecordError);
  EXPECT_THROW(decode_inputs(deep), RecordError);
  const std::string error = R"({"kind":"step_failed","details":)" + deep + "}";
  EXPECT_THROW(decode_header(header_row("r", 3, body_with(R"("step_names":[])", "null", error))),
               RecordError);
}

// 100,000 child headers, each the parent of the next: the tree used to be built (and copied,
// and destroyed) recursively, one stack frame per level.
// A slot's body is read as every record is (issue 30): a failed element's error whose details
// nest a million levels deep (2 MB) crashed every worker that collected its map; now it is a
// RecordError, read without recursion past the depth limit, as is a value past it.
TEST(RecordLimits, ASlotBodyPastTheLimitsIsARecordErrorNotACrash) {
  const std::string deep = std::string(1000000, '[') + std::string(1000000, ']');
  MapSlotRow failed{"r:map", 0, SlotState::kFailed,
                    R"({"kind":"step_failed","message":"x","details":)" + deep + "}"};
  EXPECT_THROW(decode_slot_body(failed, SIZE_MAX), RecordError);
  MapSlotRow completed{"r:map", 1, SlotState::kCompleted, deep};
  EXPECT_THROW(decode_slot_body(completed, SIZE_MAX), RecordError);
  for (SlotState state :
       {SlotState::kCompleted, SlotState::kFailed, SlotState::kHalted, SlotState::kUndone}) {
    EXPECT_THROW(decode_slot_body(MapSlotRow{"r:map", 2, state, "{1}"}, SIZE_MAX), RecordError);
    EXPECT_THROW(decode_slot_body(MapSlotRow{"r:map", 2, state, ""}, SIZE_MAX), RecordError);
  }
  // A failed slot must hold a run error; a value past the byte limit is refused too.
  EXPECT_THROW(decode_slot_body(MapSlotRow{"r:map", 3, SlotState::kFailed, "[1]"}, SIZE_MAX),
               RecordError);
  EXPECT_THROW(decode_slot_body(MapSlotRow{"r:map", 3, SlotState::kCompleted, R"("abcdef")"}, 4),
               RecordError);

  const SlotBody value =
      decode_slot_body(MapSlotRow{"r:map", 4, SlotState::kCompleted, R"({"n":[1,2]})"}, SIZE_MAX);
  EXPECT_EQ(value.value, Value::parse(R"({"n":[1,2]})"));
  EXPECT_FALSE(value.error);
  RunError e;
  e.message = "card declined";
  e.details = {{"code", 51}};
  const SlotBody error =
      decode_slot_body(MapSlotRow{"r:map", 5, SlotState::kFailed, encode_value(Value(e))}, 64);
  ASSERT_TRUE(error.error);
  EXPECT_EQ(*error.error, e);
}

// Any JSON text outside a record's own decoder comes through decode_value: bounded the same way.
TEST(RecordLimits, DecodeValueIsDepthLimited) {
  EXPECT_THROW(decode_value(std::string(1000000, '{')), RecordError);
  EXPECT_THROW(decode_value(std::string(600, '[') + std::string(600, ']')), RecordError);
  EXPECT_EQ(decode_value(nested(kMaxValueDepth).dump()), nested(kMaxValueDepth));
  EXPECT_EQ(decode_value("[1,\"a\",null]"), Value::parse("[1,\"a\",null]"));
}

// A header's body kept as text must be one JSON object when it is read (issue 30): On-Demand
// slices `"body":{1}` as `{1`, which written back (a hand-back of the row as read) would store
// a record that is not JSON.
TEST(RecordLimits, AHeaderRecordWhoseInlineBodyIsNotJsonIsRefusedAtOnce) {
  RunHeaderRow row = header_row("r", kHeaderVersion, body_with(R"("step_count":0)"));
  const std::string good = encode_header_record(row);
  EXPECT_EQ(decode_header_record(good).body, row.body);
  const std::string::size_type at = good.find(R"("body":{)");
  ASSERT_NE(at, std::string::npos);
  const std::string after_body = good.substr(good.find(row.body, at) + row.body.size());
  for (const char* bad : {"{1}", "{\"a\":}", "{\"a\":1,}", "{\"a\" 1}"}) {
    const std::string text = good.substr(0, at) + R"("body":)" + bad + after_body;
    EXPECT_THROW(decode_header_record(text), RecordError) << text;
  }
}

TEST(RecordLimits, ChildRunsChainedPastTheNestingLimitAreCorruption) {
  StoredRun stored;
  std::string path;
  for (int i = 0; i < 100000; ++i) {
    const std::string id = "r" + std::to_string(i);
    RunHeaderRow h = header_row(id, 3, body_with(R"("step_names":["s"])", "null", "null", path));
    h.root_id = "r0";
    h.parent_id = i == 0 ? "" : "r" + std::to_string(i - 1);
    stored.headers.push_back(std::move(h));
    if (i < 70) path += path.empty() ? "s" : "/s";  // past any nesting the limit allows
  }
  reactor::Run run;
  const Status s = decode_run(stored, run);
  EXPECT_EQ(s.code(), StatusCode::kCorruption) << s.to_string();
  EXPECT_NE(s.message().find("nest deeper than"), std::string::npos) << s.message();

  // Within the limit the chain is read.
  stored.headers.resize(kMaxRunNesting);
  ASSERT_TRUE(decode_run(stored, run).ok());
}

// A retry due (or a suspension ending) at a time that overflows as nanoseconds: the delivery
// turned it into a Duration before anything else looked at it.
TEST(RecordLimits, TimesTheEngineWaitsOnPastTheYear9999AreCorruption) {
  StoredRun stored;
  stored.headers.push_back(header_row("r", 3, body_with(R"("step_names":["s"])")));
  stored.steps.push_back(StepRow{"r", 0,
                                 R"({"attempts":1,"body_started":true,"completion_seq":0,)"
                                 R"("error":"","finished_at_ms":1,"name":"s","result":null,)"
                                 R"("retry_at_ms":9223372036854775807,"started_at_ms":1,)"
                                 R"("status":"retry_scheduled"})"});
  reactor::Run run;
  Status s = decode_run(stored, run);
  EXPECT_EQ(s.code(), StatusCode::kCorruption);
  EXPECT_NE(s.message().find("out of range"), std::string::npos) << s.message();

  stored.steps.clear();
  stored.headers[0].status = RunStatus::kWaiting;
  stored.headers[0].body = R"({"created_at_ms":1,"error":null,"failed_step":null,)"
                           R"("next_completion_seq":1,"path":"","suspension":{"children":0,)"
                           R"("kind":"until","on":"","until_ms":9223372036854775807},)"
                           R"("value":null,"step_names":["s"]})";
  s = decode_run(stored, run);
  EXPECT_EQ(s.code(), StatusCode::kCorruption);
  EXPECT_NE(s.message().find("suspension ends"), std::string::npos) << s.message();
}

TEST(RecordLimits, ATraceLongerThanTheLimitIsCorruption) {
  StoredRun stored;
  stored.headers.push_back(header_row("r", 3, body_with(R"("step_names":[])")));
  stored.trace.resize(kMaxTraceEvents + 1);
  reactor::Run run;
  const Status s = decode_run(stored, run);
  EXPECT_EQ(s.code(), StatusCode::kCorruption);
  EXPECT_NE(s.message().find("more than"), std::string::npos) << s.message();
}

TEST(RecordLimits, MeasuringAValueGivesItsJsonSizeAndDepthWithoutRecursion) {
  const Value samples[] = {
      nullptr,
      true,
      false,
      0,
      -1,
      INT64_MIN,
      UINT64_MAX,
      1.5,
      1e300,
      "",
      "quote \" \\ \n \x01 caf\xc3\xa9",
      Value::array(),
      Value::object(),
      Value{{"a\"", {1, "two", nullptr, {{"z", Value::array({Value::object()})}}}}}};
  for (const Value& v : samples) {
    const ValueSize size = measure_value(v, SIZE_MAX);
    EXPECT_EQ(size.bytes, v.dump().size()) << v.dump();
    EXPECT_FALSE(size.too_deep || size.too_large);
  }
  EXPECT_EQ(measure_value(Value{{"a", {{"b", {1}}}}}, SIZE_MAX).depth, 4);
  EXPECT_FALSE(value_limit_error(nested(kMaxValueDepth), SIZE_MAX, "v"));
}

// Strings are scanned eight bytes at a time: a character that needs an escape is counted
// wherever it sits in the word or in the tail, and UTF-8 (bytes at 0x80 and above) escapes
// nothing.
TEST(RecordLimits, AStringIsMeasuredAsItsJsonTextWhereverItsEscapesSit) {
  const std::string specials[] = {"\"",   "\\", "\n",       "\x01",        "\x1f",
                                  "\x7f", " ",  "\xc3\xa9", "\xe2\x82\xac"};
  for (const std::string& special : specials) {
    for (std::size_t at = 0; at < 19; ++at) {
      const Value v(std::string(at, 'x') + special + std::string(18 - at, 'x'));
      EXPECT_EQ(measure_value(v, SIZE_MAX).bytes, v.dump().size()) << v.dump();
    }
  }
}

TEST(RecordLimits, AValuePastTheLimitsIsNamedWithWhatHeldIt) {
  const auto deep = value_limit_error(nested(kMaxValueDepth + 1), SIZE_MAX, "the inputs");
  ASSERT_TRUE(deep);
  EXPECT_EQ(*deep, "the inputs: nested deeper than 512 levels");
  EXPECT_TRUE(measure_value(nested(1000000), SIZE_MAX).too_deep);
  const auto large = value_limit_error(Value(std::string(100, 'x')), 101, "the inputs");
  ASSERT_TRUE(large);
  EXPECT_NE(large->find("over 101 bytes"), std::string::npos) << *large;
  EXPECT_FALSE(value_limit_error(Value(std::string(100, 'x')), 102, "the inputs"));
}

// A snapshot is a Value the caller parsed (nlohmann nests without limit); reading it copied
// every member recursively.
TEST(RecordLimits, ASnapshotNestedPastTheLimitIsRefused) {
  Value snapshot = run_to_json(reactor::Run{});
  snapshot["inputs"] = nested(100000);
  EXPECT_THROW(run_from_json(snapshot), std::invalid_argument);
  Value result = to_json(RunResult{});
  result["value"] = nested(100000);
  EXPECT_THROW(run_result_from_json(result), std::invalid_argument);
}

}  // namespace
}  // namespace reactor::records
