#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "reactor/log_middleware.hpp"

namespace reactor {
namespace {

using namespace std::chrono_literals;
using ::testing::ElementsAre;

struct LogLine {
  std::vector<std::string> keys;  // in order of appearance
  std::map<std::string, std::string> values;
};

// A strict logfmt reader: key=value pairs separated by single spaces, values either bare or
// double-quoted with \" \\ \n \r \t escapes.
LogLine parse(const std::string& line) {
  LogLine out;
  std::size_t i = 0;
  while (i < line.size()) {
    const std::size_t eq = line.find('=', i);
    EXPECT_NE(eq, std::string::npos) << line;
    if (eq == std::string::npos) break;
    std::string key = line.substr(i, eq - i);
    std::string value;
    i = eq + 1;
    if (i < line.size() && line[i] == '"') {
      ++i;
      while (i < line.size() && line[i] != '"') {
        if (line[i] == '\\' && i + 1 < line.size()) {
          const char c = line[++i];
          value += c == 'n' ? '\n' : c == 'r' ? '\r' : c == 't' ? '\t' : c;
        } else {
          value += line[i];
        }
        ++i;
      }
      EXPECT_LT(i, line.size()) << "unterminated quote: " << line;
      ++i;  // closing quote
    } else {
      const std::size_t end = line.find(' ', i);
      value = line.substr(i, end == std::string::npos ? std::string::npos : end - i);
      i = end == std::string::npos ? line.size() : end;
    }
    if (i < line.size()) {
      EXPECT_EQ(line[i], ' ') << line;
      ++i;
    }
    out.keys.push_back(key);
    out.values[key] = value;
  }
  return out;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

class LogMiddlewareTest : public ::testing::Test {
 protected:
  LogLine only_line() {
    const std::string text = out_.str();
    EXPECT_FALSE(text.empty());
    EXPECT_EQ(text.back(), '\n');
    const std::vector<std::string> lines = lines_of(text);
    EXPECT_EQ(lines.size(), 1u) << text;
    return parse(lines.at(0));
  }

  std::ostringstream out_;
  LogMiddleware log_{out_};
  const std::string run_id_ = "3f2a-run";
  const std::string reactor_ = "OrderSaga";
  const std::string no_step_;
  const std::string step_ = "payment/charge";
  EventContext run_ctx_{run_id_, reactor_, no_step_, 0};
  EventContext step_ctx_{run_id_, reactor_, step_, 2};
};

TEST_F(LogMiddlewareTest, TimestampIsIsoUtcWithMilliseconds) {
  log_.on_step_start(step_ctx_);
  const LogLine l = only_line();
  ASSERT_FALSE(l.keys.empty());
  EXPECT_EQ(l.keys[0], "ts");
  EXPECT_TRUE(std::regex_match(l.values.at("ts"),
                               std::regex(R"(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z)")))
      << l.values.at("ts");
}

TEST_F(LogMiddlewareTest, RunStartLogsRedactedInputsAsJson) {
  log_.on_run_start(run_ctx_, Value{{"card", "[REDACTED]"}, {"order_id", 42}});
  const LogLine l = only_line();
  EXPECT_THAT(l.keys, ElementsAre("ts", "event", "run", "reactor", "inputs"));
  EXPECT_EQ(l.values.at("event"), "run_start");
  EXPECT_EQ(l.values.at("run"), "3f2a-run");
  EXPECT_EQ(l.values.at("reactor"), "OrderSaga");
  EXPECT_EQ(Value::parse(l.values.at("inputs")), (Value{{"card", "[REDACTED]"}, {"order_id", 42}}));
}

TEST_F(LogMiddlewareTest, RunCompleteAndFail) {
  log_.on_run_complete(run_ctx_, RunStatus::kCompleted);
  RunError error;
  error.kind = ErrorKind::kTimeout;
  error.step = "payment/charge";
  error.message = "gave up after 3 attempts";
  log_.on_run_fail(run_ctx_, error);
  const std::vector<std::string> lines = lines_of(out_.str());
  ASSERT_EQ(lines.size(), 2u);
  const LogLine done = parse(lines[0]);
  EXPECT_THAT(done.keys, ElementsAre("ts", "event", "run", "reactor", "status"));
  EXPECT_EQ(done.values.at("event"), "run_complete");
  EXPECT_EQ(done.values.at("status"), "completed");
  const LogLine failed = parse(lines[1]);
  EXPECT_THAT(failed.keys,
              ElementsAre("ts", "event", "run", "reactor", "error_kind", "error_step", "message"));
  EXPECT_EQ(failed.values.at("event"), "run_fail");
  EXPECT_EQ(failed.values.at("error_kind"), "timeout");
  EXPECT_EQ(failed.values.at("error_step"), "payment/charge");
  EXPECT_EQ(failed.values.at("message"), "gave up after 3 attempts");
}

TEST_F(LogMiddlewareTest, InputErrorHasAnEmptyErrorStep) {
  RunError error;
  error.kind = ErrorKind::kInputInvalid;
  error.message = "invalid inputs";
  log_.on_run_fail(run_ctx_, error);
  const LogLine l = only_line();
  EXPECT_EQ(l.values.at("error_kind"), "input_invalid");
  EXPECT_EQ(l.values.at("error_step"), "");
  EXPECT_NE(out_.str().find("error_step=\"\""), std::string::npos);
}

TEST_F(LogMiddlewareTest, StepEventsCarryStepAndAttempt) {
  log_.on_step_start(step_ctx_);
  log_.on_step_complete(step_ctx_, Outcome::kSuccess);
  log_.on_step_fail(step_ctx_, "card declined");
  log_.on_step_retry(step_ctx_, 1500ms, "timeout");
  const std::vector<std::string> lines = lines_of(out_.str());
  ASSERT_EQ(lines.size(), 4u);

  const LogLine start = parse(lines[0]);
  EXPECT_THAT(start.keys, ElementsAre("ts", "event", "run", "reactor", "step", "attempt"));
  EXPECT_EQ(start.values.at("event"), "step_start");
  EXPECT_EQ(start.values.at("step"), "payment/charge");
  EXPECT_EQ(start.values.at("attempt"), "2");

  const LogLine complete = parse(lines[1]);
  EXPECT_EQ(complete.values.at("event"), "step_complete");
  EXPECT_EQ(complete.values.at("outcome"), "success");

  const LogLine fail = parse(lines[2]);
  EXPECT_EQ(fail.values.at("event"), "step_fail");
  EXPECT_EQ(fail.values.at("message"), "card declined");

  const LogLine retry = parse(lines[3]);
  EXPECT_THAT(retry.keys, ElementsAre("ts", "event", "run", "reactor", "step", "attempt",
                                      "delay_ms", "message"));
  EXPECT_EQ(retry.values.at("event"), "step_retry");
  EXPECT_EQ(retry.values.at("delay_ms"), "1500");
  EXPECT_EQ(retry.values.at("message"), "timeout");
}

TEST_F(LogMiddlewareTest, RollbackEvents) {
  log_.on_compensate_start(step_ctx_);
  log_.on_compensate_complete(step_ctx_);
  log_.on_compensate_fail(step_ctx_, "refund failed");
  log_.on_undo_start(step_ctx_);
  log_.on_undo_complete(step_ctx_);
  log_.on_undo_fail(step_ctx_, "release failed");
  std::vector<std::string> events;
  std::vector<std::string> messages;
  for (const std::string& line : lines_of(out_.str())) {
    const LogLine l = parse(line);
    EXPECT_EQ(l.values.at("step"), "payment/charge");
    events.push_back(l.values.at("event"));
    if (l.values.count("message")) messages.push_back(l.values.at("message"));
  }
  EXPECT_THAT(events, ElementsAre("compensate_start", "compensate_complete", "compensate_fail",
                                  "undo_start", "undo_complete", "undo_fail"));
  EXPECT_THAT(messages, ElementsAre("refund failed", "release failed"));
}

TEST_F(LogMiddlewareTest, HandOffAndAsyncDispatchSayWhereAndWhichRun) {
  log_.on_hand_off(step_ctx_, "after");
  log_.on_async_dispatch(step_ctx_, run_id_ + ":payment/charge[0]");
  const std::vector<std::string> lines = lines_of(out_.str());
  ASSERT_EQ(lines.size(), 2u);
  const LogLine hand_off = parse(lines[0]);
  EXPECT_EQ(hand_off.values.at("event"), "hand_off");
  EXPECT_EQ(hand_off.values.at("where"), "after");
  const LogLine dispatch = parse(lines[1]);
  EXPECT_EQ(dispatch.values.at("event"), "async_dispatch");
  EXPECT_EQ(dispatch.values.at("run"), run_id_);
  EXPECT_EQ(dispatch.values.at("reactor"), reactor_);
  EXPECT_EQ(dispatch.values.at("step"), "payment/charge");
  EXPECT_EQ(dispatch.values.at("unit_run"), run_id_ + ":payment/charge[0]");
}

TEST_F(LogMiddlewareTest, MultiLineMessageStaysOnOneLine) {
  log_.on_step_fail(step_ctx_, "line one\nline \"two\" a=b \\ end");
  const LogLine l = only_line();
  EXPECT_EQ(l.values.at("message"), "line one\nline \"two\" a=b \\ end");
}

TEST_F(LogMiddlewareTest, LinesFromManyThreadsNeverInterleave) {
  constexpr int kThreads = 4;
  constexpr int kLines = 200;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([this, t] {
      const std::string step = "step" + std::to_string(t);
      const EventContext ctx{run_id_, reactor_, step, 1};
      for (int i = 0; i < kLines; ++i)
        log_.on_step_fail(ctx, "message number " + std::to_string(i));
    });
  }
  for (std::thread& th : threads) th.join();
  const std::vector<std::string> lines = lines_of(out_.str());
  ASSERT_EQ(lines.size(), static_cast<std::size_t>(kThreads * kLines));
  std::map<std::string, int> per_step;
  for (const std::string& line : lines) {
    const LogLine l = parse(line);
    EXPECT_EQ(l.values.at("event"), "step_fail");
    ++per_step[l.values.at("step")];
  }
  for (int t = 0; t < kThreads; ++t) EXPECT_EQ(per_step["step" + std::to_string(t)], kLines);
}

TEST(LogfmtValueTest, BareWhenSafe) {
  EXPECT_EQ(logfmt_value("success"), "success");
  EXPECT_EQ(logfmt_value("items[2]/charge"), "items[2]/charge");
  EXPECT_EQ(logfmt_value("a\\b"), "a\\b");
}

TEST(LogfmtValueTest, QuotedWhenEmptyOrSpecial) {
  EXPECT_EQ(logfmt_value(""), "\"\"");
  EXPECT_EQ(logfmt_value("card declined"), "\"card declined\"");
  EXPECT_EQ(logfmt_value("a=b"), "\"a=b\"");
  EXPECT_EQ(logfmt_value("say \"hi\""), "\"say \\\"hi\\\"\"");
  EXPECT_EQ(logfmt_value("back\\slash and space"), "\"back\\\\slash and space\"");
  EXPECT_EQ(logfmt_value("tab\there"), "\"tab\\there\"");
  EXPECT_EQ(logfmt_value("nl\n"), "\"nl\\n\"");
  EXPECT_EQ(logfmt_value(std::string("bell\x07")), "\"bell\\u0007\"");
}

}  // namespace
}  // namespace reactor
