// Middleware (observers): every hook fires, in order, for successful and failing runs; an
// observer that throws is logged and never changes the run; LogMiddleware writes one
// key=value line per event carrying run id, reactor and step.
#include <mutex>
#include <sstream>
#include <stdexcept>

#include "unit/engine_test_support.hpp"

using namespace reactor;
using namespace reactor_test;
using std::chrono::milliseconds;
using ::testing::HasSubstr;

namespace {

// a (undo ok) -> b (undo fails) -> c (fails, retried once; compensate fails or not)
Definition failing_saga(bool compensate_fails,
                        std::vector<std::shared_ptr<Observer>> observers = {}) {
  Builder b("Failing");
  for (auto& o : observers) b.observe(o);
  b.step("a", [](const Args&) { return Success(1); })
      .undo([](const Value&, const Args&, StepContext&) { return Success(); })
      .step("b", [](const Args&) { return Success(2); })
      .wait_for("a")
      .undo([](const Value&, const Args&, StepContext&) { return Failure("ledger locked"); })
      .step("c",
            [](const Args&, StepContext& ctx) {
              return Failure("card declined: try again", ctx.attempt() < 2);
            })
      .wait_for("b")
      .retries(fixed_backoff(3, milliseconds(10)))
      .compensate([compensate_fails](const std::string&, const Args&, StepContext&) {
        return compensate_fails ? Failure("refund down") : Success();
      });
  return b.build();
}

Definition two_steps(std::vector<std::shared_ptr<Observer>> observers = {}) {
  Builder b("Two");
  for (auto& o : observers) b.observe(o);
  b.step("a", [](const Args&) { return Success(1); }).step("b", [](const Args&) {
    return Success(2);
  });
  return b.build();
}

// Parses "k=v k2=\"quoted \\\"v\\\"\"" into pairs.
std::vector<std::pair<std::string, std::string>> parse_logfmt(const std::string& line) {
  std::vector<std::pair<std::string, std::string>> out;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && line[i] == ' ') ++i;
    if (i >= line.size()) break;
    std::size_t eq = line.find('=', i);
    if (eq == std::string::npos) {
      ADD_FAILURE() << "token without '=' in: " << line;
      break;
    }
    std::string key = line.substr(i, eq - i);
    std::string value;
    i = eq + 1;
    if (i < line.size() && line[i] == '"') {
      ++i;
      while (i < line.size() && line[i] != '"') {
        if (line[i] == '\\' && i + 1 < line.size()) ++i;
        value += line[i++];
      }
      ++i;  // closing quote
    } else {
      while (i < line.size() && line[i] != ' ') value += line[i++];
    }
    out.emplace_back(std::move(key), std::move(value));
  }
  return out;
}

std::string get(const std::vector<std::pair<std::string, std::string>>& kv,
                const std::string& key) {
  for (const auto& [k, v] : kv) {
    if (k == key) return v;
  }
  return "<none>";
}

struct ThrowingObserver : Observer {
  bool throw_std = true;
  [[noreturn]] void boom() {
    if (throw_std) throw std::runtime_error("observer bug");
    throw 7;
  }
  void on_run_start(const EventContext&, const Value&) override { boom(); }
  void on_run_complete(const EventContext&, RunStatus) override { boom(); }
  void on_run_fail(const EventContext&, const RunError&) override { boom(); }
  void on_step_start(const EventContext&) override { boom(); }
  void on_step_complete(const EventContext&, Outcome) override { boom(); }
  void on_step_fail(const EventContext&, const std::string&) override { boom(); }
  void on_step_retry(const EventContext&, Duration, const std::string&) override { boom(); }
  void on_compensate_start(const EventContext&) override { boom(); }
  void on_compensate_complete(const EventContext&) override { boom(); }
  void on_compensate_fail(const EventContext&, const std::string&) override { boom(); }
  void on_undo_start(const EventContext&) override { boom(); }
  void on_undo_complete(const EventContext&) override { boom(); }
  void on_undo_fail(const EventContext&, const std::string&) override { boom(); }
};

}  // namespace

TEST(Middleware, HooksFireInOrderForASuccessfulRun) {
  auto rec = std::make_shared<RecordingObserver>();
  Engine engine;
  RunResult r = engine.run(two_steps({rec}), Value::object());
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(rec->events(),
            (std::vector<std::string>{
                "run_start [Two]", "step_start a#1", "step_complete(success) a#1", "step_start b#1",
                "step_complete(success) b#1", "run_complete(completed) [Two]"}));
}

