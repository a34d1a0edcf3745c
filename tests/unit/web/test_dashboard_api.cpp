// The dashboard's JSON API over HTTP on loopback (an engine on a memory store, a client of
// cpp-httplib): the runs list's filters and cursor pages, the run page, that no response holds a
// redacted input (even one a step returned or an error quoted), the token, the CSRF token and the
// Origin/Host checks, and actions going through the engine's own operations.
#include <gtest/gtest.h>
#include <httplib.h>

#include <set>

#include "reactor/dashboard.hpp"
#include "reactor/reactor.hpp"
#include "reactor/worker.hpp"
#include "support/exposition_parser.hpp"
#include "support/result_testing.hpp"

namespace {

using namespace reactor;

constexpr const char* kSecret = "4111-SECRET-CARD-9999";

Definition secret_reactor() {
  return Builder("Charge")
      .input("card", string().redacted())
      .input("name", string())
      .step("charge",
            [](const Args& a) -> StepResult {
              const std::string card = a.get<std::string>("card");
              if (a.get<std::string>("name") == "fail") {
                return Failure("card " + card + " declined", /*retryable=*/false);
              }
              return Success({{"charged", card}});
            })
      .argument("card", input("card"))
      .argument("name", input("name"))
      .build();
}

Definition approval_reactor() {
  return Builder("Approval")
      .input("n", integer())
      .step("check", [](const Args& a) { return Success(a.get<int>("n")); })
      .argument("n", input("n"))
      .interrupt("approve")
      .wait_for("check")
      .payload("ok", boolean())
      .step("finish", [](const Args& a) { return Success(a.get<Value>("d")); })
      .argument("d", result("approve"))
      .build();
}

class DashboardApi : public ::testing::Test {
 protected:
  void SetUp() override { open({}); }

  void open(DashboardOptions o) {
    dashboard_.reset();
    std::unique_ptr<Backend> backend;
    ASSERT_OK_AND_ASSIGN(backend, open_backend("memory:", nullptr));
    EngineOptions options;
    options.backend = std::move(backend);
    engine_ = std::make_unique<Engine>(std::move(options));
    engine_->registry().add(secret_reactor());
    engine_->registry().add(approval_reactor());
    o.port = 0;
    dashboard_ = std::make_unique<Dashboard>(*engine_, o);
    ASSERT_TRUE(dashboard_->start().ok());
    client_ = std::make_unique<httplib::Client>("127.0.0.1", dashboard_->port());
  }

  std::string start(const std::string& reactor, Value inputs) {
    RunResult r = engine_->run(reactor, std::move(inputs));
    return r.run_id;
  }

  Value get_json(const std::string& path, int expected = 200) {
    auto res = client_->Get(path);
    EXPECT_TRUE(res) << path;
    if (!res) return Value();
    EXPECT_EQ(res->status, expected) << path << ": " << res->body;
    EXPECT_EQ(res->body.find(kSecret), std::string::npos) << path << " leaks the secret";
    return Value::parse(res->body);
  }

  std::string csrf() { return get_json("/api/session")["csrf_token"].get<std::string>(); }

  httplib::Result post(const std::string& path, const std::string& body, bool with_csrf = true) {
    httplib::Headers headers;
    if (with_csrf) headers.emplace("X-CSRF-Token", csrf());
    return client_->Post(path, headers, body, "application/json");
  }

  std::unique_ptr<Engine> engine_;
  std::unique_ptr<Dashboard> dashboard_;
  std::unique_ptr<httplib::Client> client_;
};

TEST_F(DashboardApi, BindsToLoopbackByDefaultAndRefusesAnotherAddressWithoutAToken) {
  EXPECT_EQ(DashboardOptions{}.host, "127.0.0.1");
  EXPECT_TRUE(is_loopback_host("127.0.0.1"));
  EXPECT_TRUE(is_loopback_host("[::1]"));
  EXPECT_FALSE(is_loopback_host("0.0.0.0"));
  Dashboard open_to_all(*engine_, DashboardOptions{"0.0.0.0", 0, ""});
  Status s = open_to_all.start();
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("token"), std::string::npos);
  // A port in use is refused, not shared (httplib would bind it again with SO_REUSEPORT).
  Dashboard second(*engine_, DashboardOptions{"127.0.0.1", dashboard_->port(), ""});
  EXPECT_EQ(second.start().code(), StatusCode::kUnavailable);
}

