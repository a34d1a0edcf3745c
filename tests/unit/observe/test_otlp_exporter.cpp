// Tracing (docs/observability.md, "Tracing"): W3C traceparent parsing and formatting, the derived
// span ids, the OTLP/JSON encoding, and the exporter end to end against a receiver on loopback —
// one trace, each span's parent a span that was sent — and against a dead endpoint, where spans are
// dropped and counted and the run ends exactly as without tracing.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <httplib.h>

#include <map>
#include <mutex>
#include <set>
#include <thread>

#include "observe/otlp_json.hpp"
#include "reactor/reactor.hpp"
#include "reactor/trace_context.hpp"

namespace reactor {
namespace {

using namespace std::chrono_literals;
using ::testing::HasSubstr;

constexpr const char* kCaller = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

TEST(TraceParent, ParsesAndFormatsTheW3CForm) {
  Result<TraceContext> c = parse_traceparent(kCaller);
  ASSERT_TRUE(c.ok()) << c.status().to_string();
  EXPECT_EQ(c->trace_id, "4bf92f3577b34da6a3ce929d0e0e4736");
  EXPECT_EQ(c->span_id, "00f067aa0ba902b7");
  EXPECT_EQ(c->flags, 1);
  EXPECT_EQ(format_traceparent(*c), kCaller);
  EXPECT_EQ(format_traceparent({"0af7651916cd43dd8448eb211c80319c", "b7ad6b7169203331", 0}),
            "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-00");
}

TEST(TraceParent, RefusesMalformedTextWithATypedError) {
  for (const char* bad : {
           "",
           "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7",       // no flags
           "00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01",    // uppercase
           "ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",    // version ff
           "01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",    // version 01
           "00-00000000000000000000000000000000-00f067aa0ba902b7-01",    // zero trace id
           "00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01",    // zero span id
           "00-4bf92f3577b34da6a3ce929d0e0e473g-00f067aa0ba902b7-01",    // not hex
           "00_4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",    // separator
           "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-xx"  // too long
       }) {
    Result<TraceContext> c = parse_traceparent(bad);
    EXPECT_EQ(c.status().code(), StatusCode::kInvalidArgument) << bad;
    EXPECT_THAT(c.status().message(), HasSubstr("traceparent")) << bad;
  }
}

TEST(TraceParent, SpanIdsAreDerivedFromWhatNamesTheSpan) {
  const std::string a = derived_span_id("run-1", "charge", 1, "step");
  EXPECT_EQ(a, derived_span_id("run-1", "charge", 1, "step"));  // any process, same id
  EXPECT_EQ(a.size(), 16u);
  EXPECT_EQ(a.find_first_not_of("0123456789abcdef"), std::string::npos);
  std::set<std::string> ids{a,
                            derived_span_id("run-1", "charge", 2, "step"),
                            derived_span_id("run-1", "charge", 1, "compensate"),
                            derived_span_id("run-1", "charge", 1, "undo"),
                            derived_span_id("run-2", "charge", 1, "step"),
                            run_span_id("run-1", ""),
                            run_span_id("run-1", "m[0]")};
  EXPECT_EQ(ids.size(), 7u);
  EXPECT_EQ(derived_trace_id("run-1").size(), 32u);
  EXPECT_EQ(trace_id_of("", "run-1"), derived_trace_id("run-1"));
  EXPECT_EQ(trace_id_of(kCaller, "run-1"), "4bf92f3577b34da6a3ce929d0e0e4736");
  Result<TraceContext> child = parse_traceparent(child_trace_parent("", "run-1", ""));
  ASSERT_TRUE(child.ok());
  EXPECT_EQ(child->trace_id, derived_trace_id("run-1"));
  EXPECT_EQ(child->span_id, run_span_id("run-1", ""));
}

TEST(OtlpJson, EncodesASpanAsTheProtocolsJsonMapping) {
  SpanData s;
  s.trace_id = "4bf92f3577b34da6a3ce929d0e0e4736";
  s.span_id = "00f067aa0ba902b7";
  s.parent_span_id = "b7ad6b7169203331";
  s.name = "step charge";
  s.start_unix_ns = 1700000000000000001;
  s.end_unix_ns = 1700000000500000000;
  s.text_attributes = {{"reactor.step", "charge"}};
  s.int_attributes = {{"reactor.attempt", 2}};
  s.error = true;
  s.message = "card declined";
  const nlohmann::json body =
      nlohmann::json::parse(otlp_traces_body("shop", {span_to_otlp(s), span_to_otlp(SpanData{})}));
  const nlohmann::json& rs = body.at("resourceSpans").at(0);
  EXPECT_EQ(rs.at("resource").at("attributes").at(0),
            (nlohmann::json{{"key", "service.name"}, {"value", {{"stringValue", "shop"}}}}));
  const nlohmann::json& spans = rs.at("scopeSpans").at(0).at("spans");
  ASSERT_EQ(spans.size(), 2u);
  const nlohmann::json& j = spans.at(0);
  EXPECT_EQ(j.at("traceId"), s.trace_id);
  EXPECT_EQ(j.at("spanId"), s.span_id);
  EXPECT_EQ(j.at("parentSpanId"), s.parent_span_id);
  EXPECT_EQ(j.at("name"), "step charge");
  EXPECT_EQ(j.at("startTimeUnixNano"), "1700000000000000001");  // a string: int64 in JSON
  EXPECT_EQ(j.at("endTimeUnixNano"), "1700000000500000000");
  EXPECT_EQ(j.at("attributes").at(0),
            (nlohmann::json{{"key", "reactor.step"}, {"value", {{"stringValue", "charge"}}}}));
  EXPECT_EQ(j.at("attributes").at(1),
            (nlohmann::json{{"key", "reactor.attempt"}, {"value", {{"intValue", "2"}}}}));
  EXPECT_EQ(j.at("status"), (nlohmann::json{{"code", 2}, {"message", "card declined"}}));
  EXPECT_FALSE(spans.at(1).contains("parentSpanId"));  // a root span has none
  EXPECT_EQ(spans.at(1).at("status"), (nlohmann::json{{"code", 1}}));
}

// An OTLP/HTTP receiver on loopback that keeps every span it is sent.
class Receiver {
 public:
  Receiver() {
    server_.Post("/v1/traces", [this](const httplib::Request& req, httplib::Response& res) {
      const nlohmann::json body = nlohmann::json::parse(req.body);
      std::lock_guard lock(mu_);
      for (const auto& rs : body.at("resourceSpans")) {
        for (const auto& ss : rs.at("scopeSpans")) {
          for (const auto& span : ss.at("spans")) spans_.push_back(span);
        }
      }
      res.set_content("{}", "application/json");
    });
    port_ = server_.bind_to_any_port("127.0.0.1");
    thread_ = std::thread([this] { server_.listen_after_bind(); });
    // Bound and listening already: a request waits in the backlog. Stop only a running server.
    for (int i = 0; i < 2000 && !server_.is_running(); ++i) std::this_thread::sleep_for(1ms);
  }
  ~Receiver() {
    server_.stop();
    thread_.join();
  }
  std::string endpoint() const { return "http://127.0.0.1:" + std::to_string(port_); }
  std::vector<nlohmann::json> spans() const {
    std::lock_guard lock(mu_);
    return spans_;
  }

