// Coordination end to end (issue 25: locks, semaphores, rate limits, periods, ordered locks at
// reactor and step level), on every backend. Jobs are delivered in this thread
// (Engine::run_due_jobs) on the factory's clock; a holder that is not one of the test's runs
// is planted with HoldStore::take_holds, so nothing here races a worker.
#include <atomic>
#include <mutex>
#include <thread>

#include "conformance/conformance_support.hpp"
#include "reactor/reactor.hpp"
#include "reactor/testing.hpp"
#include "support/result_testing.hpp"

namespace reactor::conformance {
namespace {

using Noted = std::vector<std::string>;
using testkit::coordination_of;
using testkit::LockHeldBy;
using testkit::RateWindowCount;
using testkit::SemaphoreTokens;

// "<what> <level> <step> <key> <holder>" per coordination event.
class EventLog final : public Observer {
 public:
  void on_coordination(const EventContext& at, const CoordinationEvent& e) override {
    std::lock_guard lock(mu_);
    events_.push_back(e.what + " " + e.level + " " + at.step + " " + e.key + " " + e.holder);
  }
  std::vector<std::string> events() {
    std::lock_guard lock(mu_);
    return events_;
  }

 private:
  std::mutex mu_;
  std::vector<std::string> events_;
};

template <typename Factory>
class Coordination : public ::testing::Test {
 protected:
  void SetUp() override {
    std::unique_ptr<Backend> raw;
    ASSERT_TRUE(factory_.open(raw).ok());
    EngineOptions options;
    options.clock = factory_.clock();
    options.backend = std::move(raw);
    options.durability.lease_ttl = 2s;
    options.durability.lock_snooze_base_delay = 200ms;
    options.durability.lock_snooze_jitter = 0ms;
    options.durability.lock_snooze_max_attempts = 3;
    options.observers.push_back(events_);
    engine_ = std::make_unique<Engine>(std::move(options));
  }

  Backend& db() { return *engine_->backend(); }

  void note(const std::string& what) {
    std::lock_guard lock(mu_);
    log_.push_back(what);
  }
  Noted log() {
    std::lock_guard lock(mu_);
    return log_;
  }
  // A step that notes "<name>:<input>" and returns its name.
  RunFn noting(const std::string& name, const std::string& input = "id") {
    return [this, name, input](const Args& a, StepContext&) -> StepResult {
      note(name + ":" + a[input].template get<std::string>());
      return Success(name);
    };
  }

  // A live holder of `key` that is none of the test's runs: run "other" with its lease.
  Lease plant_holder(const std::string& key, HoldKind kind = HoldKind::kLock, int limit = 1,
                     const std::string& holder = "other") {
    CommitRequest c;
    c.headers.push_back(header(holder, RunStatus::kRunning, "", "", factory_.now_ms()));
    EXPECT_TRUE(db().commit(c).ok());
    Result<LeaseGrant> g = db().acquire_lease(run_lease_key(holder), "planted", 60s);
    EXPECT_TRUE(g.ok() && g->granted);
    TakeRequest r;
    r.holder = holder;
    r.holds = {HoldClaim{kind, key, limit, holder}};
    Result<TakeResult> t = db().take_holds(r);
    EXPECT_TRUE(t.ok() && t->outcome == TakeOutcome::kTaken);
    return g->lease;
  }
  void let_go(const Lease& l) { ASSERT_TRUE(db().release_lease(l.key, l.owner, l.token).ok()); }

  std::vector<std::string> holders_of(const std::string& key) {
    CoordinationView v;
    EXPECT_OK_AND_ASSIGN(v, db().coordination());
    for (const HoldRow& row : v.holds) {
      if (row.key == key) return row.holders;
    }
    return {};
  }