TEST_F(DashboardApi, PagesThroughEveryRunWithTheCursorAndFiltersThem) {
  std::set<std::string> ids;
  for (int i = 0; i < 7; ++i) ids.insert(start("Charge", {{"card", kSecret}, {"name", "ok"}}));
  const std::string failed = start("Charge", {{"card", kSecret}, {"name", "fail"}});
  const std::string paused = start("Approval", {{"n", 1}});
  ids.insert(failed);
  ids.insert(paused);

  std::set<std::string> seen;
  std::string cursor;
  int pages = 0;
  do {
    Value page = get_json("/api/runs?limit=4" + (cursor.empty() ? "" : "&cursor=" + cursor));
    for (const Value& r : page["runs"]) EXPECT_TRUE(seen.insert(r["id"].get<std::string>()).second);
    EXPECT_EQ(page["total"], 9);
    cursor = page["next_cursor"].get<std::string>();
    ++pages;
  } while (!cursor.empty() && pages < 10);
  EXPECT_EQ(pages, 3);
  EXPECT_EQ(seen, ids);

  Value failing = get_json("/api/runs?status=failed");
  ASSERT_EQ(failing["runs"].size(), 1u);
  EXPECT_EQ(failing["runs"][0]["id"], failed);
  EXPECT_EQ(failing["counts"]["completed"], 7);
  EXPECT_EQ(failing["counts"]["paused"], 1);
  Value approvals = get_json("/api/runs?reactor=Approval");
  ASSERT_EQ(approvals["runs"].size(), 1u);
  EXPECT_EQ(approvals["runs"][0]["waiting"][0]["step"], "approve");
  EXPECT_EQ(get_json("/api/runs?q=" + failed)["runs"].size(), 1u);
  EXPECT_EQ(get_json("/api/runs?from=1&to=2")["runs"].size(), 0u);
  get_json("/api/runs?status=bogus", 400);
  get_json("/api/runs?limit=x", 400);
}

TEST_F(DashboardApi, NoResponseHoldsARedactedInput) {
  const std::string ok = start("Charge", {{"card", kSecret}, {"name", "ok"}});
  const std::string failed = start("Charge", {{"card", kSecret}, {"name", "fail"}});
  Value page = get_json("/api/runs/" + failed);  // get_json checks every body for the secret
  EXPECT_EQ(page["status"], "failed");
  EXPECT_EQ(page["inputs"]["card"], "[REDACTED]");
  EXPECT_EQ(page["inputs"]["name"], "fail");
  EXPECT_NE(page["error"]["message"].get<std::string>().find("declined"), std::string::npos);
  Value done = get_json("/api/runs/" + ok);
  EXPECT_EQ(done["steps"][0]["result"]["charged"], "[REDACTED]");
  for (const char* path : {"/api/runs", "/api/reactors", "/api/reactors/Charge",
                           "/api/coordination", "/api/changes", "/", "/app.js"}) {
    auto res = client_->Get(path);
    ASSERT_TRUE(res);
    EXPECT_EQ(res->status, 200) << path;
    EXPECT_EQ(res->body.find(kSecret), std::string::npos) << path;
  }
  EXPECT_EQ(get_json("/api/reactors/Charge")["inputs"][0]["redacted"], true);
}

TEST_F(DashboardApi, AnswersNotFoundAndBadRequestClearly) {
  EXPECT_NE(get_json("/api/runs/no-such-run", 404)["error"].get<std::string>().find("no-such-run"),
            std::string::npos);
  get_json("/api/reactors/Nope", 404);
  const std::string paused = start("Approval", {{"n", 1}});
  auto res = post("/api/runs/" + paused + "/resume-interrupt", "{not json");
  ASSERT_TRUE(res);
  EXPECT_EQ(res->status, 400);
  res = post("/api/runs/" + paused + "/fly", "{}");
  ASSERT_TRUE(res);
  EXPECT_EQ(res->status, 404);
}

