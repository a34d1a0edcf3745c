// Hand-off points end to end (Builder::background_after, background_before; issue 18), on
// every backend: a caller runs a durable run up to its hand-off point and returns it `running`;
// a worker goes on with the rest. Each step body notes whether it ran on the caller's thread,
// so the tests say exactly what ran where.
#include <map>
#include <mutex>
#include <thread>

#include "conformance/conformance_support.hpp"
#include "reactor/reactor.hpp"
#include "reactor/worker.hpp"
#include "support/result_testing.hpp"

namespace reactor::conformance {
namespace {

// Where each step body (and undo) ran: "caller" on the thread that made the test's engine,
// "worker" on any other. Keyed "<step>" for a body, "undo:<step>" for an undo.
class Places {
 public:
  void add(const std::string& what) {
    std::lock_guard lock(mu_);
    log_.emplace_back(what, std::this_thread::get_id() == caller_ ? "caller" : "worker");
  }
  std::vector<std::pair<std::string, std::string>> log() const {
    std::lock_guard lock(mu_);
    return log_;
  }

 private:
  const std::thread::id caller_ = std::this_thread::get_id();
  mutable std::mutex mu_;
  std::vector<std::pair<std::string, std::string>> log_;
};

using Log = std::vector<std::pair<std::string, std::string>>;

// Counts hand-offs as observers hear them.
class HandOffCounter : public Observer {
 public:
  void on_hand_off(const EventContext& ctx, const std::string& where) override {
    std::lock_guard lock(mu_);
    heard.push_back(ctx.step + " " + where);
  }
  std::vector<std::string> heard_now() {
    std::lock_guard lock(mu_);
    return heard;
  }

 private:
  std::mutex mu_;
  std::vector<std::string> heard;
};

// A step that notes where it ran and returns `outcome` ("ok", "fail", "halt", "skip").
Builder& noted(Builder& b, Places& p, const std::string& name, const std::string& outcome = "ok") {
  return b
      .step(name,
            [&p, name, outcome](const Args&) -> StepResult {
              p.add(name);
              if (outcome == "fail") return Failure(name + " fails", false);
              if (outcome == "halt") return Halt("halted at " + name);
              if (outcome == "skip") return Skipped();
              return Success(name);
            })
      .undo([&p, name](const Value&, const Args&, StepContext&) -> StepResult {
        p.add("undo:" + name);
        return Success();
      });
}

// reserve → charge → ship → notify, in that order; `outcomes` overrides a step's outcome.
Definition linear(Places& p, bool after, const std::string& at,
                  std::map<std::string, std::string> outcomes = {}) {
  Builder b(after ? "LinearAfter" : "LinearBefore");
  std::string previous;
  for (const char* name : {"reserve", "charge", "ship", "notify"}) {
    noted(b, p, name, outcomes.count(name) ? outcomes[name] : "ok");
    if (!previous.empty()) b.wait_for(previous);
    previous = name;
  }
  if (after) b.background_after(at);
  if (!after) b.background_before(at);
  return b.build();
}

template <typename Factory>
class HandOffs : public ::testing::Test {
 protected:
  void SetUp() override {
    std::unique_ptr<Backend> raw;
    Status s = factory_.open(raw);
    ASSERT_TRUE(s.ok()) << s.to_string();
    EngineOptions options;
    options.clock = factory_.clock();
    options.backend = std::move(raw);
    options.observers.push_back(counter_);
    options.durability.lease_ttl = 1s;
    engine_ = std::make_unique<Engine>(std::move(options));
  }
  void TearDown() override {
    if (worker_) worker_->stop_now();
  }

  void start_worker() {
    WorkerOptions w;
    w.threads = 1;
    w.sweeper = false;
    w.poll_interval = 2ms;
    w.idle_wait = 20ms;
    worker_ = std::make_unique<Worker>(*engine_, w);
    worker_->start();
  }

  RunResult wait_for_end(const std::string& id) {
    RunResult r;
    for (int k = 0; k < 2000; ++k) {
      if (assign_if_ok(r, engine_->find(id)) && is_terminal(r.status)) return r;
      std::this_thread::sleep_for(5ms);
    }
    ADD_FAILURE() << "run " << id << " did not end: " << to_string(r.status) << " "
                  << r.trace_summary();
    return r;
  }

  bool has_job(const std::string& id) {
    bool job = false;
    EXPECT_OK_AND_ASSIGN(job, engine_->backend()->has_job(id));
    return job;
  }