  std::string start(const std::string& reactor, const std::string& id, Value inputs,
                    BackgroundOptions o = {}) {
    o.run_id = id;
    std::string out;
    EXPECT_OK_AND_ASSIGN(out, engine_->run_in_background(reactor, std::move(inputs), o));
    return out;
  }
  void deliver(const std::string& reactor) { ASSERT_TRUE(engine_->run_due_jobs(reactor).ok()); }
  // Past any snooze, then deliver.
  void later(const std::string& reactor) {
    factory_.advance(300ms);
    deliver(reactor);
  }
  RunResult find(const std::string& id) {
    RunResult r;
    EXPECT_OK_AND_ASSIGN(r, engine_->find(id));
    return r;
  }

  Factory factory_;
  std::shared_ptr<EventLog> events_ = std::make_shared<EventLog>();
  std::unique_ptr<Engine> engine_;
  std::mutex mu_;
  Noted log_;
};
TYPED_TEST_SUITE(Coordination, ConformanceBackends, BackendName);

KeyFn account_key(const std::string& name) {
  return [name](const Args& a) { return "acct-" + a[name].get<std::string>(); };
}

TYPED_TEST(Coordination, AReactorLockSnoozesARunWithoutSpendingAnythingUntilItIsFree) {
  this->engine_->registry().add(Builder("Pay")
                                    .input("id")
                                    .with_lock(account_key("id"))
                                    .step("charge", this->noting("charge"))
                                    .build());
  Lease other = this->plant_holder("acct-1");
  const std::string id = this->start("Pay", "p1", Value{{"id", "1"}});
  this->deliver("Pay");
  EXPECT_TRUE(this->log().empty());  // snoozed: nothing ran
  EXPECT_EQ(this->find(id).status, RunStatus::kEnqueued);
  this->let_go(other);
  this->later("Pay");
  EXPECT_EQ(this->find(id).status, RunStatus::kCompleted);
  EXPECT_EQ(this->log(), (Noted{"charge:1"}));
  EXPECT_TRUE(this->holders_of("acct-1").empty());  // given back with the completing commit
}

TYPED_TEST(Coordination, SnoozesPastTheCapFailTheRunNamingTheKeyWithNothingCompensated) {
  this->engine_->registry().add(Builder("Pay")
                                    .input("id")
                                    .with_lock(account_key("id"))
                                    .step("charge", this->noting("charge"))
                                    .build());
  this->plant_holder("acct-1");
  const std::string id = this->start("Pay", "p1", Value{{"id", "1"}});
  this->deliver("Pay");
  for (int k = 0; k < 3; ++k) this->later("Pay");  // lock_snooze_max_attempts 3
  RunResult r = this->find(id);
  ASSERT_EQ(r.status, RunStatus::kFailed);
  ASSERT_TRUE(r.error.has_value());
  EXPECT_EQ(r.error->kind, ErrorKind::kContended);
  EXPECT_NE(r.error->message.find("key 'acct-1' is held by run other"), std::string::npos)
      << r.error->message;
  EXPECT_TRUE(this->log().empty());
}

TYPED_TEST(Coordination, ACallerWaitsThenGetsContendedNamingReactorAndKey) {
  this->engine_->registry().add(Builder("Pay")
                                    .input("id")
                                    .with_lock(account_key("id"), LockOptions{300ms})
                                    .step("charge", this->noting("charge"))
                                    .build());
  Lease other = this->plant_holder("acct-1");
  RunResult r = this->engine_->run("Pay", Value{{"id", "1"}});
  EXPECT_EQ(r.status, RunStatus::kFailed);
  ASSERT_TRUE(r.error.has_value());
  EXPECT_EQ(r.error->kind, ErrorKind::kContended);
  EXPECT_NE(r.error->message.find("reactor 'Pay': key 'acct-1' is held by run other"),
            std::string::npos)
      << r.error->message;
  EXPECT_TRUE(this->log().empty());
  this->let_go(other);
  EXPECT_EQ(this->engine_->run("Pay", Value{{"id", "1"}}).status, RunStatus::kCompleted);
  EXPECT_EQ(this->log(), (Noted{"charge:1"}));
}

TYPED_TEST(Coordination, AStepLockIsHeldAroundItsBodyOnly) {
  std::vector<std::string> seen;
  Builder b("Move");
  b.input("id")
      .step("debit",
            [&](const Args& a, StepContext&) -> StepResult {
              seen = this->holders_of("acct-" + a["id"].get<std::string>());
              return Success("debited");
            })
      .argument("id", input("id"))
      .with_lock(account_key("id"))
      .step("after",
            [&](const Args&, StepContext&) -> StepResult {
              this->note(this->holders_of("acct-1").empty() ? "free after" : "held after");
              return Success("after");
            })
      .wait_for("debit");
  this->engine_->registry().add(b.build());
  Lease other = this->plant_holder("acct-1");
  const std::string id = this->start("Move", "m1", Value{{"id", "1"}});
  this->deliver("Move");
  RunResult waiting = this->find(id);
  EXPECT_EQ(waiting.step("debit")->status, StepStatus::kPending);
  EXPECT_EQ(waiting.step("debit")->attempts, 0);  // its retries untouched
  this->let_go(other);
  this->later("Move");
  EXPECT_EQ(this->find(id).status, RunStatus::kCompleted);
  EXPECT_EQ(seen, std::vector<std::string>{"m1"});
  EXPECT_EQ(this->log(), (Noted{"free after"}));
  EXPECT_EQ(this->events_->events(), (std::vector<std::string>{"contended step debit acct-1 other",
                                                               "acquired step debit acct-1 ",
                                                               "released step debit acct-1 "}));
}

TYPED_TEST(Coordination, ASemaphoreLetsLimitRunsInAndSnoozesTheNext) {
  CoordinationView inside;
  this->engine_->registry().add(Builder("Api")
                                    .input("id")
                                    .step("call",
                                          [&](const Args& a, StepContext&) -> StepResult {
                                            inside = coordination_of(this->db());
                                            this->note("call:" + a["id"].get<std::string>());
                                            return Success("called");
                                          })
                                    .with_semaphore("bank-api", 2)
                                    .build());
  Lease one = this->plant_holder("bank-api", HoldKind::kSemaphore, 2, "one");
  Lease two = this->plant_holder("bank-api", HoldKind::kSemaphore, 2, "two");
  this->start("Api", "a1", Value{{"id", "a1"}});
  this->deliver("Api");
  EXPECT_TRUE(this->log().empty());  // both tokens taken: snoozed
  this->let_go(two);
  this->later("Api");
  EXPECT_THAT(inside, SemaphoreTokens("bank-api", 2, 0));  // "one" and a1
  EXPECT_THAT(inside, LockHeldBy("bank-api", "a1"));
  EXPECT_EQ(this->log(), (Noted{"call:a1"}));
  this->let_go(one);
  EXPECT_THAT(coordination_of(this->db()), SemaphoreTokens("bank-api", 0, 2));
}

// A delivery that snoozes at a step's gate leaves the run cleanly: the next one must not take
// the step it did not start for an execution lost with its worker (max_interrupted_executions
// is 3: three snoozes counted as losses would fail the run).
TYPED_TEST(Coordination, SnoozesAtAStepsGateAreNoLostExecutions) {
  this->engine_->registry().add(Builder("Move")
                                    .input("id")
                                    .step("debit", this->noting("debit"))
                                    .argument("id", input("id"))
                                    .with_lock(account_key("id"))
                                    .build());
  Lease other = this->plant_holder("acct-1");
  const std::string id = this->start("Move", "m1", Value{{"id", "1"}});
  this->deliver("Move");
  this->later("Move");
  this->later("Move");  // three snoozes: the cap (lock_snooze_max_attempts 3) not passed
  this->let_go(other);
  this->later("Move");
  RunResult r = this->find(id);
  EXPECT_EQ(r.status, RunStatus::kCompleted) << (r.error ? r.error->message : "");
  ASSERT_NE(r.step("debit"), nullptr);
  EXPECT_EQ(r.step("debit")->interrupted, 0);
  EXPECT_EQ(r.step("debit")->attempts, 1);
  EXPECT_EQ(this->log(), (Noted{"debit:1"}));
}

// The next step of a run takes the semaphore its previous step held before that step's release
// is written: its own token must outlive that release, through its body.
TYPED_TEST(Coordination, ASemaphoreStaysHeldThroughTheNextStepOfTheSameRun) {
  std::vector<std::string> during_second;
  Builder b("Calls");
  b.step("first", [](const Args&, StepContext&) -> StepResult { return Success("first"); })
      .with_semaphore("api", 1)
      .step("second",
            [&](const Args&, StepContext&) -> StepResult {
              during_second = this->holders_of("api");
              return Success("second");
            })
      .wait_for("first")
      .with_semaphore("api", 1);
  this->engine_->registry().add(b.build());
  const std::string id = this->start("Calls", "c1", Value::object());
  this->deliver("Calls");
  EXPECT_EQ(this->find(id).status, RunStatus::kCompleted);
  EXPECT_EQ(during_second, std::vector<std::string>{"c1"});
  EXPECT_TRUE(this->holders_of("api").empty());
}

TYPED_TEST(Coordination, ANamedRateLimitCountsEachRunOnceAndSnoozesTheRest) {
  this->engine_->rate_limits().add("bank", {RateWindow{1h, 2}});
  this->engine_->registry().add(Builder("Call")
                                    .input("id")
                                    .with_rate_limit("bank")
                                    .step("call", this->noting("call"))
                                    .build());
  for (const char* id : {"c1", "c2", "c3"}) this->start("Call", id, Value{{"id", id}});
  this->deliver("Call");
  EXPECT_EQ(this->find("c1").status, RunStatus::kCompleted);
  EXPECT_EQ(this->find("c2").status, RunStatus::kCompleted);
  EXPECT_EQ(this->find("c3").status, RunStatus::kEnqueued);  // due when the hour's window ends
  EXPECT_EQ(this->log(), (Noted{"call:c1", "call:c2"}));
  EXPECT_THAT(coordination_of(this->db()), RateWindowCount("bank", 3'600'000, 2));
  EXPECT_THROW(this->engine_->registry().add(
                   Builder("Bad").with_rate_limit("nope").step("s", this->noting("s")).build()),
               DefinitionError);
}

TYPED_TEST(Coordination, ASecondRunInAPeriodHaltsNamingTheBucketAndRunsNothing) {
  this->engine_->registry().add(Builder("Report")
                                    .input("id")
                                    .with_period(PeriodSpec::day())
                                    .step("send", this->noting("send"))
                                    .build());
  this->start("Report", "r1", Value{{"id", "r1"}});
  this->deliver("Report");
  this->start("Report", "r2", Value{{"id", "r2"}});
  this->deliver("Report");
  EXPECT_EQ(this->find("r1").status, RunStatus::kCompleted);
  RunResult r2 = this->find("r2");
  EXPECT_EQ(r2.status, RunStatus::kHalted);
  EXPECT_EQ(r2.value["reason"], "period");
  const std::string bucket = period_bucket(PeriodSpec::day(), this->factory_.now_ms());
  EXPECT_EQ(r2.value["key"], "Report@" + bucket);
  EXPECT_EQ(r2.value["completed_by"], "r1");
  EXPECT_EQ(this->log(), (Noted{"send:r1"}));
}

TYPED_TEST(Coordination, AFailedRunLeavesItsPeriodUnmarked) {
  bool fail = true;
  this->engine_->registry().add(Builder("Report")
                                    .with_period(PeriodSpec::day())
                                    .step("send",
                                          [&](const Args&, StepContext&) -> StepResult {
                                            if (fail) return Failure("smtp down", false);
                                            return Success("sent");
                                          })
                                    .build());
  this->start("Report", "r1", Value::object());
  this->deliver("Report");
  EXPECT_EQ(this->find("r1").status, RunStatus::kFailed);
  fail = false;
  this->start("Report", "r2", Value::object());
  this->deliver("Report");
  EXPECT_EQ(this->find("r2").status, RunStatus::kCompleted);
}

TYPED_TEST(Coordination, AStepsPeriodSkipsItInTheNextRunOfTheBucket) {
  this->engine_->registry().add(Builder("Daily")
                                    .input("id")
                                    .step("digest", this->noting("digest"))
                                    .with_period(PeriodSpec::day())
                                    .step("log", this->noting("log"))
                                    .build());
  this->start("Daily", "d1", Value{{"id", "d1"}});
  this->start("Daily", "d2", Value{{"id", "d2"}});
  this->deliver("Daily");
  EXPECT_EQ(this->find("d2").status, RunStatus::kCompleted);
  EXPECT_EQ(this->find("d2").step("digest")->status, StepStatus::kSkipped);
  EXPECT_EQ(this->log(), (Noted{"digest:d1", "log:d1", "log:d2"}));
}

TYPED_TEST(Coordination, AnOrderedLockRunsAKeysRunsInStartOrder) {
  this->engine_->registry().add(Builder("Apply")
                                    .input("cust")
                                    .input("id")
                                    .with_ordered_lock(account_key("cust"))
                                    .step("apply", this->noting("apply"))
                                    .build());
  BackgroundOptions first_later;
  first_later.delay = 1s;  // the first run's job is due after the second's
  this->start("Apply", "o1", Value{{"cust", "7"}, {"id", "o1"}}, first_later);
  this->start("Apply", "o2", Value{{"cust", "7"}, {"id", "o2"}});
  this->deliver("Apply");
  EXPECT_TRUE(this->log().empty());  // o2 waits for o1
  this->factory_.advance(1s);
  this->deliver("Apply");
  this->later("Apply");
  EXPECT_EQ(this->log(), (Noted{"apply:o1", "apply:o2"}));
  EXPECT_EQ(this->find("o2").status, RunStatus::kCompleted);
}

TYPED_TEST(Coordination, AStrictChainHaltsTheRestAfterAFailureUntilReset) {
  this->engine_->registry().add(Builder("Apply")
                                    .input("cust")
                                    .input("id")
                                    .with_ordered_lock(account_key("cust"))
                                    .step("apply",
                                          [this](const Args& a, StepContext&) -> StepResult {
                                            const std::string id = a["id"].get<std::string>();
                                            this->note(id);
                                            if (id == "o1") return Failure("bad order", false);
                                            return Success(id);
                                          })
                                    .build());
  for (const char* id : {"o1", "o2", "o3"}) {
    this->start("Apply", id, Value{{"cust", "7"}, {"id", id}});
  }
  this->deliver("Apply");
  EXPECT_EQ(this->find("o1").status, RunStatus::kFailed);
  RunResult o2 = this->find("o2");
  EXPECT_EQ(o2.status, RunStatus::kHalted);
  EXPECT_EQ(o2.value["reason"], "ordered_lock_chain_failed");
  EXPECT_EQ(o2.value["failed_run"], "o1");
  EXPECT_EQ(this->find("o3").status, RunStatus::kHalted);
  EXPECT_EQ(this->log(), (Noted{"o1"}));
  ASSERT_TRUE(this->db().ordered_reset("acct-7").ok());
  this->start("Apply", "o4", Value{{"cust", "7"}, {"id", "o4"}});
  this->deliver("Apply");
  EXPECT_EQ(this->find("o4").status, RunStatus::kCompleted);
}

TYPED_TEST(Coordination, AKeyFunctionThatThrowsFailsTheRunBeforeAnyStep) {
  this->engine_->registry().add(Builder("Pay")
                                    .input("id")
                                    .with_lock([](const Args& a) -> std::string {
                                      if (!a.has("acct")) throw std::runtime_error("no account");
                                      return a["acct"].get<std::string>();
                                    })
                                    .step("charge", this->noting("charge"))
                                    .build());
  const std::string id = this->start("Pay", "p1", Value{{"id", "1"}});
  this->deliver("Pay");
  RunResult r = this->find(id);
  EXPECT_EQ(r.status, RunStatus::kFailed);
  EXPECT_EQ(r.error->kind, ErrorKind::kCoordinationKey);
  EXPECT_NE(r.error->message.find("no account"), std::string::npos) << r.error->message;
  EXPECT_TRUE(this->log().empty());
}

TYPED_TEST(Coordination, AComposedChildReentersItsRootsLockAndAnotherRootWaits) {
  Definition leg = Builder("Leg")
                       .input("id")
                       .with_lock(constant_key("acct-1"))
                       .step("move", this->noting("move"))
                       .build();
  this->engine_->registry().add(Builder("Outer")
                                    .input("id")
                                    .with_lock(constant_key("acct-1"))
                                    .step("first", this->noting("first"))
                                    .compose("leg", leg)
                                    .argument("id", input("id"))
                                    .wait_for("first")
                                    .build());
  this->engine_->registry().add(
      Builder("Plain").input("id").compose("leg", leg).argument("id", input("id")).build());
  EXPECT_EQ(this->engine_->run("Outer", Value{{"id", "a"}}).status, RunStatus::kCompleted);
  Lease other = this->plant_holder("acct-1");
  RunResult plain = this->engine_->run("Plain", Value{{"id", "b"}});
  EXPECT_EQ(plain.status, RunStatus::kFailed);
  ASSERT_TRUE(plain.error.has_value());
  EXPECT_EQ(plain.error->kind, ErrorKind::kContended);
  EXPECT_NE(plain.error->message.find("key 'acct-1' is held by run other"), std::string::npos)
      << plain.error->message;
  EXPECT_EQ(this->log(), (Noted{"first:a", "move:a"}));
  this->let_go(other);
}

TYPED_TEST(Coordination, AnAsyncUnitReentersItsRootsLock) {
  Definition invoice = Builder("Invoice")
                           .input("id")
                           .with_lock(constant_key("acct-1"))
                           .step("render", this->noting("render"))
                           .build();
  this->engine_->registry().add(Builder("Order")
                                    .input("id")
                                    .with_lock(constant_key("acct-1"))
                                    .async_reactor("invoice", invoice)
                                    .argument("id", input("id"))
                                    .step("file",
                                          [this](const Args& a, StepContext&) -> StepResult {
                                            this->note("file:" + a["invoice"].dump());
                                            return Success("filed");
                                          })
                                    .argument("invoice", result("invoice"))
                                    .build());
  this->start("Order", "o1", Value{{"id", "o1"}});
  for (int k = 0; k < 5 && this->find("o1").status != RunStatus::kCompleted; ++k) {
    this->deliver("Order");
  }
  EXPECT_EQ(this->find("o1").status, RunStatus::kCompleted);
  EXPECT_EQ(this->log(), (Noted{"render:o1", R"(file:{"render":"render"})"}));
  EXPECT_TRUE(this->holders_of("acct-1").empty());
}

TYPED_TEST(Coordination, ARunPausedAtAnInterruptHoldsNothingAndRetakesItsLockOnResume) {
  std::vector<std::string> held_after;
  this->engine_->registry().add(Builder("Approve")
                                    .input("id")
                                    .with_lock("ledger")
                                    .step("before", this->noting("before"))
                                    .interrupt("approve")
                                    .wait_for("before")
                                    .step("after",
                                          [&](const Args&, StepContext&) -> StepResult {
                                            held_after = this->holders_of("ledger");
                                            return Success("after");
                                          })
                                    .wait_for("approve")
                                    .build());
  this->start("Approve", "a1", Value{{"id", "a1"}});
  this->deliver("Approve");
  EXPECT_EQ(this->find("a1").status, RunStatus::kPaused);
  EXPECT_TRUE(this->holders_of("ledger").empty());
  // Another run takes the lock while a1 waits, and pauses too.
  this->start("Approve", "a2", Value{{"id", "a2"}});
  this->deliver("Approve");
  EXPECT_EQ(this->find("a2").status, RunStatus::kPaused);
  ASSERT_TRUE(this->engine_->resume_interrupt("a1", "approve", Value{{"ok", true}}).ok());
  this->deliver("Approve");
  EXPECT_EQ(this->find("a1").status, RunStatus::kCompleted);
  EXPECT_EQ(held_after, std::vector<std::string>{"a1"});  // taken again on resume
  EXPECT_EQ(this->log(), (Noted{"before:a1", "before:a2"}));
}

// Two parallel steps of one run under the same lock share the root's hold: the first to end keeps
// it (its end written) until the other ends too.
TYPED_TEST(Coordination, ParallelStepsUnderOneLockKeepItUntilTheLastEnds) {
  std::atomic<bool> b_in{false};
  bool a_written = false;
  std::vector<std::string> seen_by_b;
  auto until = [](auto done) {  // bounded: 5 s
    for (int k = 0; k < 500 && !done(); ++k) std::this_thread::sleep_for(10ms);
    return done();
  };
  Builder b("Par");
  b.input("id")
      .max_concurrency(2)
      .step("a",
            [&](const Args&, StepContext&) -> StepResult {
              until([&] { return b_in.load(); });
              return Success("a");
            })
      .with_lock(constant_key("k"))
      .step("b",
            [&](const Args&, StepContext&) -> StepResult {
              b_in = true;
              a_written = until([&] {
                Result<RunResult> r = this->engine_->find("p1");
                return r.ok() && r->step("a")->status == StepStatus::kCompleted;
              });
              seen_by_b = this->holders_of("k");
              return Success("b");
            })
      .with_lock(constant_key("k"));
  this->engine_->registry().add(b.build());
  this->start("Par", "p1", Value{{"id", "1"}});
  this->deliver("Par");
  EXPECT_EQ(this->find("p1").status, RunStatus::kCompleted);
  EXPECT_TRUE(a_written);
  EXPECT_EQ(seen_by_b, std::vector<std::string>{"p1"});
  EXPECT_TRUE(this->holders_of("k").empty());
}

// A step's locks are taken again for its compensate and its undo, in a worker's rollback and in
// an operator's undo, and given back when it is compensated (undone).
TYPED_TEST(Coordination, AStepsLocksAreTakenAgainForItsCompensateAndUndo) {
  Builder b("Move");
  b.input("id")
      .input("fail", boolean().default_value(false))
      .step("debit", this->noting("debit"))
      .argument("id", input("id"))
      .with_lock(constant_key("acct-1"))
      .undo([this](const Value&, const Args&, StepContext&) -> StepResult {
        this->note("undo debit held by " + this->holders_of("acct-1").at(0));
        return Success();
      })
      .step("charge",
            [this](const Args& a, StepContext&) -> StepResult {
              if (a["fail"].template get<bool>()) return Failure("declined", false);
              return Success("charged");
            })
      .argument("fail", input("fail"))
      .wait_for("debit")
      .with_lock(constant_key("acct-2"))
      .compensate([this](const std::string&, const Args&, StepContext&) -> StepResult {
        this->note("compensate charge held by " + this->holders_of("acct-2").at(0));
        return Success();
      });
  this->engine_->registry().add(b.build());
  this->start("Move", "m1", Value{{"id", "1"}, {"fail", true}});
  this->deliver("Move");
  EXPECT_EQ(this->find("m1").status, RunStatus::kFailed);
  EXPECT_EQ(this->log(),
            (Noted{"debit:1", "compensate charge held by m1", "undo debit held by m1"}));
  EXPECT_TRUE(this->holders_of("acct-1").empty());
  EXPECT_TRUE(this->holders_of("acct-2").empty());

  this->start("Move", "m2", Value{{"id", "2"}});
  this->deliver("Move");
  ASSERT_EQ(this->find("m2").status, RunStatus::kCompleted);
  RunResult undone;
  ASSERT_OK_AND_ASSIGN(undone, this->engine_->undo("m2"));
  EXPECT_EQ(undone.status, RunStatus::kCancelled);
  EXPECT_EQ(this->log().back(), "undo debit held by m2");
  EXPECT_TRUE(this->holders_of("acct-1").empty());
}

// An operator's undo runs under the reactor's locks, as the run did: refused, nothing undone, while
// another run holds one past its rollback_wait; then done, holding it.
TYPED_TEST(Coordination, AnOperatorsUndoTakesTheReactorsLockAgain) {
  std::vector<std::string> seen;
  this->engine_->registry().add(
      Builder("Pay")
          .input("id")
          .with_lock(account_key("id"), LockOptions{.wait = 0s, .rollback_wait = 300ms})
          .step("charge", this->noting("charge"))
          .undo([&](const Value&, const Args&, StepContext&) -> StepResult {
            seen = this->holders_of("acct-1");
            return Success();
          })
          .build());
  this->start("Pay", "p1", Value{{"id", "1"}});
  this->deliver("Pay");
  ASSERT_EQ(this->find("p1").status, RunStatus::kCompleted);
  Lease other = this->plant_holder("acct-1");
  Result<RunResult> refused = this->engine_->undo("p1");
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().code(), StatusCode::kDeadlineExceeded);
  EXPECT_NE(refused.status().message().find("key 'acct-1' is held by run other"), std::string::npos)
      << refused.status().to_string();
  EXPECT_EQ(this->find("p1").status, RunStatus::kCompleted);
  EXPECT_TRUE(seen.empty());
  this->let_go(other);
  RunResult undone;
  ASSERT_OK_AND_ASSIGN(undone, this->engine_->undo("p1"));
  EXPECT_EQ(undone.status, RunStatus::kCancelled);
  EXPECT_EQ(seen, std::vector<std::string>{"p1"});
  EXPECT_TRUE(this->holders_of("acct-1").empty());
}

// A rollback never snoozes: it waits the step's rollback_wait where it is, then records the
// undo as a rollback failure naming the key, its code not run.
TYPED_TEST(Coordination, AnUndoWaitsItsRollbackWaitThenFailsNamingTheKey) {
  Lease other;
  Builder b("Move");
  b.input("id")
      .step("debit", this->noting("debit"))
      .argument("id", input("id"))
      .with_lock(constant_key("acct-1"), LockOptions{.wait = 0s, .rollback_wait = 300ms})
      .undo([this](const Value&, const Args&, StepContext&) -> StepResult {
        this->note("undo ran");
        return Success();
      })
      // Its own lock's gate writes debit's release first: acct-1 is free to plant a holder on.
      .step("boom",
            [&](const Args&, StepContext&) -> StepResult {
              other = this->plant_holder("acct-1");
              return Failure("boom", false);
            })
      .wait_for("debit")
      .with_lock(constant_key("acct-9"));
  this->engine_->registry().add(b.build());
  this->start("Move", "m1", Value{{"id", "1"}});
  this->deliver("Move");
  RunResult r = this->find("m1");
  EXPECT_EQ(r.status, RunStatus::kFailed);
  ASSERT_TRUE(r.error.has_value());
  ASSERT_EQ(r.error->rollback_failures.size(), 1u);
  const RollbackFailure& f = r.error->rollback_failures[0];
  EXPECT_EQ(f.step, "debit");
  EXPECT_EQ(f.kind, "undo");
  EXPECT_EQ(f.reason, "contended");
  EXPECT_NE(f.message.find("key 'acct-1' is held by run other"), std::string::npos) << f.message;
  EXPECT_EQ(this->log(), (Noted{"debit:1"}));  // the undo's code did not run
  EXPECT_EQ(this->holders_of("acct-1"), std::vector<std::string>{"other"});
  this->let_go(other);
}

TYPED_TEST(Coordination, AnEngineWithoutAStoreRefusesCoordination) {
  Engine in_process;
  in_process.registry().add(Builder("Pay")
                                .input("id")
                                .with_lock(constant_key("k"))
                                .step("charge", this->noting("charge"))
                                .build());
  RunResult r = in_process.run("Pay", Value{{"id", "1"}});
  EXPECT_EQ(r.status, RunStatus::kFailed);
  EXPECT_EQ(r.error->kind, ErrorKind::kCoordinationKey);
  EXPECT_TRUE(this->log().empty());
}

}  // namespace
}  // namespace reactor::conformance