TEST_F(DashboardApi, RefusesAPostWithoutTheCsrfTokenOrFromAnotherOrigin) {
  const std::string paused = start("Approval", {{"n", 1}});
  auto res = post("/api/runs/" + paused + "/cancel", "{}", /*with_csrf=*/false);
  ASSERT_TRUE(res);
  EXPECT_EQ(res->status, 403);
  httplib::Headers other{{"X-CSRF-Token", csrf()}, {"Origin", "http://evil.example"}};
  res = client_->Post("/api/runs/" + paused + "/cancel", other, "{}", "application/json");
  ASSERT_TRUE(res);
  EXPECT_EQ(res->status, 403);
  httplib::Headers rebound{{"Host", "evil.example:80"}};
  res = client_->Get("/api/runs", rebound);
  ASSERT_TRUE(res);
  EXPECT_EQ(res->status, 403);
  ASSERT_OK_AND_ASSIGN(RunResult still, engine_->find(paused));
  EXPECT_EQ(still.status, RunStatus::kPaused);  // nothing refused was done
}

TEST_F(DashboardApi, RequiresTheTokenWhenOneIsSet) {
  open(DashboardOptions{"127.0.0.1", 0, "s3cret-token"});
  auto res = client_->Get("/api/runs");
  ASSERT_TRUE(res);
  EXPECT_EQ(res->status, 401);
  res = client_->Get("/api/runs", {{"Authorization", "Bearer wrong"}});
  EXPECT_EQ(res->status, 401);
  res = client_->Get("/api/runs", {{"Authorization", "Bearer s3cret-token"}});
  EXPECT_EQ(res->status, 200);
  res = client_->Get("/?token=s3cret-token");
  ASSERT_TRUE(res);
  EXPECT_EQ(res->status, 302);
  const std::string cookie = res->get_header_value("Set-Cookie");
  EXPECT_NE(cookie.find("HttpOnly"), std::string::npos);
  res = client_->Get("/api/runs", {{"Cookie", cookie.substr(0, cookie.find(';'))}});
  EXPECT_EQ(res->status, 200);
  EXPECT_EQ(client_->Get("/?token=wrong")->status, 401);
}

TEST_F(DashboardApi, ActionsGoThroughTheEngine) {
  const std::string paused = start("Approval", {{"n", 1}});
  Value page = get_json("/api/runs/" + paused);
  ASSERT_EQ(page["waiting"].size(), 1u);
  auto res = post("/api/runs/" + paused + "/resume-interrupt",
                  R"({"step": "approve", "payload": {"ok": "not a bool"}})");
  ASSERT_TRUE(res);
  EXPECT_EQ(res->status, 400) << res->body;  // the engine's own payload check
  // The resume's job goes to a worker: run it here, as one would.
  res = post("/api/runs/" + paused + "/resume-interrupt",
             R"({"step": "approve", "payload": {"ok": true}})");
  ASSERT_TRUE(res);
  EXPECT_EQ(res->status, 200) << res->body;
  ASSERT_TRUE(engine_->run_due_jobs("Approval").ok());
  EXPECT_EQ(get_json("/api/runs/" + paused)["status"], "completed");

  const std::string failed = start("Charge", {{"card", kSecret}, {"name", "fail"}});
  res = post("/api/runs/" + failed + "/retry", "{}");
  ASSERT_TRUE(res);
  ASSERT_EQ(res->status, 200) << res->body;
  const std::string retry = Value::parse(res->body)["run_id"].get<std::string>();
  EXPECT_EQ(get_json("/api/runs/" + retry)["retried_from"], failed);

  const std::string other = start("Approval", {{"n", 2}});
  res = post("/api/runs/" + other + "/cancel", R"({"reason": "by test"})");
  ASSERT_TRUE(res);
  EXPECT_EQ(res->status, 200) << res->body;
  EXPECT_EQ(get_json("/api/runs/" + other)["status"], "cancelled");
}

