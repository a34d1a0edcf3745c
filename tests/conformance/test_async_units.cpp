// Async units end to end (Builder::async_step, async_reactor; docs/async.md, issue 18), on every
// backend: a unit is a run of its own, dispatched while its run goes on; a step that reads it
// waits — in a caller woken by the store, in a worker parked — and gets its real outcome. Side
// effects go to a log keyed by idempotency key, so every test says how often each one happened.
#include <atomic>
#include <mutex>
#include <thread>

#include "conformance/conformance_support.hpp"
#include "conformance/faulty_backend.hpp"
#include "reactor/reactor.hpp"
#include "reactor/worker.hpp"
#include "support/result_testing.hpp"

namespace reactor::conformance {
namespace {

// A step that logs 'S' under its idempotency key and returns `value`, undone with a 'U'.
Builder& logged_step(Builder& b, Effects& fx, const std::string& name, Value value) {
  return b
      .step(name,
            [&fx, value](const Args&, StepContext& ctx) -> StepResult {
              fx.add('S', ctx.idempotency_key());
              return Success(value);
            })
      .undo([&fx](const Value&, const Args&, StepContext& ctx) -> StepResult {
        fx.add('U', ctx.idempotency_key());
        return Success();
      });
}

// Invoice (render → store): store fails when input "fail" is true; render is undone.
Definition invoice_reactor(Effects& fx) {
  Builder b("Invoice");
  b.input("amount", integer()).input("fail", boolean().default_value(false));
  logged_step(b, fx, "render", "pdf");
  b.step("store",
         [&fx](const Args& a, StepContext& ctx) -> StepResult {
           if (a.get<bool>("fail")) return Failure("store refuses", false);
           fx.add('S', ctx.idempotency_key());
           return Success(Value{{"invoice", a.get<int>("amount")}});
         })
      .argument("amount", input("amount"))
      .argument("fail", input("fail"))
      .wait_for("render");
  return b.returns("store").build();
}

// reserve → bill (a unit: async_step, or async_reactor Invoice) → side (waits for bill without
// reading it) and, when `read`, close (returns what bill returned). Input fail_unit fails the
// unit; input gate_unit makes it fail retryably until *gate is set.
Definition unit_order(Effects& fx, bool read, bool child, std::atomic<bool>* gate = nullptr) {
  Builder b(read ? "Read" : "Unread");
  b.input("fail_unit", boolean().default_value(false));
  logged_step(b, fx, "reserve", "reserved");
  if (child) {
    b.async_reactor("bill", invoice_reactor(fx))
        .argument("amount", value(42))
        .argument("fail", input("fail_unit"))
        .wait_for("reserve");
  } else {
    b.async_step("bill",
                 [&fx, gate](const Args& a, StepContext& ctx) -> StepResult {
                   if (gate != nullptr && !gate->load()) return Failure("gate closed");
                   if (a.get<bool>("fail")) {
                     fx.add('F', ctx.idempotency_key());
                     return Failure("card declined", false);
                   }
                   fx.add('S', ctx.idempotency_key());
                   return Success(Value{{"invoice", 42}});
                 })
        .argument("fail", input("fail_unit"))
        .compensate([&fx](const std::string&, const Args&, StepContext& ctx) -> StepResult {
          fx.add('C', ctx.idempotency_key());
          return Success();
        })
        .retries(fixed_backoff(10000, 20ms))
        .wait_for("reserve");
  }
  logged_step(b, fx, "side", "side").wait_for("bill");
  if (!read) return b.build();
  b.step("close", [](const Args& a) -> StepResult {
     return Success(a["bill"]);
   }).argument("bill", result("bill"));
  return b.returns("close").build();
}

// The dispatches observers hear of: "<step> <unit run>".
class DispatchesHeard : public Observer {
 public:
  void on_async_dispatch(const EventContext& ctx, const std::string& unit_run) override {
    std::lock_guard lock(mu_);
    heard_.push_back(ctx.step + " " + unit_run);
  }
  std::vector<std::string> heard() {
    std::lock_guard lock(mu_);
    return heard_;
  }

 private:
  std::mutex mu_;
  std::vector<std::string> heard_;
};

template <typename Factory>
class AsyncUnits : public ::testing::Test {
 protected:
  static constexpr Duration kLeaseTtl = 1s;

