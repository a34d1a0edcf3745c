// Operator control end to end (issue 24: Engine::cancel, undo, retry, resume_halted), on every
// backend. Step bodies, compensations and undos append to a ledger, so each test says exactly
// what ran, in what order, and how often.
#include <atomic>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>

#include "conformance/conformance_support.hpp"
#include "reactor/reactor.hpp"
#include "reactor/worker.hpp"
#include "records/codec.hpp"
#include "records/run_rows.hpp"
#include "support/result_testing.hpp"

namespace reactor::conformance {
namespace {

class OperatorLedger {
 public:
  void add(const std::string& what) {
    std::lock_guard lock(mu_);
    log_.push_back(what);
  }
  std::vector<std::string> log() const {
    std::lock_guard lock(mu_);
    return log_;
  }
  void clear() {
    std::lock_guard lock(mu_);
    log_.clear();
  }
  int count(const std::string& what) const {
    std::lock_guard lock(mu_);
    return static_cast<int>(std::count(log_.begin(), log_.end(), what));
  }

 private:
  mutable std::mutex mu_;
  std::vector<std::string> log_;
};

using Log = std::vector<std::string>;

// A step whose body, compensation and undo note themselves: "<name>", "compensate:<name>",
// "undo:<name>". `body` decides the outcome (default: Success(name)).
Builder& noted(Builder& b, OperatorLedger& l, const std::string& name,
               std::function<StepResult()> body = nullptr) {
  return b
      .step(name,
            [&l, name, body](const Args&) -> StepResult {
              l.add(name);
              return body ? body() : Success(name);
            })
      .compensate([&l, name](const std::string& error, const Args&, StepContext&) -> StepResult {
        l.add("compensate:" + name + " (" + error + ")");
        return Success();
      })
      .undo([&l, name](const Value& result, const Args&, StepContext&) -> StepResult {
        l.add("undo:" + name + " of " + result.get<std::string>());
        return Success();
      });
}

// Steps `names` in a line, each waiting for the one before.
Builder linear(const std::string& reactor, OperatorLedger& l, const std::vector<std::string>& names,
               std::map<std::string, std::function<StepResult()>> bodies = {}) {
  Builder b(reactor);
  std::string previous;
  for (const std::string& name : names) {
    noted(b, l, name, bodies.count(name) ? bodies[name] : nullptr);
    if (!previous.empty()) b.wait_for(previous);
    previous = name;
  }
  return b;
}

template <typename Factory>
class Operator : public ::testing::Test {
 protected:
  void SetUp() override {
    Status s = open_durable_engine(factory_, 2s, engine_);
    ASSERT_TRUE(s.ok()) << s.to_string();
  }
  void TearDown() override {
    if (worker_) worker_->stop_now();
  }

  Backend& db() { return *engine_->backend(); }

  void start_worker() {
    WorkerOptions w;
    w.threads = 1;
    w.sweeper = false;
    w.poll_interval = 2ms;
    w.idle_wait = 20ms;
    worker_ = std::make_unique<Worker>(*engine_, w);
    worker_->start();
  }

  RunResult find(const std::string& id) {
    RunResult r;
    EXPECT_OK_AND_ASSIGN(r, engine_->find(id));
    return r;
  }

  // Rewrites the stored run `id` through `edit` under its lease: a state this branch's code
  // cannot reach on its own (a paused run is the interrupts' work; a failed run whose
  // compensation was cut off, a crash's), written as the engine would store it.
  void rewrite(const std::string& id, const std::function<void(reactor::Run&)>& edit) {
    Result<LeaseGrant> grant = db().acquire_lease(run_lease_key(id), "test", 10s);
    ASSERT_TRUE(grant.ok() && grant->granted);
    Result<StoredRun> stored = db().load_run(id);
    ASSERT_TRUE(stored.ok()) << stored.status().to_string();
    reactor::Run run;
    ASSERT_TRUE(records::decode_run(*stored, run).ok());
    edit(run);
    CommitRequest c;
    c.root_id = id;
    c.fencing_token = grant->lease.token;
    c.lease_owner = "test";
    c.headers.push_back(records::encode_header(run, 0));
    for (std::size_t i = 0; i < run.steps.size(); ++i) {
      c.steps.push_back(records::encode_step_row(run, i));
    }
    c.release_lease = true;
    ASSERT_TRUE(db().commit(c).ok());
  }

