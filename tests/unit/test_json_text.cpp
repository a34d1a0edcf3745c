// The records written as text (core/json_text.hpp, durability/run_records.cpp) are byte for
// byte what dumping their Value forms gives, so stores hold the same JSON either way.
#include <gtest/gtest.h>

#include <limits>

#include "core/json_text.hpp"
#include "core/run_json.hpp"
#include "durability/run_records.hpp"
#include "reactor/backend.hpp"

namespace reactor {
namespace {

// Texts that need every kind of escape, and bytes that need none.
const std::string kSampleTexts[] = {"",
                                    "plain",
                                    "quote \" and \\ backslash",
                                    "tab\tnl\ncr\rbs\bff\f",
                                    std::string("nul\0and\x1f unit", 14),
                                    "caf\xc3\xa9 \xe2\x82\xac",
                                    "del\x7f"};

TEST(JsonText, StringsAreEscapedAsValueDumpEscapesThem) {
  for (const auto& text : kSampleTexts) {
    std::string out;
    json_text::append_string(out, text);
    EXPECT_EQ(out, Value(text).dump()) << "for " << Value(text).dump();
  }
}

// The writer scans eight bytes at a time: every character that needs an
// escape, and UTF-8 text, at every place in and across those words.
TEST(JsonText, EveryCharacterIsEscapedWhereverItStands) {
  std::vector<std::string> specials = {"\xc3\xa9", "\xe2\x82\xac", "\x7f", " ", "~"};
  for (int c = 0; c < 0x20; ++c) specials.emplace_back(1, static_cast<char>(c));
  specials.emplace_back("\"");
  specials.emplace_back("\\");
  for (const auto& special : specials) {
    for (std::size_t before = 0; before <= 17; ++before) {
      for (std::size_t after : {0, 1, 7, 8, 9}) {
        const std::string text = std::string(before, 'a') + special + std::string(after, 'b');
        std::string out;
        json_text::append_string(out, text);
        ASSERT_EQ(out, Value(text).dump()) << "for " << Value(text).dump();
      }
    }
  }
}

TEST(JsonText, ValuesAreWrittenAsValueDumpWritesThem) {
  const Value samples[] = {
      nullptr,
      true,
      false,
      0,
      std::numeric_limits<std::int64_t>::min(),
      std::numeric_limits<std::int64_t>::max(),
      std::numeric_limits<std::uint64_t>::max(),
      -17,
      1.5,
      -0.0,
      1e300,
      1796061181196.1826,
      "caf\xc3\xa9 \"q\" \\ \n \x01",
      Value::array(),
      Value::object(),
      Value{{"pad", std::string(140, 'x')}, {"counter", 2}, {"t", 17.25}, {"s", "s000042"}},
      Value{{"a\"b", {1, "two", nullptr, {{"z", Value::array({Value::object()})}}}},
            {"\xe2\x82\xac", -1}},
  };
  for (const auto& value : samples) {
    std::string out;
    json_text::append_value(out, value);
    EXPECT_EQ(out, value.dump());
  }
}

// What is not UTF-8 is refused exactly where Value::dump() refuses it.
TEST(JsonText, ValuesThatAreNotUtf8AreRefusedAsValueDumpRefusesThem) {
  const std::string texts[] = {"\xff",
                               "\xc0\xaf",
                               "\xc3",
                               "\xe2\x82",
                               "\xed\xa0\x80",
                               "\xf4\x90\x80\x80",
                               "\xf8\x88\x80\x80\x80",
                               "\x80",
                               "a\xc3\xa9",
                               "\xf4\x8f\xbf\xbf",
                               "\xef\xbf\xbf",
                               "\xe0\xa0\x80"};
  // Each alone, and after ASCII the check passes over a word at a time.
  std::vector<std::string> cases;
  for (const auto& text : texts) {
    for (std::size_t ascii : {0, 7, 8, 17}) cases.push_back(std::string(ascii, 'a') + text);
  }
  for (const auto& text : cases) {
    const Value value{{"k", text}};
    bool dump_throws = false;
    std::string expected;
    try {
      expected = value.dump();
    } catch (const nlohmann::json::type_error&) {
      dump_throws = true;
    }
    std::string out;
    if (dump_throws) {
      EXPECT_THROW(json_text::append_value(out, value), nlohmann::json::type_error)
          << text.size() << " bytes";
    } else {
      json_text::append_value(out, value);
      EXPECT_EQ(out, expected);
    }
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
    Value step_names = Value::array();
    for (const auto& step : run.steps) step_names.push_back(step.name);
    const Value body{{"path", run.path},
                     {"value", run.value},
                     {"error", run.error ? Value(*run.error) : Value(nullptr)},
                     {"failed_step", Value(*run.failed_step)},
                     {"next_completion_seq", run.next_completion_seq},
                     {"step_names", step_names},
                     {"created_at_ms", run.created_at_ms}};
    EXPECT_EQ(c.headers[0].body, body.dump());
    // And it reads back as the same run.
    reactor::Run back = decode_header(c.headers[0]);
    EXPECT_EQ(back.value, run.value);
    EXPECT_EQ(back.failed_step, run.failed_step);
    EXPECT_EQ(back.error.has_value(), with_error);
  }
}

TEST(JsonText, RunsWrittenAsRowsReadBackWhole) {
  reactor::Run run = sample_run();
  run.inputs = Value{{"order", "o-1"}};
  run.error = RunError{};
  CommitRequest c;
  encode_whole_run(run, 0, c);
  StoredRun stored{c.headers, c.inputs, c.steps, c.trace, 7};
  reactor::Run back;
  ASSERT_TRUE(decode_run(stored, back).ok());
  EXPECT_EQ(run_to_json(back), run_to_json(run));
}

// A new run's steps are named by its header; a step gets a row of its own
// only once it changes, and reads back with its name either way.
TEST(JsonText, UntouchedStepsOfANewRunHaveNoRows) {
  reactor::Run run = sample_run();
  StepRecord waiting;
  waiting.name = "ship \"it\"";
  run.steps.push_back(waiting);
  CommitRequest c;
  encode_whole_run(run, 0, c);
  ASSERT_EQ(c.steps.size(), 2u);
  EXPECT_EQ(c.steps[0].index, 0u);
  EXPECT_EQ(c.steps[1].index, 1u);
  StoredRun stored{c.headers, c.inputs, c.steps, c.trace, 7};
  reactor::Run back;
  ASSERT_TRUE(decode_run(stored, back).ok());
  EXPECT_EQ(run_to_json(back), run_to_json(run));
  ASSERT_EQ(back.steps.size(), 3u);
  EXPECT_EQ(back.steps[2].name, waiting.name);
  EXPECT_EQ(back.steps[2].status, StepStatus::kPending);
}

// Headers written before steps were named (record version 1) count them, and
// every step has a row.
TEST(JsonText, HeadersThatCountStepsStillRead) {
  reactor::Run run = sample_run();
  CommitRequest c;
  encode_whole_run(run, 0, c);
  RunHeaderRow v1 = c.headers.front();
  v1.schema_version = 1;
  v1.body = R"({"created_at_ms":1,"error":null,"failed_step":null,"next_completion_seq":3,)"
            R"("path":"","step_count":2,"value":null})";
  StoredRun stored{{v1}, c.inputs, c.steps, c.trace, 7};
  reactor::Run back;
  ASSERT_TRUE(decode_run(stored, back).ok());
  ASSERT_EQ(back.steps.size(), 2u);
  EXPECT_EQ(back.steps[0].name, "reserve");
  EXPECT_EQ(back.steps[1].name, "charge");
  // A version this build does not know is refused, not misread.
  v1.schema_version = 3;
  stored.headers = {v1};
  EXPECT_EQ(decode_run(stored, back).code(), StatusCode::kCorruption);
}

std::string read_text_member(std::string_view object) {
  std::string out;
  json_text::read_object(object, {{"a", json_text::into(out)}});
  return out;
}

TEST(JsonTextReader, StringsReadBackAsWritten) {
  for (const auto& text : kSampleTexts) {
    std::string object;
    json_text::ObjectWriter(object).field("a", text).close();
    EXPECT_EQ(read_text_member(object), text) << object;
  }
  // Escapes another writer may use: \/, \u for any character, surrogate pairs.
  EXPECT_EQ(read_text_member(R"({"a":"\/\u0041\u00e9\u20ac\ud83d\ude00"})"),
            "/A\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80");
  EXPECT_EQ(read_text_member(R"({"\u0061":"keys too"})"), "keys too");
}

TEST(JsonTextReader, NumbersLiteralsAndValues) {
  std::int64_t i = 0;
  std::uint64_t u = 0;
  bool b = false;
  Value v, n;
  bool null_seen = false;
  json_text::read_object(
      R"( { "i" : -9223372036854775808 , "u":18446744073709551615,"b":true,
            "v":{"k":[1,2.5,"z"]}, "n":null } )",
      {{"i", [&](std::string_view t) { i = json_text::read_int64(t); }},
       {"u", [&](std::string_view t) { u = json_text::read_uint64(t); }},
       {"b", [&](std::string_view t) { b = json_text::read_bool(t); }},
       {"v", [&](std::string_view t) { v = json_text::read_value(t); }},
       {"n", [&](std::string_view t) {
          null_seen = json_text::is_null(t);
          n = json_text::read_value(t);
        }}});
  EXPECT_EQ(i, std::numeric_limits<std::int64_t>::min());
  EXPECT_EQ(u, std::numeric_limits<std::uint64_t>::max());
  EXPECT_TRUE(b);
  EXPECT_EQ(v, (Value{{"k", {1, 2.5, "z"}}}));
  EXPECT_TRUE(null_seen);
  EXPECT_TRUE(n.is_null());
}