TEST(Middleware, HooksFireInOrderForAFailingRun) {
  auto rec = std::make_shared<RecordingObserver>();
  Engine engine(with_clock(manual_clock()));
  RunResult r = engine.run(failing_saga(true, {rec}), Value::object());
  ASSERT_EQ(r.status, RunStatus::kFailed);
  EXPECT_EQ(
      rec->events(),
      (std::vector<std::string>{
          "run_start [Failing]", "step_start a#1", "step_complete(success) a#1", "step_start b#1",
          "step_complete(success) b#1", "step_start c#1", "step_retry c#1", "step_start c#2",
          "step_fail c#2", "compensate_start c", "compensate_fail c", "undo_start b", "undo_fail b",
          "undo_start a", "undo_complete a", "run_fail [Failing]"}));
}

TEST(Middleware, CompensateCompleteSkippedAndHaltEvents) {
  auto rec = std::make_shared<RecordingObserver>();
  Engine engine(with_clock(manual_clock()));
  RunResult failed = engine.run(failing_saga(false, {rec}), Value::object());
  ASSERT_EQ(failed.status, RunStatus::kFailed);
  EXPECT_THAT(rec->events(),
              ::testing::IsSupersetOf({"compensate_start c", "compensate_complete c"}));

  auto rec2 = std::make_shared<RecordingObserver>();
  Definition d = Builder("SkipThenHalt")
                     .observe(rec2)
                     .step("s", [](const Args&) { return Skipped(); })
                     .step("h", [](const Args&) { return Halt("wait"); })
                     .wait_for("s")
                     .build();
  RunResult halted = engine.run(d, Value::object());
  ASSERT_EQ(halted.status, RunStatus::kHalted);
  EXPECT_EQ(rec2->events(), (std::vector<std::string>{"run_start [SkipThenHalt]", "step_start s#1",
                                                      "step_complete(skipped) s#1",
                                                      "step_start h#1", "step_complete(halt) h#1",
                                                      "run_complete(halted) [SkipThenHalt]"}));
}

TEST(Middleware, ComposedChildEventsCarryTheChildReactorAndStepPaths) {
  auto rec = std::make_shared<RecordingObserver>();
  Definition child =
      Builder("Payment").step("charge", [](const Args&) { return Success(); }).build();
  Definition parent = Builder("Order").observe(rec).compose("payment", child).build();
  Engine engine;
  ASSERT_TRUE(engine.run(parent, Value::object()).ok());
  EXPECT_EQ(rec->events(),
            (std::vector<std::string>{
                "run_start [Order]", "step_start payment#1", "run_start [Payment]",
                "step_start payment/charge#1", "step_complete(success) payment/charge#1",
                "run_complete(completed) [Payment]", "step_complete(success) payment#1",
                "run_complete(completed) [Order]"}));
}

TEST(Middleware, EngineObserversComeBeforeTheReactorsOwn) {
  Journal order;
  struct Tagged : Observer {
    Journal& j;
    std::string tag;
    Tagged(Journal& jj, std::string t) : j(jj), tag(std::move(t)) {}
    void on_step_start(const EventContext& c) override { j.add(tag + " " + c.step); }
  };
  EngineOptions o;
  o.observers = {std::make_shared<Tagged>(order, "engine")};
  Engine engine(o);
  ASSERT_TRUE(
      engine.run(two_steps({std::make_shared<Tagged>(order, "reactor")}), Value::object()).ok());
  EXPECT_EQ(order.entries(),
            (std::vector<std::string>{"engine a", "reactor a", "engine b", "reactor b"}));
}

