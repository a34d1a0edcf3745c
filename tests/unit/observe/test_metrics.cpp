// Metrics: the registry's exposition is strict Prometheus text 0.0.4 (escaped labels, cumulative
// histogram buckets); bad use is a typed error; a known workload counts exactly what happened;
// MetricsServer serves /metrics and refuses a port in use.
#include <httplib.h>

#include "reactor/metered_backend.hpp"
#include "reactor/metrics.hpp"
#include "reactor/metrics_observer.hpp"
#include "reactor/metrics_server.hpp"
#include "reactor/worker.hpp"
#include "support/exposition_parser.hpp"
#include "unit/engine_test_support.hpp"

using namespace reactor;
using namespace reactor_test;
using reactor::testing_support::Exposition;
using reactor::testing_support::parse_exposition;
using std::chrono::milliseconds;

namespace {

Exposition parsed(MetricsRegistry& r) {
  std::string error;
  Exposition e = parse_exposition(r.exposition(), error);
  EXPECT_EQ(error, "") << r.exposition();
  return e;
}

TEST(MetricsRegistry, RendersCountersGaugesAndEscapedLabels) {
  MetricsRegistry r;
  r.counter("reactor_things_total", "Things.\nSecond line \\ here.", {"kind"});
  r.gauge("reactor_depth", "Depth.");
  r.add("reactor_things_total", {"a\"b\\c\nd"});
  r.add("reactor_things_total", {"a\"b\\c\nd"}, 2);
  r.set("reactor_depth", {}, 2.5);
  const std::string text = r.exposition();
  EXPECT_NE(text.find("# HELP reactor_things_total Things.\\nSecond line \\\\ here.\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("reactor_things_total{kind=\"a\\\"b\\\\c\\nd\"} 3\n"), std::string::npos)
      << text;
  Exposition e = parsed(r);
  EXPECT_EQ(e.types.at("reactor_things_total"), "counter");
  EXPECT_EQ(e.value("reactor_things_total", {{"kind", "a\"b\\c\nd"}}), 3);
  EXPECT_EQ(e.value("reactor_depth"), 2.5);
}

TEST(MetricsRegistry, HistogramBucketsAreCumulativeWithSumAndCount) {
  MetricsRegistry r;
  r.histogram("reactor_wait_seconds", "Waits.", {"q"}, {0.1, 1, 10});
  for (double v : {0.05, 0.1, 0.5, 3.0, 50.0}) r.observe("reactor_wait_seconds", {"x"}, v);
  Exposition e = parsed(r);
  EXPECT_EQ(e.value("reactor_wait_seconds_bucket", {{"q", "x"}, {"le", "0.10000000000000001"}}), 2);
  EXPECT_EQ(e.value("reactor_wait_seconds_bucket", {{"q", "x"}, {"le", "1"}}), 3);
  EXPECT_EQ(e.value("reactor_wait_seconds_bucket", {{"q", "x"}, {"le", "10"}}), 4);
  EXPECT_EQ(e.value("reactor_wait_seconds_bucket", {{"q", "x"}, {"le", "+Inf"}}), 5);
  EXPECT_EQ(e.value("reactor_wait_seconds_count", {{"q", "x"}}), 5);
  EXPECT_DOUBLE_EQ(e.value("reactor_wait_seconds_sum", {{"q", "x"}}), 53.65);
}

TEST(MetricsRegistry, MisuseIsATypedError) {
  MetricsRegistry r;
  r.counter("reactor_a_total", "A.", {"x"});
  EXPECT_NO_THROW(r.counter("reactor_a_total", "A.", {"x"}));  // the same again: a no-op
  EXPECT_THROW(r.gauge("reactor_a_total", "A.", {"x"}), std::invalid_argument);
  EXPECT_THROW(r.counter("bad-name", "B."), std::invalid_argument);
  EXPECT_THROW(r.counter("reactor_b_total", "B.", {"le"}), std::invalid_argument);
  EXPECT_THROW(r.add("reactor_a_total", {}), std::invalid_argument);            // label count
  EXPECT_THROW(r.add("reactor_a_total", {"v"}, -1), std::invalid_argument);     // goes down
  EXPECT_THROW(r.observe("reactor_a_total", {"v"}, 1), std::invalid_argument);  // wrong type
  EXPECT_THROW(r.add("reactor_none_total", {}), std::invalid_argument);         // undeclared
  EXPECT_THROW(r.histogram("reactor_h", "H.", {}, {1, 0.5}), std::invalid_argument);
}

TEST(MetricsRegistry, ACollectorThatThrowsNeverBreaksTheScrape) {
  MetricsRegistry r;
  r.gauge("reactor_g", "G.");
  r.add_collector([](MetricsRegistry&) { throw std::runtime_error("store down"); });
  r.add_collector([](MetricsRegistry& m) { m.set("reactor_g", {}, 7); });
  EXPECT_EQ(parsed(r).value("reactor_g"), 7);
}

TEST(ExpositionParser, RefusesMalformedText) {
  std::string error;
  parse_exposition("# TYPE x counter\nx{a=\"unterminated} 1\n", error);
  EXPECT_NE(error, "");
  parse_exposition("y 1\n", error);  // no TYPE
  EXPECT_NE(error, "");
  parse_exposition("# TYPE x counter\nx one\n", error);
  EXPECT_NE(error, "");
  parse_exposition(
      "# TYPE h histogram\nh_bucket{le=\"1\"} 2\nh_bucket{le=\"+Inf\"} 1\n"
      "h_sum 1\nh_count 1\n",
      error);
  EXPECT_NE(error, "");
}

// a (undo ok) -> b (undo fails) -> c (fails, retried once, then fails; compensated)
Definition failing_saga() {
  Builder b("Failing");
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
      .compensate([](const std::string&, const Args&, StepContext&) { return Success(); });
  return b.build();
}

Definition two_steps() {
  Builder b("Two");
  b.step("a", [](const Args&) { return Success(1); }).step("b", [](const Args&) {
    return Success(2);
  });
  return b.build();
}

TEST(MetricsObserver, AKnownWorkloadCountsExactly) {
  auto metrics = std::make_shared<MetricsRegistry>();
  EngineOptions options = with_clock(manual_clock());
  add_metrics(options, metrics);
  Engine engine(std::move(options));
  EXPECT_EQ(engine.run(two_steps(), Value::object()).status, RunStatus::kCompleted);
  EXPECT_EQ(engine.run(two_steps(), Value::object()).status, RunStatus::kCompleted);
  EXPECT_EQ(engine.run(failing_saga(), Value::object()).status, RunStatus::kFailed);

  Exposition e = parsed(*metrics);
  EXPECT_EQ(e.value("reactor_runs_started_total", {{"reactor", "Two"}}), 2);
  EXPECT_EQ(e.value("reactor_runs_started_total", {{"reactor", "Failing"}}), 1);
  EXPECT_EQ(e.value("reactor_runs_finished_total", {{"reactor", "Two"}, {"status", "completed"}}),
            2);
  EXPECT_EQ(e.value("reactor_runs_finished_total", {{"reactor", "Failing"}, {"status", "failed"}}),
            1);
  EXPECT_EQ(
      e.value("reactor_run_duration_seconds_count", {{"reactor", "Two"}, {"status", "completed"}}),
      2);
  EXPECT_EQ(e.value("reactor_step_attempts_total",
                    {{"reactor", "Two"}, {"step", "a"}, {"outcome", "success"}}),
            2);
  EXPECT_EQ(e.value("reactor_step_attempts_total",
                    {{"reactor", "Failing"}, {"step", "c"}, {"outcome", "retry"}}),
            1);
  EXPECT_EQ(e.value("reactor_step_attempts_total",
                    {{"reactor", "Failing"}, {"step", "c"}, {"outcome", "failure"}}),
            1);
  EXPECT_EQ(e.value("reactor_step_duration_seconds_count", {{"reactor", "Failing"}, {"step", "c"}}),
            2);
  EXPECT_EQ(e.value("reactor_step_retries_total", {{"reactor", "Failing"}, {"step", "c"}}), 1);
  EXPECT_EQ(e.value("reactor_compensations_total",
                    {{"reactor", "Failing"}, {"step", "c"}, {"outcome", "success"}}),
            1);
  EXPECT_EQ(e.value("reactor_undos_total", {{"reactor", "Failing"}}),
            2);  // a's, and b's that failed
  // No label names a run.
  for (const auto& s : e.samples) {
    for (const auto& [key, value] : s.labels) EXPECT_NE(key, "run_id") << s.name;
  }
}

TEST(MeteredBackend, CountsStoreRequestsByOperationAndOutcome) {
  auto metrics = std::make_shared<MetricsRegistry>();
  auto store = open_backend("memory:", manual_clock());
  ASSERT_TRUE(store.ok());
  MeteredBackend metered(std::shared_ptr<Backend>(std::move(store).value()), metrics);
  EXPECT_FALSE(metered.load_run("nope").ok());
  EXPECT_TRUE(metered.has_job("nope").ok());
  EXPECT_EQ(metrics->value("reactor_store_requests_total", {"load_run", "error"}), 1);
  EXPECT_EQ(metrics->value("reactor_store_requests_total", {"has_job", "ok"}), 1);
  EXPECT_EQ(metrics->value("reactor_store_request_duration_seconds", {"has_job"}), 1);
}

TEST(MetricsServer, ServesTheExpositionAndRefusesAPortInUse) {
  auto metrics = std::make_shared<MetricsRegistry>();
  metrics->counter("reactor_x_total", "X.");
  metrics->add("reactor_x_total", {}, 4);
  auto server = MetricsServer::start(metrics, "127.0.0.1:0");
  ASSERT_TRUE(server.ok()) << server.status().to_string();
  const int port = (*server)->port();
  httplib::Client client("127.0.0.1", port);
  auto res = client.Get("/metrics");
  ASSERT_TRUE(res);
  EXPECT_EQ(res->status, 200);
  EXPECT_EQ(res->get_header_value("Content-Type"), "text/plain; version=0.0.4; charset=utf-8");
  std::string error;
  EXPECT_EQ(parse_exposition(res->body, error).value("reactor_x_total"), 4);
  EXPECT_EQ(error, "");

  auto second = MetricsServer::start(metrics, "127.0.0.1:" + std::to_string(port));
  EXPECT_EQ(second.status().code(), StatusCode::kAlreadyExists) << second.status().to_string();
  EXPECT_EQ(MetricsServer::start(metrics, "no-port").status().code(), StatusCode::kInvalidArgument);
}

}  // namespace