TEST(JsonTextReader, MembersNotNamedAreSkippedWhateverTheyHold) {
  std::int64_t a = 0;
  json_text::read_object(
      R"({"x":{"y":["}",{"z":"]\"["}],"w":null},"a":1,"e":-0.5e+3,"l":[true,false,[]]})",
      {{"a", [&](std::string_view t) { a = json_text::read_int64(t); }}});
  EXPECT_EQ(a, 1);
  // Nesting deep enough to exhaust a recursive reader's stack.
  const std::string deep = std::string(200000, '[') + std::string(200000, ']');
  EXPECT_NO_THROW(json_text::read_object("{\"d\":" + deep + "}", {}));
}

TEST(JsonTextReader, MalformedTextThrowsAndAMissingMemberIsNamed) {
  const std::string bad[] = {
      "",
      "[]",
      R"({"a":1)",
      R"({"a":1}x)",
      R"({"a":1,})",
      R"({"a" 1})",
      R"({a:1})",
      R"({"a":01})",
      R"({"a":1.})",
      R"({"a":tru})",
      R"({"a":1,"s":"unterminated})",
      R"({"a":1,"s":"bad \q escape"})",
      R"({"a":1,"s":"bad \u12 escape"})",
      "{\"a\":1,\"s\":\"raw\ncontrol\"}",
      R"({"a":1,"o":[1,2})",
      R"({"a":1,"o":{"k":[1}]})",
      R"({"a":1,"o":[[[)",
      R"({"a":"1"})",
      R"({"a":1.5})",
  };
  for (const auto& text : bad) {
    EXPECT_THROW(json_text::read_object(
                     text, {{"a", [](std::string_view t) { (void)json_text::read_int64(t); }}}),
                 std::invalid_argument)
        << text;
  }
  EXPECT_THROW(read_text_member(R"({"a":"\ud83d alone"})"), std::invalid_argument);
  EXPECT_THROW(read_text_member(R"({"a":"\ude00 alone"})"), std::invalid_argument);
  try {
    json_text::read_object(R"({"a":1})",
                           {{"a", [](std::string_view) {}}, {"b", [](std::string_view) {}}});
    ADD_FAILURE() << "a missing member was not reported";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("'b'"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace reactor