 private:
  httplib::Server server_;
  int port_ = 0;
  std::thread thread_;
  mutable std::mutex mu_;
  std::vector<nlohmann::json> spans_;
};

std::string attribute(const nlohmann::json& span, const std::string& key) {
  for (const auto& a : span.at("attributes")) {
    if (a.at("key") != key) continue;
    const auto& v = a.at("value");
    return v.contains("stringValue") ? v.at("stringValue").get<std::string>()
                                     : v.at("intValue").get<std::string>();
  }
  return "<none>";
}

// charge fails once and is retried; ship fails for good: ship is compensated, charge undone.
Definition shop() {
  auto tries = std::make_shared<std::atomic<int>>(0);
  return Builder("TracedShop")
      .step("charge",
            [tries](const Args&) -> StepResult {
              if (tries->fetch_add(1) == 0) return Failure("gateway timeout");
              return Success(10);
            })
      .retries(fixed_backoff(3, 1ms))
      .undo([](const Value&, const Args&, StepContext&) -> StepResult { return Success(); })
      .step("ship", [](const Args&) -> StepResult { return Failure("no courier", false); })
      .wait_for("charge")
      .compensate(
          [](const std::string&, const Args&, StepContext&) -> StepResult { return Success(); })
      .build();
}

std::unique_ptr<Engine> engine_with(std::shared_ptr<Observer> exporter) {
  EngineOptions options;
  options.observers.push_back(std::move(exporter));
  return std::make_unique<Engine>(std::move(options));
}

TEST(OtlpExporter, SendsOneTraceWhoseSpansHangFromTheCallersSpan) {
  Receiver receiver;
  OtlpOptions o;
  o.endpoint = receiver.endpoint();
  auto exporter = std::make_shared<OtlpExporter>(o);
  auto engine = engine_with(exporter);
  RunOptions run_options;
  run_options.traceparent = kCaller;
  RunResult r = engine->run(shop(), Value::object(), run_options);
  ASSERT_EQ(r.status, RunStatus::kFailed);
  ASSERT_TRUE(exporter->flush(10s));
  EXPECT_EQ(exporter->dropped(), 0u);

  std::map<std::string, nlohmann::json> by_name;  // the last of each name
  std::set<std::string> ids;
  for (const auto& s : receiver.spans()) {
    EXPECT_EQ(s.at("traceId"), "4bf92f3577b34da6a3ce929d0e0e4736");
    ids.insert(s.at("spanId").get<std::string>());
    by_name[s.at("name").get<std::string>() + "#" + attribute(s, "reactor.attempt")] = s;
  }
  // run, charge attempt 1 (retry) and 2, ship, compensate ship, undo charge.
  EXPECT_EQ(receiver.spans().size(), 6u) << ::testing::PrintToString(by_name);
  EXPECT_EQ(exporter->exported(), 6u);
  const nlohmann::json& run = by_name.at("run TracedShop#<none>");
  EXPECT_EQ(run.at("parentSpanId"), "00f067aa0ba902b7");
  EXPECT_EQ(run.at("spanId"), run_span_id(r.run_id, ""));
  EXPECT_EQ(attribute(run, "reactor.run_id"), r.run_id);
  EXPECT_EQ(attribute(run, "reactor.outcome"), "failed");
  EXPECT_EQ(run.at("status").at("code"), 2);
  const nlohmann::json& first = by_name.at("step charge#1");
  EXPECT_EQ(attribute(first, "reactor.outcome"), "retry");
  EXPECT_EQ(first.at("status").at("message"), "gateway timeout");
  EXPECT_EQ(attribute(by_name.at("step charge#2"), "reactor.outcome"), "success");
  EXPECT_EQ(by_name.at("step ship#1").at("status").at("message"), "no courier");
  EXPECT_EQ(attribute(by_name.at("compensate ship#0"), "reactor.step"), "ship");
  EXPECT_EQ(attribute(by_name.at("undo charge#0"), "reactor.outcome"), "success");
  for (const auto& [name, s] : by_name) {
    if (name.rfind("run ", 0) == 0) continue;
    EXPECT_EQ(s.at("parentSpanId"), run.at("spanId")) << name;  // under the run's span
    EXPECT_EQ(attribute(s, "reactor.name"), "TracedShop");
    EXPECT_EQ(attribute(s, "reactor.fencing_token"), "0");  // in process: no lease
    EXPECT_LE(std::stoll(s.at("startTimeUnixNano").get<std::string>()),
              std::stoll(s.at("endTimeUnixNano").get<std::string>()));
  }
}

TEST(OtlpExporter, ADeadEndpointDropsAndCountsSpansAndChangesNothingInTheRun) {
  RunResult plain = engine_with(std::make_shared<Observer>())->run(shop(), Value::object());
  OtlpOptions o;
  o.endpoint = "http://127.0.0.1:1";  // nothing listens on port 1
  o.timeout = 200ms;
  auto exporter = std::make_shared<OtlpExporter>(o);
  RunResult traced = engine_with(exporter)->run(shop(), Value::object());
  EXPECT_EQ(traced.status, plain.status);
  EXPECT_EQ(traced.trace_summary(), plain.trace_summary());
  ASSERT_TRUE(exporter->flush(10s));
  EXPECT_EQ(exporter->dropped(), 6u);
  EXPECT_EQ(exporter->exported(), 0u);
}

TEST(OtlpExporter, AFullQueueDropsSpansRatherThanWait) {
  OtlpOptions o;
  o.endpoint = "http://127.0.0.1:1";
  o.timeout = 200ms;
  o.max_queue = 1;
  auto exporter = std::make_shared<OtlpExporter>(o);
  const std::string run = "r", reactor = "R", step = "s";
  for (int i = 0; i < 50; ++i)
    exporter->on_step_complete({run, reactor, step, 1}, Outcome::kSuccess);
  ASSERT_TRUE(exporter->flush(10s));
  EXPECT_EQ(exporter->dropped(), 50u);  // refused by the queue or by the dead endpoint
  EXPECT_EQ(exporter->exported(), 0u);
}

TEST(OtlpExporter, RefusesAnEndpointThatIsNoHttpUrl) {
  OtlpOptions o;
  o.endpoint = "127.0.0.1:4318";
  EXPECT_THROW(OtlpExporter{o}, std::invalid_argument);
  o.endpoint = "";
  EXPECT_THROW(OtlpExporter{o}, std::invalid_argument);
}

}  // namespace
}  // namespace reactor