TEST(Middleware, ThrowingObserverNeverBreaksTheRunAndIsLogged) {
  Engine plain(with_clock(manual_clock()));
  RunOptions opts;
  opts.run_id = "same-id";
  const RunResult expected = plain.run(failing_saga(true), Value::object(), opts);

  for (bool std_exception : {true, false}) {
    auto thrower = std::make_shared<ThrowingObserver>();
    thrower->throw_std = std_exception;
    auto rec = std::make_shared<RecordingObserver>();
    EngineOptions o = with_clock(manual_clock());
    o.observers = {thrower};
    Engine engine(o);
    ::testing::internal::CaptureStderr();
    const RunResult r = engine.run(failing_saga(true, {rec}), Value::object(), opts);
    const std::string err = ::testing::internal::GetCapturedStderr();
    EXPECT_EQ(to_json(without_timestamps(r)), to_json(without_timestamps(expected)))
        << std_exception;
    // The observer after the throwing one still saw every event.
    EXPECT_EQ(rec->events().size(), 16u);
    EXPECT_EQ(rec->events().back(), "run_fail [Failing]");
    EXPECT_THAT(err, HasSubstr("observer threw")) << std_exception;
    EXPECT_THAT(err, HasSubstr(std_exception ? "observer bug" : "unknown exception"));
  }
}

// EngineOptions::logger takes what an observer throws, instead of stderr.
TEST(Middleware, AnObserversExceptionGoesToTheEnginesLogger) {
  struct Recording final : Logger {
    void log(LogLevel level, std::string_view message) override {
      std::lock_guard lock(mu);
      lines.push_back(std::string(to_string(level)) + " " + std::string(message));
    }
    std::mutex mu;
    std::vector<std::string> lines;
  };
  auto logger = std::make_shared<Recording>();
  auto thrower = std::make_shared<ThrowingObserver>();
  EngineOptions o = with_clock(manual_clock());
  o.observers = {thrower};
  o.logger = logger;
  Engine engine(o);
  ::testing::internal::CaptureStderr();
  (void)engine.run(failing_saga(true), Value::object());
  EXPECT_EQ(::testing::internal::GetCapturedStderr(), "");
  ASSERT_FALSE(logger->lines.empty());
  EXPECT_THAT(logger->lines.front(), HasSubstr("error observer threw in "));
  EXPECT_THAT(logger->lines.front(), HasSubstr(": observer bug (ignored)"));
  EXPECT_EQ(&engine.logger(), logger.get());
}

TEST(Middleware, LogMiddlewareWritesOneKeyValueLinePerEvent) {
  std::ostringstream out;
  auto rec = std::make_shared<RecordingObserver>();
  EngineOptions o = with_clock(manual_clock());
  o.observers = {std::make_shared<LogMiddleware>(out), rec};
  Engine engine(o);
  RunOptions opts;
  opts.run_id = "run-7";
  RunResult r = engine.run(failing_saga(true), Value::object(), opts);
  ASSERT_EQ(r.status, RunStatus::kFailed);

  std::vector<std::string> lines;
  std::istringstream in(out.str());
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  const auto events = rec->events();
  ASSERT_EQ(lines.size(), events.size()) << out.str();

  for (std::size_t k = 0; k < lines.size(); ++k) {
    SCOPED_TRACE(lines[k]);
    auto kv = parse_logfmt(lines[k]);
    ASSERT_GE(kv.size(), 4u);
    EXPECT_EQ(kv[0].first, "ts");
    EXPECT_EQ(kv[1].first, "event");
    EXPECT_EQ(get(kv, "run"), "run-7");
    EXPECT_EQ(get(kv, "reactor"), "Failing");
    // Same event, same order as the recording observer saw.
    const std::string& ev = events[k];
    EXPECT_EQ(ev.rfind(get(kv, "event"), 0), 0u) << ev;
    const bool run_event = ev.find('[') != std::string::npos;
    if (run_event) {
      EXPECT_EQ(get(kv, "step"), "<none>");
    } else {
      const std::string step = ev.substr(ev.find(' ') + 1, 1);  // a, b or c
      EXPECT_EQ(get(kv, "step"), step);
      EXPECT_NE(get(kv, "attempt"), "<none>");
    }
  }
  // Messages with spaces are quoted and read back whole.
  auto fail_line = parse_logfmt(lines[8]);
  EXPECT_EQ(get(fail_line, "event"), "step_fail");
  EXPECT_EQ(get(fail_line, "message"), "card declined: try again");
  EXPECT_EQ(get(parse_logfmt(lines[6]), "delay_ms"), "10");
  EXPECT_EQ(get(parse_logfmt(lines.back()), "error_kind"), "compensation_failed");
  EXPECT_EQ(get(parse_logfmt(lines.back()), "error_step"), "c");
}