  Factory factory_;
  Places places_;
  std::shared_ptr<HandOffCounter> counter_ = std::make_shared<HandOffCounter>();
  std::unique_ptr<Engine> engine_;
  std::unique_ptr<Worker> worker_;
};
TYPED_TEST_SUITE(HandOffs, ConformanceBackends, BackendName);

TYPED_TEST(HandOffs, AfterRunsTheStepInTheCallerAndTheRestInAWorker) {
  this->engine_->registry().add(linear(this->places_, true, "charge"));
  RunResult r = this->engine_->run("LinearAfter", Value::object());
  ASSERT_EQ(r.status, RunStatus::kRunning) << (r.error ? r.error->message : "");
  EXPECT_FALSE(r.error.has_value());
  EXPECT_EQ(r.trace_summary(), "ran reserve, charge; handed off after charge");
  ASSERT_NE(r.step("charge"), nullptr);
  EXPECT_EQ(r.step("charge")->status, StepStatus::kCompleted);
  EXPECT_EQ(r.step("charge")->result, "charge");
  EXPECT_EQ(r.step("ship")->status, StepStatus::kPending);
  EXPECT_TRUE(this->has_job(r.run_id));  // due at once, for a worker
  EXPECT_EQ(this->counter_->heard_now(), std::vector<std::string>{"charge after"});

  this->start_worker();
  r = this->wait_for_end(r.run_id);
  ASSERT_EQ(r.status, RunStatus::kCompleted);
  EXPECT_EQ(
      this->places_.log(),
      (Log{{"reserve", "caller"}, {"charge", "caller"}, {"ship", "worker"}, {"notify", "worker"}}));
  EXPECT_EQ(r.trace_summary(), "ran reserve, charge; handed off after charge; ran ship, notify");
  EXPECT_EQ(this->counter_->heard_now().size(), 1u);  // the worker never hands off
}

TYPED_TEST(HandOffs, BeforeRunsTheStepAndTheRestInAWorker) {
  this->engine_->registry().add(linear(this->places_, false, "charge"));
  RunResult r = this->engine_->run("LinearBefore", Value::object());
  ASSERT_EQ(r.status, RunStatus::kRunning) << (r.error ? r.error->message : "");
  EXPECT_EQ(r.trace_summary(), "ran reserve; handed off before charge");
  EXPECT_EQ(r.step("charge")->status, StepStatus::kPending);
  EXPECT_EQ(r.step("charge")->attempts, 0);

  this->start_worker();
  r = this->wait_for_end(r.run_id);
  ASSERT_EQ(r.status, RunStatus::kCompleted);
  EXPECT_EQ(
      this->places_.log(),
      (Log{{"reserve", "caller"}, {"charge", "worker"}, {"ship", "worker"}, {"notify", "worker"}}));
}

TYPED_TEST(HandOffs, BeforeTheFirstStepHandsOffOnceTheInputsAreValid) {
  Builder b("First");
  b.input("order_id", integer());
  noted(b, this->places_, "reserve");
  this->engine_->registry().add(b.background_before("reserve").build());
  RunResult bad = this->engine_->run("First", {{"order_id", "not a number"}});
  EXPECT_EQ(bad.status, RunStatus::kFailed);  // validated in the caller
  ASSERT_TRUE(bad.error.has_value());
  EXPECT_EQ(bad.error->kind, ErrorKind::kInputInvalid);

  RunResult r = this->engine_->run("First", {{"order_id", 7}});
  ASSERT_EQ(r.status, RunStatus::kRunning);
  EXPECT_EQ(r.trace_summary(), "handed off before reserve");
  this->start_worker();
  EXPECT_EQ(this->wait_for_end(r.run_id).status, RunStatus::kCompleted);
  EXPECT_EQ(this->places_.log(), (Log{{"reserve", "worker"}}));
}

// In a DAG, the steps the caller started stay its own, whether they finish before or after the
// hand-off point's step; what had not started goes to the worker.
TYPED_TEST(HandOffs, InADagWhatTheCallerStartedStaysDone) {
  Builder b("Dag");
  b.max_concurrency(2);
  noted(b, this->places_, "left");
  noted(b, this->places_, "right");
  noted(b, this->places_, "join").wait_for({"left", "right"});
  noted(b, this->places_, "last").wait_for("join");
  this->engine_->registry().add(b.background_after("left").build());
  RunResult r = this->engine_->run("Dag", Value::object());
  ASSERT_EQ(r.status, RunStatus::kRunning);
  EXPECT_EQ(r.step("left")->status, StepStatus::kCompleted);
  EXPECT_EQ(r.step("right")->status, StepStatus::kCompleted);  // started beside it
  EXPECT_EQ(r.step("join")->status, StepStatus::kPending);

  EXPECT_EQ(this->places_.log().size(), 2u);  // right ran on a thread of the caller's pool

  this->start_worker();
  ASSERT_EQ(this->wait_for_end(r.run_id).status, RunStatus::kCompleted);
  const Log log = this->places_.log();
  ASSERT_EQ(log.size(), 4u);
  EXPECT_EQ(log[2], (std::pair<std::string, std::string>{"join", "worker"}));
  EXPECT_EQ(log[3], (std::pair<std::string, std::string>{"last", "worker"}));
}

TYPED_TEST(HandOffs, AWorkerSideFailureUndoesTheCallerSideStepsToo) {
  this->engine_->registry().add(linear(this->places_, true, "charge", {{"ship", "fail"}}));
  RunResult r = this->engine_->run("LinearAfter", Value::object());
  ASSERT_EQ(r.status, RunStatus::kRunning);
  this->start_worker();
  r = this->wait_for_end(r.run_id);
  ASSERT_EQ(r.status, RunStatus::kFailed);
  EXPECT_EQ(this->places_.log(), (Log{{"reserve", "caller"},
                                      {"charge", "caller"},
                                      {"ship", "worker"},
                                      {"undo:charge", "worker"},
                                      {"undo:reserve", "worker"}}));
}

// The hand-off is keyed to reaching its step: a run that fails or halts before, or at the
// `after` step with a Halt, ends in the caller and nothing goes to a worker.
TYPED_TEST(HandOffs, AStepThatDoesNotRunNeverHandsOff) {
  this->engine_->registry().add(linear(this->places_, false, "ship", {{"charge", "fail"}}));
  RunResult r = this->engine_->run("LinearBefore", Value::object());
  EXPECT_EQ(r.status, RunStatus::kFailed);
  EXPECT_EQ(this->places_.log(),
            (Log{{"reserve", "caller"}, {"charge", "caller"}, {"undo:reserve", "caller"}}));
  EXPECT_FALSE(this->has_job(r.run_id));
  EXPECT_TRUE(this->counter_->heard_now().empty());
}

TYPED_TEST(HandOffs, AHaltAtTheAfterStepHaltsWithoutHandingOff) {
  this->engine_->registry().add(linear(this->places_, true, "charge", {{"charge", "halt"}}));
  RunResult r = this->engine_->run("LinearAfter", Value::object());
  EXPECT_EQ(r.status, RunStatus::kHalted);
  EXPECT_EQ(r.trace_summary(), "ran reserve, charge");
  EXPECT_FALSE(this->has_job(r.run_id));
}

TYPED_TEST(HandOffs, ASkippedAfterStepStillHandsOff) {
  this->engine_->registry().add(linear(this->places_, true, "charge", {{"charge", "skip"}}));
  RunResult r = this->engine_->run("LinearAfter", Value::object());
  ASSERT_EQ(r.status, RunStatus::kRunning);
  EXPECT_EQ(r.trace_summary(), "ran reserve, charge; handed off after charge");
  this->start_worker();
  EXPECT_EQ(this->wait_for_end(r.run_id).status, RunStatus::kCompleted);
}

// Nothing is left after the `after` step: the run ends in the caller.
TYPED_TEST(HandOffs, AfterTheLastStepTheRunEndsInTheCaller) {
  this->engine_->registry().add(linear(this->places_, true, "notify"));
  RunResult r = this->engine_->run("LinearAfter", Value::object());
  EXPECT_EQ(r.status, RunStatus::kCompleted);
  EXPECT_EQ(r.trace_summary(), "ran reserve, charge, ship, notify");
  EXPECT_FALSE(this->has_job(r.run_id));
}

// A run started in the background runs whole in a worker: a worker never hands off.
TYPED_TEST(HandOffs, ABackgroundRunNeverHandsOff) {
  this->engine_->registry().add(linear(this->places_, true, "charge"));
  std::string id;
  ASSERT_OK_AND_ASSIGN(id, this->engine_->run_in_background("LinearAfter", Value::object()));
  this->start_worker();
  RunResult r = this->wait_for_end(id);
  ASSERT_EQ(r.status, RunStatus::kCompleted);
  EXPECT_EQ(r.trace_summary(), "ran reserve, charge, ship, notify");
  EXPECT_TRUE(this->counter_->heard_now().empty());
}

}  // namespace
}  // namespace reactor::conformance
