// A deploy changes a reactor's graph while runs wait in the queue: a run none of whose steps
// has executed starts on the definition registered now; a run that has executed a step cannot
// change graphs and fails with definition_changed.
#include <filesystem>

#include "support/result_testing.hpp"
#include "unit/durability/durable_fixture.hpp"

namespace reactor::durable_test {
namespace {

Definition version(int v, std::atomic<int>& ran) {
  Builder b("Deployed");
  b.input("n", integer());
  b.step("first", [&ran](const Args& a) {
     ++ran;
     return Success(a.get<int>("n"));
   }).argument("n", input("n"));
  if (v == 2) {
    b.step("added", [](const Args& a) {
       return Success(a.get<int>("p") + 1);
     }).argument("p", result("first"));
    b.returns("added");
  } else {
    b.returns("first");
  }
  return b.build();
}

// On memory, and on SQLite, whose fetch files the run it delivers `running` (the run is then
// replanned from running).
class Deploy : public ::testing::TestWithParam<std::string> {
 protected:
  std::unique_ptr<Engine> engine_on(const Definition& d) {
    EngineOptions o;
    o.clock = clock_;
    o.backend = store_;
    o.durability.lease_ttl = 10s;
    auto engine = std::make_unique<Engine>(std::move(o));
    engine->registry().add(d);
    return engine;
  }
  void SetUp() override {
    std::string url = "memory:";
    if (GetParam() == "sqlite") {
      dir_ = std::filesystem::temp_directory_path() / ("reactor-deploy-" + new_run_id());
      std::filesystem::create_directories(dir_);
      url = "sqlite://" + (dir_ / "deploy.db").string();
    }
    std::unique_ptr<Backend> b;
    ASSERT_OK_AND_ASSIGN(b, open_backend(url, clock_));
    store_ = std::move(b);
  }
  void TearDown() override {
    store_.reset();
    if (!dir_.empty()) std::filesystem::remove_all(dir_);
  }
  RunResult run_to_end(Engine& engine, const std::string& id) {
    WorkerOptions w;
    w.sweeper = false;
    w.poll_interval = 5ms;
    Worker worker(engine, w);
    worker.start();
    RunResult r;
    eventually([&] { return assign_if_ok(r, engine.find(id)) && is_terminal(r.status); });
    return r;
  }

  std::shared_ptr<ManualClock> clock_ = std::make_shared<ManualClock>();
  std::shared_ptr<Backend> store_;
  std::filesystem::path dir_;
};

INSTANTIATE_TEST_SUITE_P(Backends, Deploy, ::testing::Values("memory", "sqlite"),
                         [](const auto& info) { return info.param; });

TEST_P(Deploy, ARunThatNeverStartedRunsOnTheDefinitionRegisteredNow) {
  std::atomic<int> ran{0};
  const Definition v1 = version(1, ran), v2 = version(2, ran);
  ASSERT_NE(v1.fingerprint(), v2.fingerprint());
  std::string id;
  ASSERT_OK_AND_ASSIGN(id, engine_on(v1)->run_in_background("Deployed", {{"n", 41}}));
  auto deployed = engine_on(v2);
  RunResult r = run_to_end(*deployed, id);
  ASSERT_EQ(r.status, RunStatus::kCompleted) << (r.error ? r.error->message : "");
  EXPECT_EQ(r.value, 42);
  ASSERT_NE(r.step("added"), nullptr);
  EXPECT_EQ(r.step("added")->status, StepStatus::kCompleted);
}

// Its first delivery died before any step ran (on SQLite the fetch had filed it running): the
// next one replans it on the definition registered now, as a run never delivered.
TEST_P(Deploy, ARunWhoseFirstDeliveryDiedBeforeAnyStepRunsOnTheDefinitionRegisteredNow) {
  std::atomic<int> ran{0};
  const Definition v1 = version(1, ran), v2 = version(2, ran);
  std::string id;
  ASSERT_OK_AND_ASSIGN(id, engine_on(v1)->run_in_background("Deployed", {{"n", 41}}));
  std::optional<Delivery> dead;
  ASSERT_OK_AND_ASSIGN(dead, store_->fetch(FetchRequest{{"Deployed"}, "dead", 1s, 1s, "dead:1"}));
  ASSERT_TRUE(dead);
  clock_->advance(2s);  // its job is visible again, its lease lapsed
  auto deployed = engine_on(v2);
  RunResult r = run_to_end(*deployed, id);
  ASSERT_EQ(r.status, RunStatus::kCompleted) << (r.error ? r.error->message : "");
  EXPECT_EQ(r.value, 42);
  EXPECT_EQ(ran.load(), 1);
}

TEST_P(Deploy, ARunThatExecutedAStepFailsWithDefinitionChanged) {
  std::atomic<int> ran{0};
  // v1 with a second step that waits for a retry: "first" executes, then the run is waiting.
  Definition v1 = Builder("Deployed")
                      .input("n", integer())
                      .step("first",
                            [&ran](const Args&) {
                              ++ran;
                              return Success(1);
                            })
                      .step("later", [](const Args&) { return Failure("not yet"); })
                      .wait_for("first")
                      .retries(fixed_backoff(2, 30s))
                      .build();
  auto old_engine = engine_on(v1);
  std::string id;
  ASSERT_OK_AND_ASSIGN(id, old_engine->run_in_background("Deployed", {{"n", 1}}));
  {
    WorkerOptions w;
    w.sweeper = false;
    w.poll_interval = 5ms;
    Worker worker(*old_engine, w);
    worker.start();
    RunResult r;
    ASSERT_TRUE(eventually(
        [&] { return assign_if_ok(r, old_engine->find(id)) && r.status == RunStatus::kWaiting; }));
  }
  clock_->advance(31s);
  auto deployed = engine_on(version(2, ran));
  RunResult r = run_to_end(*deployed, id);
  ASSERT_TRUE(r.error);
  EXPECT_EQ(r.error->kind, ErrorKind::kDefinitionChanged);
  EXPECT_EQ(ran.load(), 1);
}

}  // namespace
}  // namespace reactor::durable_test