  void SetUp() override {
    std::unique_ptr<Backend> raw;
    Status s = factory_.open(raw);
    ASSERT_TRUE(s.ok()) << s.to_string();
    store_ = std::make_shared<FaultyBackend>(std::move(raw));
    engine_ = make_engine(factory_.clock());
  }
  void TearDown() override {
    if (worker_) worker_->stop_now();
    worker_.reset();
  }

  std::unique_ptr<Engine> make_engine(std::shared_ptr<Clock> clock,
                                      Duration wait = std::chrono::seconds(30),
                                      Duration park = std::chrono::hours(1),
                                      bool wait_without_workers = false) {
    EngineOptions options = scenario_options(std::move(clock), store_, kLeaseTtl);
    options.durability.async_wait_timeout = wait;
    options.durability.wait_without_workers = wait_without_workers;
    options.durability.async_park_timeout = park;
    options.observers.push_back(dispatches_);
    return std::make_unique<Engine>(std::move(options));
  }

  void add(const Definition& d) { engine_->registry().add(d); }

  void start_worker(int threads = 1) { worker_ = scenario_worker(*engine_, threads); }

  std::string start(const std::string& reactor, Value inputs = Value::object()) {
    return start_in_background(*engine_, reactor, std::move(inputs));
  }

  // Runs "Read" in a worker whose commit that ends the unit bill's run is lost with it (once):
  // the unit's side effect is done, its end never written. The run's end, once the leases of
  // the dead execution lapsed. Dispatch commits are counted meanwhile.
  RunResult run_with_units_last_commit_lost() {
    store_->refuse = [this](const CommitRequest& c) {
      if (!c.maps.empty()) ++dispatch_commits_;
      return c.settle.has_value() && c.root_id.find(":bill[0]") != std::string::npos &&
             faults_++ == 0;
    };
    const std::string id = start("Read");
    start_worker(1);
    wait_for_fault();
    let_leases_lapse();
    return wait_for_end(id);
  }

  // Until the fault the test injects has happened (bounded).
  void wait_for_fault() {
    for (int k = 0; k < 400 && faults_ == 0; ++k) std::this_thread::sleep_for(5ms);
    ASSERT_GE(faults_.load(), 1);
  }

  // Bounded wait until `done` holds of the run, moving a ManualClock on (retry backoffs,
  // snoozes) and sweeping now and then.
  template <typename Done>
  RunResult wait_until(const std::string& id, Done done) {
    RunResult r;
    for (int k = 0; k < 3000; ++k) {
      if (assign_if_ok(r, engine_->find(id)) && done(r)) return r;
      if (k % 10 == 9) factory_.advance(50ms);
      if (k % 50 == 49) sweep();
      std::this_thread::sleep_for(5ms);
    }
    ADD_FAILURE() << "run " << id << " stands " << to_string(r.status) << ": " << r.trace_summary();
    return r;
  }
  RunResult wait_for_end(const std::string& id) {
    return wait_until(id, [](const RunResult& r) { return is_terminal(r.status); });
  }

  void sweep() { EXPECT_TRUE(engine_->sweep_once().ok()); }
  void let_leases_lapse() { factory_.advance(kLeaseTtl + 100ms); }