  Factory factory_;
  OperatorLedger ledger_;
  std::unique_ptr<Engine> engine_;
  std::unique_ptr<Worker> worker_;
};
TYPED_TEST_SUITE(Operator, ConformanceBackends, BackendName);

// --- cancel ---

// A worker inside a step when the run is cancelled: the step's body finishes, its commit is
// refused as a lost lease's, and no later step runs; the run stays cancelled.
TYPED_TEST(Operator, CancelStopsAWorkerInsideAStepAtItsNextCommit) {
  std::mutex mu;
  std::condition_variable cv;
  bool inside = false, go_on = false;
  this->engine_->registry().add(linear("Slow", this->ledger_, {"first", "slow", "after"},
                                       {{"slow",
                                         [&]() -> StepResult {
                                           std::unique_lock lock(mu);
                                           inside = true;
                                           cv.notify_all();
                                           cv.wait(lock, [&] { return go_on; });
                                           return Success("slow");
                                         }}})
                                    .build());
  std::string id;
  ASSERT_OK_AND_ASSIGN(id, this->engine_->run_in_background("Slow", Value::object()));
  this->start_worker();
  {
    std::unique_lock lock(mu);
    ASSERT_TRUE(cv.wait_for(lock, 20s, [&] { return inside; }));
  }
  ASSERT_TRUE(this->engine_->cancel(id, "the customer called").ok());
  {
    std::lock_guard lock(mu);
    go_on = true;
  }
  cv.notify_all();
  for (int k = 0; k < 4000 && this->worker_->stats().lease_lost == 0; ++k) {
    std::this_thread::sleep_for(5ms);
  }
  EXPECT_EQ(this->worker_->stats().lease_lost, 1u);
  this->worker_->stop();
  this->worker_->wait();
  RunResult r = this->find(id);
  EXPECT_EQ(r.status, RunStatus::kCancelled);
  ASSERT_TRUE(r.error.has_value());
  EXPECT_EQ(r.error->kind, ErrorKind::kCancelled);
  EXPECT_EQ(r.error->message, "the customer called");
  EXPECT_EQ(this->ledger_.log(), (Log{"first", "slow"}));  // nothing after, nothing undone
  EXPECT_EQ(r.step("first")->status, StepStatus::kCompleted);
  EXPECT_NE(r.step("slow")->status, StepStatus::kCompleted);  // its commit was refused
  EXPECT_EQ(r.step("after")->status, StepStatus::kPending);
  // It can never be resumed or cancelled again.
  EXPECT_EQ(this->engine_->cancel(id).code(), StatusCode::kFailedPrecondition);
  EXPECT_EQ(this->engine_->resume_halted(id).code(), StatusCode::kFailedPrecondition);
}

// An enqueued run (nobody delivered it yet) is cancelled as well; its job, delivered later, is
// acknowledged and runs nothing.
TYPED_TEST(Operator, CancelOfAnEnqueuedRunLeavesItsJobHarmless) {
  this->engine_->registry().add(linear("Line", this->ledger_, {"a", "b"}).build());
  std::string id;
  ASSERT_OK_AND_ASSIGN(id, this->engine_->run_in_background("Line", Value::object()));
  ASSERT_TRUE(this->engine_->cancel(id).ok());
  RunResult r = this->find(id);
  EXPECT_EQ(r.status, RunStatus::kCancelled);
  EXPECT_EQ(r.error->message, "cancelled by an operator");
  ASSERT_TRUE(this->engine_->run_due_jobs("Line").ok());
  EXPECT_TRUE(this->ledger_.log().empty());
  EXPECT_EQ(this->find(id).status, RunStatus::kCancelled);
  bool job = true;
  ASSERT_OK_AND_ASSIGN(job, this->db().has_job(id));
  EXPECT_FALSE(job);
}

// A waiting run (suspended until a time, as stored) holds no lease: the cancel takes it as it
// is, its suspension gone.
TYPED_TEST(Operator, CancelOfAWaitingRun) {
  this->engine_->registry().add(
      linear("Waits", this->ledger_, {"a", "b"}, {{"b", [] { return Halt(); }}}).build());
  RunResult r = this->engine_->run("Waits", Value::object());
  ASSERT_EQ(r.status, RunStatus::kHalted);
  this->rewrite(r.run_id, [this](reactor::Run& run) {
    run.status = RunStatus::kWaiting;
    run.steps[1].status = StepStatus::kPending;
    run.suspension = Suspension{SuspensionKind::kUntil, this->factory_.now_ms() + 3'600'000, {}, 0};
  });
  ASSERT_EQ(this->find(r.run_id).status, RunStatus::kWaiting);
  ASSERT_TRUE(this->engine_->cancel(r.run_id, "stop waiting").ok());
  RunResult stored = this->find(r.run_id);
  EXPECT_EQ(stored.status, RunStatus::kCancelled);
  EXPECT_EQ(stored.error->message, "stop waiting");
  Result<RunHeaderRow> header = this->db().load_header(r.run_id);
  ASSERT_TRUE(header.ok());
  EXPECT_EQ(header->wake_at_ms, 0);  // nothing will wake it
  EXPECT_EQ(this->ledger_.log(), (Log{"a", "b"}));
}

// Without a store there is nothing to act on: each call says so.
TEST(OperatorInProcess, EveryCallNeedsADurableEngine) {
  Engine engine;
  EXPECT_EQ(engine.cancel("r").code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(engine.undo("r").status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(engine.retry("r").status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(engine.resume_halted("r").code(), StatusCode::kInvalidArgument);
}

// A paused run (an interrupt's, written as it would be stored) is cancelled, nothing undone.
TYPED_TEST(Operator, CancelOfAPausedRun) {
  this->engine_->registry().add(
      linear("Pauses", this->ledger_, {"a", "b"}, {{"b", [] { return Halt(); }}}).build());
  RunResult r = this->engine_->run("Pauses", Value::object());
  ASSERT_EQ(r.status, RunStatus::kHalted);
  this->rewrite(r.run_id, [](reactor::Run& run) {
    run.status = RunStatus::kPaused;
    run.steps[1].status = StepStatus::kPaused;
  });
  ASSERT_TRUE(this->engine_->cancel(r.run_id, "no answer").ok());
  RunResult stored = this->find(r.run_id);
  EXPECT_EQ(stored.status, RunStatus::kCancelled);
  EXPECT_EQ(stored.step("a")->status, StepStatus::kCompleted);  // nothing rolled back
  EXPECT_EQ(this->ledger_.log(), (Log{"a", "b"}));
}

TYPED_TEST(Operator, CancelRefusesUnknownEndedAndRollingBackRuns) {
  this->engine_->registry().add(linear("Line", this->ledger_, {"a"}).build());
  EXPECT_EQ(this->engine_->cancel("no-such-run").code(), StatusCode::kNotFound);
  RunResult done = this->engine_->run("Line", Value::object());
  ASSERT_EQ(done.status, RunStatus::kCompleted);
  Status s = this->engine_->cancel(done.run_id);
  EXPECT_EQ(s.code(), StatusCode::kFailedPrecondition);
  EXPECT_NE(s.message().find("completed"), std::string::npos) << s.to_string();
  this->rewrite(done.run_id, [](Run& run) { run.status = RunStatus::kRollingBack; });
  s = this->engine_->cancel(done.run_id);
  EXPECT_EQ(s.code(), StatusCode::kFailedPrecondition);
  EXPECT_NE(s.message().find("rolling back"), std::string::npos) << s.to_string();
  EXPECT_EQ(this->engine_->cancel("no-such-run:items[0]").code(), StatusCode::kNotFound);
}

// --- undo ---

TYPED_TEST(Operator, UndoOfACompletedRunUndoesNewestFirstThenCancels) {
  OperatorLedger child_ledger;
  Builder inner("Inner");
  noted(inner, this->ledger_, "hold");
  noted(inner, this->ledger_, "charge").wait_for("hold");
  Definition child = inner.build();
  Builder outer = linear("Outer", this->ledger_, {"reserve"});
  outer.compose("payment", child).wait_for("reserve");
  noted(outer, this->ledger_, "ship").wait_for("payment");
  this->engine_->registry().add(outer.build());
  RunResult r = this->engine_->run("Outer", Value::object());
  ASSERT_EQ(r.status, RunStatus::kCompleted) << r.trace_summary();

  RunResult undone;
  ASSERT_OK_AND_ASSIGN(undone, this->engine_->undo(r.run_id));
  EXPECT_EQ(undone.status, RunStatus::kCancelled);
  ASSERT_TRUE(undone.error.has_value());
  EXPECT_EQ(undone.error->kind, ErrorKind::kUndone);
  EXPECT_EQ(this->ledger_.log(),
            (Log{"reserve", "hold", "charge", "ship", "undo:ship of ship", "undo:charge of charge",
                 "undo:hold of hold", "undo:reserve of reserve"}));
  RunResult stored = this->find(r.run_id);
  EXPECT_EQ(stored.status, RunStatus::kCancelled);
  for (const char* step : {"reserve", "payment", "payment/hold", "payment/charge", "ship"}) {
    ASSERT_NE(stored.step(step), nullptr) << step;
    EXPECT_EQ(stored.step(step)->status, StepStatus::kUndone) << step;
  }
  // Undone once: a second undo is refused, and runs nothing.
  EXPECT_EQ(this->engine_->undo(r.run_id).status().code(), StatusCode::kFailedPrecondition);
  EXPECT_EQ(this->ledger_.log().size(), 8u);
}

TYPED_TEST(Operator, UndoOfAHaltedRun) {
  this->engine_->registry().add(
      linear("Halts", this->ledger_, {"a", "b", "c"}, {{"b", [] { return Halt("stop here"); }}})
          .build());
  RunResult r = this->engine_->run("Halts", Value::object());
  ASSERT_EQ(r.status, RunStatus::kHalted);
  RunResult undone;
  ASSERT_OK_AND_ASSIGN(undone, this->engine_->undo(r.run_id));
  EXPECT_EQ(undone.status, RunStatus::kCancelled);
  EXPECT_EQ(this->ledger_.log(), (Log{"a", "b", "undo:a of a"}));
  EXPECT_NE(undone.error->message.find("it was halted"), std::string::npos);
}

// A paused run (an interrupt's, written here as it would be stored) is undone like a halted one.
TYPED_TEST(Operator, UndoOfAPausedRun) {
  this->engine_->registry().add(
      linear("Pauses", this->ledger_, {"a", "b"}, {{"b", [] { return Halt(); }}}).build());
  RunResult r = this->engine_->run("Pauses", Value::object());
  ASSERT_EQ(r.status, RunStatus::kHalted);
  this->rewrite(r.run_id, [](Run& run) {
    run.status = RunStatus::kPaused;
    run.steps[1].status = StepStatus::kPaused;
  });
  RunResult undone;
  ASSERT_OK_AND_ASSIGN(undone, this->engine_->undo(r.run_id));
  EXPECT_EQ(undone.status, RunStatus::kCancelled);
  EXPECT_EQ(this->ledger_.log(), (Log{"a", "b", "undo:a of a"}));
  EXPECT_EQ(this->engine_->cancel(r.run_id).code(), StatusCode::kFailedPrecondition);
}

// A failed run whose rollback was cut off (failed outright by a crash loop, say): the failed
// step is compensated first, with the error it failed with, then the completed ones undone.
TYPED_TEST(Operator, UndoOfAFailedRunCompensatesTheCutOffStepFirst) {
  this->engine_->registry().add(
      linear("Fails", this->ledger_, {"a", "b", "c"}, {{"c", [] { return Halt(); }}}).build());
  RunResult r = this->engine_->run("Fails", Value::object());
  ASSERT_EQ(r.status, RunStatus::kHalted);
  this->rewrite(r.run_id, [](Run& run) {
    run.status = RunStatus::kFailed;
    run.error = RunError{};
    run.error->kind = ErrorKind::kPoisonDelivery;
    run.error->message = "crash loop";
    run.steps[2].status = StepStatus::kFailed;
    run.steps[2].error = "c broke";
    run.steps[2].body_started = true;
    run.failed_step = 2;
  });
  RunResult undone;
  ASSERT_OK_AND_ASSIGN(undone, this->engine_->undo(r.run_id));
  EXPECT_EQ(undone.status, RunStatus::kCancelled);
  EXPECT_EQ(this->ledger_.log(),
            (Log{"a", "b", "c", "compensate:c (c broke)", "undo:b of b", "undo:a of a"}));
  EXPECT_NE(undone.error->message.find("crash loop"), std::string::npos) << undone.error->message;
}

// A map's elements are undone inside its step, highest index first, whether they ran inline,
// as runs of their own (fan_out) or in claims (claim_batch); an element run or a claim is not an
// operator's to act on.
TYPED_TEST(Operator, UndoReachesTheElementsOfInlineFanOutAndClaimedMaps) {
  for (auto [batch, claim] : {std::pair{0u, 1u}, std::pair{2u, 1u}, std::pair{2u, 2u}}) {
    const std::string name = !batch ? "Inline" : claim > 1 ? "Claimed" : "FanOut";
    Builder element(name + ".element");
    element.input("x", integer());
    element.step("double", [](const Args& a) -> StepResult { return Success(2 * a.get<int>("x")); })
        .argument("x", input("x"))
        .undo([this](const Value& v, const Args&, StepContext&) -> StepResult {
          this->ledger_.add("undo:element " + v.dump());
          return Success();
        });
    Builder b = linear(name, this->ledger_, {"reserve"});
    b.input("items", array());
    b.map("m", element.returns("double").build())
        .source(input("items"))
        .argument("x", reactor::element("m"))
        .wait_for("reserve");
    if (batch > 0) b.fan_out(batch).claim_batch(claim);
    this->engine_->registry().add(b.build());
    RunResult r = this->engine_->run(name, {{"items", {1, 2, 3}}});
    if (batch > 0) {
      EXPECT_EQ(r.status, RunStatus::kWaiting);
      ASSERT_TRUE(this->engine_->run_due_jobs(name).ok());
      r = this->find(r.run_id);
    }
    ASSERT_EQ(r.status, RunStatus::kCompleted) << name << " " << r.trace_summary();
    for (const char* part : {":m[0]", ":m[0..1]"}) {
      if (batch == 0 || (claim == 1 && std::string(part) == ":m[0..1]")) continue;
      Status s = this->engine_->cancel(r.run_id + part);
      EXPECT_EQ(s.code(), StatusCode::kInvalidArgument) << name << part << " " << s.to_string();
      EXPECT_NE(s.message().find("act on its run " + r.run_id), std::string::npos)
          << name << part << " " << s.to_string();
    }
    RunResult undone;
    ASSERT_OK_AND_ASSIGN(undone, this->engine_->undo(r.run_id));
    EXPECT_EQ(undone.status, RunStatus::kCancelled) << name;
    EXPECT_EQ(this->ledger_.log(), (Log{"reserve", "undo:element 6", "undo:element 4",
                                        "undo:element 2", "undo:reserve of reserve"}))
        << name;
    EXPECT_EQ(undone.step("m")->status, StepStatus::kUndone) << name;
    this->ledger_.clear();
  }
}

// A run that failed and rolled back has nothing left: refused, nothing runs.
TYPED_TEST(Operator, UndoRefusesRolledBackLiveAndUnknownRuns) {
  this->engine_->registry().add(
      linear("Fails", this->ledger_, {"a", "b"}, {{"b", [] { return Failure("no", false); }}})
          .build());
  RunResult r = this->engine_->run("Fails", Value::object());
  ASSERT_EQ(r.status, RunStatus::kFailed);
  const std::size_t ran = this->ledger_.log().size();
  Status s = this->engine_->undo(r.run_id).status();
  EXPECT_EQ(s.code(), StatusCode::kFailedPrecondition);
  EXPECT_NE(s.message().find("rolled back"), std::string::npos) << s.to_string();
  EXPECT_EQ(this->ledger_.log().size(), ran);
  EXPECT_EQ(this->engine_->undo("nope").status().code(), StatusCode::kNotFound);

  this->engine_->registry().add(linear("Line", this->ledger_, {"x"}).build());
  RunResult done = this->engine_->run("Line", Value::object());
  // Live elsewhere: its lease held by another execution.
  Result<LeaseGrant> held = this->db().acquire_lease(run_lease_key(done.run_id), "other", 10s);
  ASSERT_TRUE(held.ok() && held->granted);
  s = this->engine_->undo(done.run_id).status();
  EXPECT_EQ(s.code(), StatusCode::kFailedPrecondition);
  EXPECT_NE(s.message().find("live elsewhere"), std::string::npos) << s.to_string();
  ASSERT_TRUE(this->db().release_lease(held->lease.key, "other", held->lease.token).ok());
  std::string enqueued;
  ASSERT_OK_AND_ASSIGN(enqueued, this->engine_->run_in_background("Line", Value::object()));
  s = this->engine_->undo(enqueued).status();
  EXPECT_EQ(s.code(), StatusCode::kFailedPrecondition);
  EXPECT_NE(s.message().find("enqueued"), std::string::npos) << s.to_string();
}

// The caller dies inside an undo (its lease taken over before it committed): the undos
// committed before stay done; the sweeper hands the rolling-back run to a worker, which goes on
// from there and ends it cancelled — each undo once.
TYPED_TEST(Operator, AnUndoCutShortIsFinishedByRecoveryUndoingNothingTwice) {
  std::atomic<bool> crash{true};
  Lease seized;
  Builder b("Cut");
  noted(b, this->ledger_, "a");
  b.step("b", [](const Args&) -> StepResult { return Success("b"); })
      .wait_for("a")
      .undo([&](const Value&, const Args&, StepContext& ctx) -> StepResult {
        if (crash.exchange(false)) {
          // The caller's process dies here: its lease goes to another, nothing of it is noted.
          Result<Lease> s = this->db().seize_lease(run_lease_key(ctx.run_id()), "reaper", 10s);
          if (s.ok()) seized = *s;
          return Success();
        }
        this->ledger_.add("undo:b");
        return Success();
      });
  noted(b, this->ledger_, "c").wait_for("b");
  this->engine_->registry().add(b.build());
  RunResult r = this->engine_->run("Cut", Value::object());
  ASSERT_EQ(r.status, RunStatus::kCompleted);

  Status cut = this->engine_->undo(r.run_id).status();
  EXPECT_EQ(cut.code(), StatusCode::kLeaseLost) << cut.to_string();
  RunResult midway = this->find(r.run_id);
  EXPECT_EQ(midway.status, RunStatus::kRollingBack);
  EXPECT_EQ(midway.step("c")->status, StepStatus::kUndone);
  EXPECT_EQ(midway.step("b")->status, StepStatus::kCompleted);
  // Refused while it rolls back; recovery's to finish.
  EXPECT_EQ(this->engine_->undo(r.run_id).status().code(), StatusCode::kFailedPrecondition);

  ASSERT_TRUE(this->db().release_lease(seized.key, seized.owner, seized.token).ok());
  SweepResult swept;
  ASSERT_OK_AND_ASSIGN(swept, this->engine_->sweep_once());
  EXPECT_EQ(swept.requeued, 1u);
  ASSERT_TRUE(this->engine_->run_due_jobs("Cut").ok());
  RunResult end = this->find(r.run_id);
  EXPECT_EQ(end.status, RunStatus::kCancelled);
  EXPECT_EQ(end.error->kind, ErrorKind::kUndone);
  EXPECT_EQ(this->ledger_.log(), (Log{"a", "c", "undo:c of c", "undo:b", "undo:a of a"}));
}

// --- retry ---

TYPED_TEST(Operator, RetryStartsALinkedRunWithTheSameInputs) {
  std::atomic<int> calls{0};
  Builder b("Flaky");
  b.input("order", integer());
  b.step("charge", [&](const Args& a) -> StepResult {
     this->ledger_.add("charge " + std::to_string(a.get<int>("order")));
     if (calls++ == 0) return Failure("card declined", false);
     return Success("charged");
   }).argument("order", input("order"));
  this->engine_->registry().add(b.build());
  RunResult failed = this->engine_->run("Flaky", {{"order", 7}});
  ASSERT_EQ(failed.status, RunStatus::kFailed);

  std::string id;
  ASSERT_OK_AND_ASSIGN(id, this->engine_->retry(failed.run_id));
  EXPECT_NE(id, failed.run_id);
  EXPECT_EQ(this->find(id).status, RunStatus::kEnqueued);  // in the background
  ASSERT_TRUE(this->engine_->run_due_jobs("Flaky").ok());
  RunResult retried = this->find(id);
  EXPECT_EQ(retried.status, RunStatus::kCompleted);
  EXPECT_EQ(retried.retried_from, failed.run_id);
  EXPECT_EQ(this->find(failed.run_id).retries, std::vector<std::string>{id});
  EXPECT_EQ(this->find(failed.run_id).status, RunStatus::kFailed);  // left as it was
  EXPECT_EQ(this->ledger_.log(), (Log{"charge 7", "charge 7"}));

  // A second retry is listed after the first.
  std::string again;
  ASSERT_OK_AND_ASSIGN(again, this->engine_->retry(failed.run_id));
  EXPECT_EQ(this->find(failed.run_id).retries, (std::vector<std::string>{id, again}));
}

TYPED_TEST(Operator, RetryRefusesRunsThatHaveNotEnded) {
  this->engine_->registry().add(linear("Line", this->ledger_, {"a"}).build());
  std::string id;
  ASSERT_OK_AND_ASSIGN(id, this->engine_->run_in_background("Line", Value::object()));
  Status s = this->engine_->retry(id).status();
  EXPECT_EQ(s.code(), StatusCode::kFailedPrecondition);
  EXPECT_NE(s.message().find("enqueued"), std::string::npos) << s.to_string();
  EXPECT_EQ(this->engine_->retry("nope").status().code(), StatusCode::kNotFound);
  EXPECT_TRUE(this->find(id).retries.empty());
}

// --- resume of a halt ---

TYPED_TEST(Operator, ResumeOfAResumableHaltRunsTheHaltedStepAgain) {
  std::atomic<int> calls{0};
  this->engine_->registry().add(linear("Gate", this->ledger_, {"a", "gate", "c"},
                                       {{"gate",
                                         [&]() -> StepResult {
                                           if (calls++ == 0) return ResumableHalt("wait for stock");
                                           return Success("gate");
                                         }}})
                                    .build());
  RunResult r = this->engine_->run("Gate", Value::object());
  ASSERT_EQ(r.status, RunStatus::kHalted);
  EXPECT_EQ(r.value, "wait for stock");
  ASSERT_TRUE(this->engine_->resume_halted(r.run_id).ok());
  RunResult resumed = this->find(r.run_id);
  EXPECT_EQ(resumed.status, RunStatus::kRunning);
  EXPECT_EQ(resumed.step("gate")->status, StepStatus::kPending);
  EXPECT_EQ(resumed.step("gate")->attempts, 0);
  EXPECT_EQ(resumed.step("a")->status, StepStatus::kCompleted);
  ASSERT_TRUE(this->engine_->run_due_jobs("Gate").ok());
  RunResult end = this->find(r.run_id);
  EXPECT_EQ(end.status, RunStatus::kCompleted)
      << end.trace_summary() << (end.error ? end.error->message : "");
  EXPECT_EQ(this->ledger_.log(), (Log{"a", "gate", "gate", "c"}));  // a kept, gate again
  EXPECT_EQ(end.step("gate")->attempts, 1);
  EXPECT_EQ(this->engine_->resume_halted(r.run_id).code(), StatusCode::kFailedPrecondition);
}

TYPED_TEST(Operator, ResumeOfAPlainHaltIsRefused) {
  this->engine_->registry().add(
      linear("Stop", this->ledger_, {"a", "b"}, {{"b", [] { return Halt("for good"); }}}).build());
  RunResult r = this->engine_->run("Stop", Value::object());
  ASSERT_EQ(r.status, RunStatus::kHalted);
  Status s = this->engine_->resume_halted(r.run_id);
  EXPECT_EQ(s.code(), StatusCode::kFailedPrecondition);
  EXPECT_NE(s.message().find("ResumableHalt"), std::string::npos) << s.to_string();
  EXPECT_EQ(this->find(r.run_id).status, RunStatus::kHalted);
  EXPECT_EQ(this->engine_->resume_halted("nope").code(), StatusCode::kNotFound);
}

}  // namespace
}  // namespace reactor::conformance