// Workers are seen through their leases: the queue a worker serves, the runs whose lease it holds
// and the sweeper window it claimed; a queue nobody serves says so.
TEST_F(DashboardApi, ShowsTheLiveWorkersQueuesAndTheSweepersLastPass) {
  const std::string queue = engine_->queue_for("Charge");
  auto queue_row = [&queue](const Value& view) {
    for (const Value& q : view["queues"]) {
      if (q["queue"] == queue) return q;
    }
    return Value();
  };
  Value none = get_json("/api/workers");
  EXPECT_EQ(none["queues"].size(), 2u);  // Charge's and Approval's
  EXPECT_TRUE(queue_row(none)["served_by"].is_null());
  EXPECT_TRUE(none["workers"].empty());
  EXPECT_TRUE(none["sweeper"].is_null());

  std::string waiting;
  ASSERT_OK_AND_ASSIGN(waiting,
                       engine_->run_in_background("Charge", {{"card", kSecret}, {"name", "ok"}}));
  Backend& store = *engine_->backend();
  ASSERT_TRUE(
      store.acquire_lease("serving:" + queue, "w-7/presence", std::chrono::seconds(30)).ok());
  const Duration interval = WorkerOptions{}.sweep_interval;
  const TimePoint now = engine_->clock().now();
  const std::string window = std::to_string(now.time_since_epoch() / interval);
  ASSERT_TRUE(store.acquire_lease("sweeper:" + window, "w-7/sweeper", interval * 2).ok());
  // A run w-7 executes (its header names it, its lease is held) and one whose worker died.
  CommitRequest c;
  for (const char* id : {"live-run", "dead-run"}) {
    RunHeaderRow h{id, id, "", "Charge", RunStatus::kRunning, "fp", 1, "{}", 1, 0, 0};
    h.exec_worker = "w-7";
    c.headers.push_back(h);
  }
  ASSERT_TRUE(store.commit(c).ok());
  ASSERT_TRUE(store.acquire_lease("run:live-run", "an-execution", std::chrono::seconds(30)).ok());

  Value seen = get_json("/api/workers");
  Value row = queue_row(seen);
  EXPECT_EQ(row["ready"], 1);  // the background run's job
  EXPECT_EQ(row["served_by"], "w-7");
  ASSERT_EQ(seen["workers"].size(), 1u);
  EXPECT_EQ(seen["workers"][0]["worker"], "w-7");
  EXPECT_EQ(seen["workers"][0]["queues"], Value::array({queue}));
  EXPECT_EQ(seen["workers"][0]["runs"], Value::array({"live-run"}));
  EXPECT_EQ(seen["sweeper"]["worker"], "w-7");
  EXPECT_NEAR(seen["sweeper"]["at_ms"].get<double>(), static_cast<double>(to_unix_ms(now)), 1000.0);
  EXPECT_FALSE(seen["counts"].contains("enqueued"));  // running, waiting, paused, scheduled
  EXPECT_EQ(seen["counts"]["running"], 2);
}

TEST_F(DashboardApi, ServesTheStoresGaugesOnMetrics) {
  start("Charge", {{"card", kSecret}, {"name", "ok"}});
  start("Charge", {{"card", kSecret}, {"name", "fail"}});
  start("Approval", {{"n", 1}});
  auto res = client_->Get("/metrics");
  ASSERT_TRUE(res);
  ASSERT_EQ(res->status, 200);
  EXPECT_NE(res->get_header_value("Content-Type").find("version=0.0.4"), std::string::npos);
  std::string error;
  reactor::testing_support::Exposition e =
      reactor::testing_support::parse_exposition(res->body, error);
  ASSERT_EQ(error, "") << res->body;
  EXPECT_EQ(e.value("reactor_stored_runs", {{"status", "completed"}}), 1);
  EXPECT_EQ(e.value("reactor_stored_runs", {{"status", "failed"}}), 1);
  EXPECT_EQ(e.value("reactor_stored_runs", {{"status", "paused"}}), 1);
  EXPECT_EQ(e.value("reactor_stored_runs", {{"status", "running"}}), 0);
  EXPECT_EQ(
      e.value("reactor_queue_jobs", {{"queue", engine_->queue_for("Charge")}, {"state", "ready"}}),
      0);
}

}  // namespace