  Factory factory_;
  std::shared_ptr<DispatchesHeard> dispatches_ = std::make_shared<DispatchesHeard>();
  std::shared_ptr<FaultyBackend> store_;
  std::unique_ptr<Engine> engine_;
  std::unique_ptr<Worker> worker_;
  Effects fx_;
  std::atomic<bool> gate_{false};
  std::atomic<int> faults_{0};
  std::atomic<bool> dispatched_{false};
  std::atomic<bool> take_over_{false};
  std::atomic<int> dispatch_commits_{0};
  std::string target_;
};
TYPED_TEST_SUITE(AsyncUnits, ConformanceBackends, BackendName);

// A unit nobody reads that fails compensates itself, once, in its own job; the run does not roll
// back and completes. Its sibling ran without waiting for it.
TYPED_TEST(AsyncUnits, AnUnreadFailureCompensatesItselfOnceAndTheRunCompletes) {
  this->add(unit_order(this->fx_, /*read=*/false, /*child=*/false));
  this->start_worker();
  RunResult r = this->engine_->run("Unread", {{"fail_unit", true}});
  if (!is_terminal(r.status)) r = this->wait_for_end(r.run_id);
  ASSERT_EQ(r.status, RunStatus::kCompleted) << (r.error ? r.error->message : "");
  EXPECT_EQ(r.step("bill")->status, StepStatus::kUnitFailed);
  EXPECT_EQ(r.step("side")->status, StepStatus::kCompleted);
  EXPECT_EQ(this->fx_.count_containing('F', "bill"), 1);
  EXPECT_EQ(this->fx_.count_containing('C', "bill"), 1);
  EXPECT_EQ(this->fx_.count_containing('U', "reserve"), 0);
}

// The caller's step reads the unit: it waits, woken by the store when the worker finishes the
// unit, and gets its value — the run completes in the caller.
TYPED_TEST(AsyncUnits, ACallerWaitsForTheUnitItReadsAndGetsItsValue) {
  this->add(unit_order(this->fx_, /*read=*/true, /*child=*/false));
  this->start_worker();
  RunResult r = this->engine_->run("Read", Value::object());
  ASSERT_EQ(r.status, RunStatus::kCompleted) << (r.error ? r.error->message : "");
  EXPECT_EQ(r.value, (Value{{"invoice", 42}}));
  EXPECT_EQ(this->fx_.count_containing('S', "bill"), 1);
  RunResult unit;
  ASSERT_OK_AND_ASSIGN(unit, this->engine_->find(r.run_id + ":bill[0]"));
  EXPECT_EQ(unit.status, RunStatus::kCompleted);
  EXPECT_EQ(this->dispatches_->heard(), std::vector<std::string>{"bill " + r.run_id + ":bill[0]"});
}

// A reader that receives the unit's failure fails with it: the run rolls back (reserve undone),
// and the unit — compensated once in its own job — is not compensated again.
TYPED_TEST(AsyncUnits, AReaderThatReceivesTheFailureRollsTheRunBack) {
  this->add(unit_order(this->fx_, /*read=*/true, /*child=*/false));
  this->start_worker();
  RunResult r = this->engine_->run("Read", {{"fail_unit", true}});
  if (!is_terminal(r.status)) r = this->wait_for_end(r.run_id);
  ASSERT_EQ(r.status, RunStatus::kFailed);
  ASSERT_TRUE(r.error.has_value());
  EXPECT_EQ(r.error->kind, ErrorKind::kAsyncUnitFailed);
  EXPECT_EQ(r.error->step, "close");
  EXPECT_NE(r.error->message.find("card declined"), std::string::npos) << r.error->message;
  EXPECT_EQ(this->fx_.count_containing('U', "reserve"), 1);
  EXPECT_EQ(this->fx_.count_containing('C', "bill"), 1);
}

// Told to wait without a worker (wait_without_workers, `start --wait`), the caller's reader
// fails after async_wait_timeout with a typed error naming the unit once, traced as a step that
// did not start, and the run rolls back at once. (The unit's job, run later by a worker, finds
// its run ended and runs nothing: tests/integration/cli_async_wait.sh.)
TYPED_TEST(AsyncUnits, TheCallersWaitTimesOut) {
  this->engine_ = this->make_engine(SystemClock::instance(), 200ms, std::chrono::hours(1),
                                    /*wait_without_workers=*/true);
  this->add(unit_order(this->fx_, /*read=*/true, /*child=*/false));
  RunResult r = this->engine_->run("Read", Value::object());
  ASSERT_EQ(r.status, RunStatus::kFailed) << r.trace_summary();
  ASSERT_TRUE(r.error.has_value());
  EXPECT_EQ(r.error->kind, ErrorKind::kAsyncWaitTimeout);
  EXPECT_EQ(r.error->message, "async unit 'bill' did not finish within 200 ms");
  EXPECT_EQ(r.trace_summary(),
            "ran reserve; dispatched bill; ran side; did not start close; undid side, reserve");
  EXPECT_EQ(this->fx_.count_containing('U', "reserve"), 1);
  EXPECT_EQ(this->fx_.count_containing('S', "bill"), 0);
}

// No worker serves the unit's queue: the caller does not wait async_wait_timeout for nobody,
// it hands the run to the workers at once (waiting, no error); a worker started later ends it.
TYPED_TEST(AsyncUnits, ACallerThatNoWorkerServesHandsTheRunOffAtOnce) {
  this->engine_ = this->make_engine(this->factory_.clock(), std::chrono::hours(1));
  this->add(unit_order(this->fx_, /*read=*/true, /*child=*/false));
  // What `reactor start` says first (Engine::hands_off_unserved), and for which queue.
  EXPECT_TRUE(this->engine_->hands_off_unserved("Read"));
  EXPECT_EQ(this->engine_->queue_for("Read"), "Read");
  EXPECT_FALSE(this->engine_->hands_off_unserved("NoSuchReactor"));
  RunResult r = this->engine_->run("Read", Value::object());
  EXPECT_EQ(r.status, RunStatus::kWaiting) << r.trace_summary();
  EXPECT_FALSE(r.error.has_value());
  EXPECT_EQ(this->fx_.count_containing('S', "bill"), 0);
  this->start_worker();
  for (int k = 0; k < 400 && this->engine_->hands_off_unserved("Read"); ++k) {
    std::this_thread::sleep_for(5ms);  // until the worker's presence lease is in
  }
  EXPECT_FALSE(this->engine_->hands_off_unserved("Read"));
  r = this->wait_for_end(r.run_id);
  EXPECT_EQ(r.status, RunStatus::kCompleted) << r.trace_summary();
  // The trace names the worker that ran each step: this process (Engine::worker_id).
  ASSERT_FALSE(r.trace.empty());
  EXPECT_EQ(r.trace.back().worker, this->engine_->worker_id());
  EXPECT_NE(this->engine_->worker_id(), "");
  EXPECT_EQ(r.value, (Value{{"invoice", 42}}));
}

// A caller asks the store whether a worker serves a unit's queue only when one of its steps is
// about to wait for the unit: a run handed off after the dispatch of a unit it does not read
// asks nothing, and its dispatch costs the caller one request, the commit.
TYPED_TEST(AsyncUnits, ACallerAsksWhetherAWorkerServesOnlyWhenItWaits) {
  Builder b("HandsOff");
  logged_step(b, this->fx_, "reserve", "reserved");
  b.async_step("bill", [](const Args&) { return Success(1); }).wait_for("reserve");
  logged_step(b, this->fx_, "ship", "shipped").wait_for("bill");
  this->add(b.background_after("bill").build());
  this->add(unit_order(this->fx_, /*read=*/true, /*child=*/false));
  RunResult r = this->engine_->run("HandsOff", Value::object());
  EXPECT_FALSE(is_terminal(r.status)) << r.trace_summary();
  EXPECT_EQ(this->store_->presence_peeks.load(), 0);
  // A caller whose reader waits asks, once; nobody serves, so the run goes to the workers.
  r = this->engine_->run("Read", Value::object());
  EXPECT_EQ(r.status, RunStatus::kWaiting) << r.trace_summary();
  EXPECT_EQ(this->store_->presence_peeks.load(), 1);
  this->start_worker();
  EXPECT_EQ(this->wait_for_end(r.run_id).status, RunStatus::kCompleted);
}

// In a worker, the reader's run parks: suspended, its thread free — a second run completes on
// the one-thread worker meanwhile — and resumed when the unit finishes.
TYPED_TEST(AsyncUnits, AWorkerParksTheRunAndResumesItWhenTheUnitFinishes) {
  this->add(unit_order(this->fx_, /*read=*/true, /*child=*/false, &this->gate_));
  Builder quick("Quick");
  logged_step(quick, this->fx_, "only", 1);
  this->add(quick.build());
  const std::string id = this->start("Read");
  this->start_worker(1);
  RunResult parked = this->wait_until(id, [](const RunResult& r) {
    return r.status == RunStatus::kWaiting && r.step("bill")->status == StepStatus::kDispatched &&
           r.step("side")->status == StepStatus::kCompleted;
  });
  ASSERT_EQ(parked.status, RunStatus::kWaiting);
  const std::string other = this->start("Quick");
  EXPECT_EQ(this->wait_for_end(other).status, RunStatus::kCompleted);
  RunResult still;
  ASSERT_OK_AND_ASSIGN(still, this->engine_->find(id));
  EXPECT_EQ(still.status, RunStatus::kWaiting);  // the unit is still failing its attempts
  // The resumed run copies the unit's outcome from its slot: that copy rides on the commit that
  // ends the run, the reader's, instead of a commit of its own before the reader starts.
  std::atomic<int> resumed_commits{0};
  this->store_->set_refuse([&](const CommitRequest& c) {
    if (c.root_id == id) ++resumed_commits;
    return false;
  });
  const int reads_before = this->store_->slot_reads;
  this->gate_ = true;
  RunResult r = this->wait_for_end(id);
  ASSERT_EQ(r.status, RunStatus::kCompleted) << (r.error ? r.error->message : "");
  EXPECT_EQ(r.value, (Value{{"invoice", 42}}));
  EXPECT_EQ(resumed_commits.load(), 1);
  // It reads the unit's slot once: from the store, or from its delivery when the fetch brought
  // it (Redis does), without a request.
  const int delivered = this->store_->slots_delivered;
  EXPECT_LE(delivered, 1);
  EXPECT_EQ(this->store_->slot_reads - reads_before, 1 - delivered);
  this->store_->set_refuse(nullptr);
}

// A parked reader whose unit never finishes fails async_park_timeout after the dispatch.
TYPED_TEST(AsyncUnits, AParkedReaderFailsAfterTheParkTimeout) {
  this->engine_ = this->make_engine(this->factory_.clock(), 30s, 500ms);
  this->add(unit_order(this->fx_, /*read=*/true, /*child=*/false, &this->gate_));
  const std::string id = this->start("Read");
  this->start_worker(1);
  RunResult r = this->wait_for_end(id);
  ASSERT_EQ(r.status, RunStatus::kFailed) << r.trace_summary();
  ASSERT_TRUE(r.error.has_value());
  EXPECT_EQ(r.error->kind, ErrorKind::kAsyncParkTimeout);
  EXPECT_EQ(r.error->step, "close");
  EXPECT_EQ(this->fx_.count_containing('U', "reserve"), 1);
  this->gate_ = true;  // the unit may finish now; nothing reads it any more
}

// The execution that dispatched the unit is lost right after the dispatch commit, before its
// run recorded it: whoever takes the run over re-attaches to the unit — one side effect.
TYPED_TEST(AsyncUnits, ACrashRightAfterTheDispatchReattachesWithoutASecondDispatch) {
  this->add(unit_order(this->fx_, /*read=*/true, /*child=*/false));
  this->store_->refuse = [this](const CommitRequest& c) {
    if (!c.maps.empty()) {
      this->target_ = c.root_id;
      this->dispatched_ = true;
      ++this->dispatch_commits_;
      return false;
    }
    return this->dispatched_ && c.root_id == this->target_ && this->faults_++ == 0;
  };
  // The worker that executed it is dead: whoever fetches the run next dies too, holding its
  // lease, until the test lets the run be taken over.
  this->store_->die_with = [this](const Job& job) {
    return this->faults_ > 0 && job.spec.run_id == this->target_ && !this->take_over_;
  };
  const std::string id = this->start("Read");
  this->start_worker(1);
  ASSERT_NO_FATAL_FAILURE(this->wait_for_fault());
  // The unit runs to its end meanwhile; only then is the run taken over: a second dispatch
  // would start the finished unit again.
  RunResult unit = this->wait_for_end(id + ":bill[0]");
  ASSERT_EQ(unit.status, RunStatus::kCompleted);
  this->take_over_ = true;
  this->let_leases_lapse();
  RunResult r = this->wait_for_end(id);
  ASSERT_EQ(r.status, RunStatus::kCompleted) << (r.error ? r.error->message : "");
  // Whatever a second dispatch would have queued has run by now.
  bool queued = true;
  for (int k = 0; k < 400 && queued; ++k) {
    ASSERT_OK_AND_ASSIGN(queued, this->store_->has_job(id + ":bill[0]"));
    if (queued) std::this_thread::sleep_for(5ms);
  }
  EXPECT_FALSE(queued);
  EXPECT_EQ(this->dispatch_commits_.load(), 1);  // re-attached: no second dispatch commit
  EXPECT_EQ(this->fx_.count_containing('S', "bill"), 1);
  EXPECT_EQ(this->fx_.count_containing('S', "reserve"), 1);
}

// An async_reactor child whose worker dies in its last step — the step's side effect done, its
// commit never made — is recovered by the sweeper like any run: only that step runs again.
TYPED_TEST(AsyncUnits, AChildKilledMidRunIsRecoveredAndRerunsOnlyItsStepInFlight) {
  this->add(unit_order(this->fx_, /*read=*/true, /*child=*/true));
  RunResult r = this->run_with_units_last_commit_lost();
  ASSERT_EQ(r.status, RunStatus::kCompleted) << (r.error ? r.error->message : "");
  EXPECT_EQ(r.value, (Value{{"invoice", 42}}));
  EXPECT_EQ(this->fx_.count_containing('S', "bill[0]/render"), 1);
  EXPECT_EQ(this->fx_.count_containing('S', "bill[0]/store"), 2);
  RunResult child;
  ASSERT_OK_AND_ASSIGN(child, this->engine_->find(r.run_id + ":bill[0]"));
  EXPECT_EQ(child.status, RunStatus::kCompleted);
}

// An async_step's job dies in its step — the side effect done, its commit never made: the
// unit's run is recovered like any run and only that step runs again; the run's own steps and
// its dispatch are not repeated.
TYPED_TEST(AsyncUnits, ACrashInsideAnAsyncStepsJobRerunsOnlyItsStep) {
  this->add(unit_order(this->fx_, /*read=*/true, /*child=*/false));
  RunResult r = this->run_with_units_last_commit_lost();
  ASSERT_EQ(r.status, RunStatus::kCompleted) << (r.error ? r.error->message : "");
  EXPECT_EQ(this->fx_.count_containing('S', "bill[0]/bill"), 2);
  EXPECT_EQ(this->fx_.count_containing('S', "reserve"), 1);
  EXPECT_EQ(this->fx_.count_containing('S', "side"), 1);
  EXPECT_EQ(this->dispatch_commits_.load(), 1);
}

// An async_reactor child that fails rolls itself back (render undone once, by the child); the
// parent's reader receives the failure and the parent rolls back its own steps only.
TYPED_TEST(AsyncUnits, AChildThatFailsRollsItselfBackAndTheReaderGetsTheFailure) {
  this->add(unit_order(this->fx_, /*read=*/true, /*child=*/true));
  this->start_worker();
  RunResult r = this->engine_->run("Read", {{"fail_unit", true}});
  if (!is_terminal(r.status)) r = this->wait_for_end(r.run_id);
  ASSERT_EQ(r.status, RunStatus::kFailed);
  ASSERT_TRUE(r.error.has_value());
  EXPECT_EQ(r.error->kind, ErrorKind::kAsyncUnitFailed);
  EXPECT_NE(r.error->message.find("store refuses"), std::string::npos) << r.error->message;
  EXPECT_EQ(this->fx_.count_containing('U', "bill[0]/render"), 1);
  EXPECT_EQ(this->fx_.count_containing('U', "reserve"), 1);
  RunResult child;
  ASSERT_OK_AND_ASSIGN(child, this->engine_->find(r.run_id + ":bill[0]"));
  EXPECT_EQ(child.status, RunStatus::kFailed);
}

// A unit inside a composed child: dispatched by the child's driver, it resumes the root run, and
// the child's reader gets its value — in a worker (parked) and in a caller (woken by the store).
TYPED_TEST(AsyncUnits, AUnitInsideAComposedChildResumesItsRoot) {
  Builder inner("Payment");
  inner.async_step("note", [](const Args&) { return Success(7); });
  inner.step("after", [](const Args& a) { return Success(a["note"]); })
      .argument("note", result("note"));
  Builder outer("Outer");
  logged_step(outer, this->fx_, "reserve", "reserved");
  outer.compose("payment", inner.returns("after").build()).wait_for("reserve");
  this->add(outer.returns("payment").build());
  this->start_worker(1);
  RunResult parked = this->wait_for_end(this->start("Outer"));
  ASSERT_EQ(parked.status, RunStatus::kCompleted) << parked.trace_summary();
  EXPECT_EQ(parked.value, 7);
  RunResult unit;
  ASSERT_OK_AND_ASSIGN(unit, this->engine_->find(parked.run_id + ":payment/note[0]"));
  EXPECT_EQ(unit.status, RunStatus::kCompleted);
  RunResult waited = this->engine_->run("Outer", Value::object());
  ASSERT_EQ(waited.status, RunStatus::kCompleted) << waited.trace_summary();
  EXPECT_EQ(waited.value, 7);
}

// Invalid inputs for the child fail the dispatching step itself, in the caller: nothing is
// dispatched and the run rolls back.
TYPED_TEST(AsyncUnits, InvalidChildInputsFailTheDispatch) {
  Builder b("BadChild");
  logged_step(b, this->fx_, "reserve", "reserved");
  b.async_reactor("bill", invoice_reactor(this->fx_))
      .argument("amount", value("lots"))
      .wait_for("reserve");
  this->add(b.build());
  RunResult r = this->engine_->run("BadChild", Value::object());
  ASSERT_EQ(r.status, RunStatus::kFailed);
  EXPECT_EQ(r.error->kind, ErrorKind::kInputInvalid);
  EXPECT_EQ(r.error->step, "bill");
  EXPECT_EQ(this->fx_.count_containing('U', "reserve"), 1);
  MapRow m;
  EXPECT_EQ(assign_or_status(m, this->store_->load_map(r.run_id + ":bill")).code(),
            StatusCode::kNotFound);
}

}  // namespace
}  // namespace reactor::conformance
