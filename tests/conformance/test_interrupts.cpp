// Interrupts end to end (Builder::interrupt, Engine::resume_interrupt; issue 24), on every
// backend: a run pauses at an interrupt holding nothing, a payload resumes it once — checked as
// inputs are, claimed in one commit —, and its timeout, lazy or active, rolls it back. Jobs run
// in this thread (Engine::run_due_jobs) and time is the factory's: nothing here races a worker
// but the test that makes two resumes race on purpose.
#include <atomic>
#include <mutex>
#include <thread>

#include "conformance/conformance_support.hpp"
#include "reactor/reactor.hpp"
#include "support/result_testing.hpp"

namespace reactor::conformance {
namespace {

using namespace std::chrono_literals;

// What the steps did, in order ("check", "refund approved=true", "undo:check").
class Ledger {
 public:
  void add(std::string line) {
    std::lock_guard lock(mu_);
    lines_.push_back(std::move(line));
  }
  std::vector<std::string> lines() const {
    std::lock_guard lock(mu_);
    return lines_;
  }

 private:
  mutable std::mutex mu_;
  std::vector<std::string> lines_;
};

using Lines = std::vector<std::string>;

// check → approve (interrupt) → refund: refund fails when approve's payload says no.
Definition refund(Ledger& l, const std::string& name, std::function<void(Builder&)> tune = {}) {
  Builder b(name);
  b.input("order_id", integer())
      .step("check",
            [&l](const Args&) -> StepResult {
              l.add("check");
              return Success("reserved");
            })
      .undo([&l](const Value&, const Args&, StepContext&) -> StepResult {
        l.add("undo:check");
        return Success();
      })
      .interrupt("approve")
      .wait_for("check")
      .argument("order_id", input("order_id"))
      .payload("approved", boolean())
      .payload("by", string())
      .correlation_id(
          [name](const Args& a) { return name + "-" + std::to_string(a.get<int>("order_id")); });
  if (tune) tune(b);
  b.step("refund", [&l](const Args& a) -> StepResult {
     const bool ok = a.get<Value>("decision")["approved"].get<bool>();
     l.add(std::string("refund approved=") + (ok ? "true" : "false"));
     if (!ok) return Failure("refund rejected", false);
     return Success("refunded");
   }).argument("decision", result("approve"));
  return b.returns("refund").build();
}

template <typename Factory>
class Interrupts : public ::testing::Test {
 protected:
  void SetUp() override {
    Status s = open_durable_engine(factory_, 1s, engine_);
    ASSERT_TRUE(s.ok()) << s.to_string();
  }

  // Starts `reactor` for order `order` and runs its jobs: it is paused at its interrupt.
  std::string paused_run(const std::string& reactor, int order = 7) {
    std::string id;
    EXPECT_OK_AND_ASSIGN(id, engine_->run_in_background(reactor, {{"order_id", order}}));
    EXPECT_TRUE(engine_->run_due_jobs(reactor).ok());
    EXPECT_EQ(find(id).status, RunStatus::kPaused) << ::testing::PrintToString(find(id));
    return id;
  }
  RunResult find(const std::string& id) {
    RunResult r;
    EXPECT_OK_AND_ASSIGN(r, engine_->find(id));
    return r;
  }
  bool has_job(const std::string& id) {
    bool job = false;
    EXPECT_OK_AND_ASSIGN(job, engine_->backend()->has_job(id));
    return job;
  }
  std::string lease_holder(const std::string& id) {
    Lease lease;
    EXPECT_OK_AND_ASSIGN(lease, engine_->backend()->peek_lease(run_lease_key(id)));
    return lease.owner;
  }

  Factory factory_;
  Ledger ledger_;
  std::unique_ptr<Engine> engine_;
};
TYPED_TEST_SUITE(Interrupts, ConformanceBackends, BackendName);

const Value kYes = {{"approved", true}, {"by", "ann"}};
const Value kNo = {{"approved", false}, {"by", "bob"}};

TYPED_TEST(Interrupts, APausedRunHoldsNothingAndAPayloadResumesItInAWorker) {
  this->engine_->registry().add(refund(this->ledger_, "Refund"));
  const std::string id = this->paused_run("Refund");
  RunResult paused = this->find(id);
  EXPECT_EQ(paused.step("approve")->status, StepStatus::kPaused);
  EXPECT_EQ(paused.trace_summary(), "ran check; paused at approve");
  EXPECT_FALSE(this->has_job(id));        // no timeout: nothing wakes it but a payload
  EXPECT_EQ(this->lease_holder(id), "");  // and it holds no lease
  EXPECT_EQ(this->ledger_.lines(), Lines{"check"});

  RunResult resumed;
  ASSERT_OK_AND_ASSIGN(resumed, this->engine_->resume_interrupt(id, "approve", kYes));
  EXPECT_EQ(resumed.status, RunStatus::kRunning);  // for a worker: its job is due now
  EXPECT_EQ(resumed.step("approve")->result, kYes);
  EXPECT_TRUE(this->has_job(id));
  ASSERT_TRUE(this->engine_->run_due_jobs("Refund").ok());
  RunResult done = this->find(id);
  ASSERT_EQ(done.status, RunStatus::kCompleted) << ::testing::PrintToString(done);
  EXPECT_EQ(done.value, "refunded");
  EXPECT_EQ(done.trace_summary(), "ran check; paused at approve; resumed approve; ran refund");
  EXPECT_EQ(this->ledger_.lines(), (Lines{"check", "refund approved=true"}));
}

TYPED_TEST(Interrupts, AnInvalidPayloadIsRefusedWithEveryFieldErrorAndTheInterruptWaitsOn) {
  this->engine_->registry().add(refund(this->ledger_, "Refund"));
  const std::string id = this->paused_run("Refund");
  Result<RunResult> refused = this->engine_->resume_interrupt(id, "approve", {{"approved", "y"}});
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(refused.status().message().find("approved: must be a boolean"), std::string::npos)
      << refused.status().message();
  EXPECT_NE(refused.status().message().find("by: is missing"), std::string::npos);
  refused = this->engine_->resume_interrupt(id, "approve",
                                            {{"approved", true}, {"by", "x"}, {"extra", 1}});
  EXPECT_EQ(refused.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(refused.status().message().find("extra: is not a declared payload field"),
            std::string::npos);
  // max_attempts 1: refused as often as asked, and still waiting.
  EXPECT_EQ(this->find(id).status, RunStatus::kPaused);
  EXPECT_EQ(this->find(id).step("approve")->attempts, 0);
  ASSERT_TRUE(this->engine_->resume_interrupt(id, "approve", kYes).ok());
  ASSERT_TRUE(this->engine_->run_due_jobs("Refund").ok());
  EXPECT_EQ(this->find(id).status, RunStatus::kCompleted);
}

TYPED_TEST(Interrupts, TheSecondResumeIsToldItWasResumedAlready) {
  this->engine_->registry().add(refund(this->ledger_, "Refund"));
  const std::string id = this->paused_run("Refund");
  ASSERT_TRUE(this->engine_->resume_by_correlation("Refund-7", kYes).ok());
  Result<RunResult> again = this->engine_->resume_interrupt(id, "approve", kNo);
  EXPECT_EQ(again.status().code(), StatusCode::kAlreadyExists) << again.status().to_string();
  again = this->engine_->resume_by_correlation("Refund-7", kNo);
  EXPECT_EQ(again.status().code(), StatusCode::kAlreadyExists) << again.status().to_string();
  ASSERT_TRUE(this->engine_->run_due_jobs("Refund").ok());
  EXPECT_EQ(this->find(id).status, RunStatus::kCompleted);
  EXPECT_EQ(this->ledger_.lines(), (Lines{"check", "refund approved=true"}));  // the first won
  again = this->engine_->resume_interrupt(id, "approve", kYes);
  EXPECT_EQ(again.status().code(), StatusCode::kFailedPrecondition);  // the run has ended
  EXPECT_NE(again.status().message().find("has ended completed"), std::string::npos);
}

TYPED_TEST(Interrupts, ARejectionRollsTheRunBack) {
  this->engine_->registry().add(refund(this->ledger_, "Refund"));
  const std::string id = this->paused_run("Refund");
  ASSERT_TRUE(this->engine_->resume_interrupt(id, "approve", kNo).ok());
  ASSERT_TRUE(this->engine_->run_due_jobs("Refund").ok());
  RunResult r = this->find(id);
  EXPECT_EQ(r.status, RunStatus::kFailed);
  EXPECT_EQ(this->ledger_.lines(), (Lines{"check", "refund approved=false", "undo:check"}));
}

TYPED_TEST(Interrupts, ResumesNamingWhatIsNotThereAreRefusedNamingWhy) {
  this->engine_->registry().add(refund(this->ledger_, "Refund"));
  const std::string id = this->paused_run("Refund");
  EXPECT_EQ(this->engine_->resume_interrupt("no-such-run", "approve", kYes).status().code(),
            StatusCode::kNotFound);
  EXPECT_EQ(this->engine_->resume_interrupt(id, "aprove", kYes).status().code(),
            StatusCode::kNotFound);
  EXPECT_EQ(this->engine_->resume_interrupt(id, "check", kYes).status().code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(this->engine_->resume_by_correlation("Refund-8", kYes).status().code(),
            StatusCode::kNotFound);
  EXPECT_EQ(this->find(id).status, RunStatus::kPaused);  // none of them changed anything
}

// Two interrupts in a row: the second is not reached while the first waits.
TYPED_TEST(Interrupts, AnInterruptNotReachedYetIsRefused) {
  this->engine_->registry().add(refund(
      this->ledger_, "Twice", [](Builder& b) { b.interrupt("confirm").wait_for("approve"); }));
  const std::string id = this->paused_run("Twice");
  Result<RunResult> early = this->engine_->resume_interrupt(id, "confirm", Value::object());
  EXPECT_EQ(early.status().code(), StatusCode::kFailedPrecondition);
  EXPECT_NE(early.status().message().find("dependencies are not complete"), std::string::npos);
  ASSERT_TRUE(this->engine_->resume_interrupt(id, "approve", kYes).ok());
  ASSERT_TRUE(this->engine_->run_due_jobs("Twice").ok());
  EXPECT_EQ(this->find(id).status, RunStatus::kPaused);
  EXPECT_EQ(this->find(id).step("confirm")->status, StepStatus::kPaused);
  ASSERT_TRUE(this->engine_->resume_interrupt(id, "confirm", Value::object()).ok());
  ASSERT_TRUE(this->engine_->run_due_jobs("Twice").ok());
  EXPECT_EQ(this->find(id).status, RunStatus::kCompleted);
}

// Two interrupts ready at once: each is resumable, each applied once, the run goes on after both.
TYPED_TEST(Interrupts, SeveralReadyInterruptsAreEachResumedOnce) {
  Builder b("Both");
  b.interrupt("legal")
      .interrupt("finance")
      .step(
          "sign",
          [this](const Args& a) -> StepResult {
            this->ledger_.add("sign " + a.get<Value>("l").dump() + " " + a.get<Value>("f").dump());
            return Success();
          })
      .argument("l", result("legal"))
      .argument("f", result("finance"));
  this->engine_->registry().add(b.build());
  std::string id;
  ASSERT_OK_AND_ASSIGN(id, this->engine_->run_in_background("Both", Value::object()));
  ASSERT_TRUE(this->engine_->run_due_jobs("Both").ok());
  RunResult r = this->find(id);
  ASSERT_EQ(r.status, RunStatus::kPaused);
  EXPECT_EQ(r.step("legal")->status, StepStatus::kPaused);
  EXPECT_EQ(r.step("finance")->status, StepStatus::kPaused);
  ASSERT_TRUE(this->engine_->resume_interrupt(id, "finance", {{"ok", 2}}).ok());
  // The run waits for its worker; the other interrupt still takes its payload meanwhile.
  ASSERT_TRUE(this->engine_->resume_interrupt(id, "legal", {{"ok", 1}}).ok());
  EXPECT_EQ(this->engine_->resume_interrupt(id, "legal", {{"ok", 3}}).status().code(),
            StatusCode::kAlreadyExists);
  ASSERT_TRUE(this->engine_->run_due_jobs("Both").ok());
  EXPECT_EQ(this->find(id).status, RunStatus::kCompleted);
  EXPECT_EQ(this->ledger_.lines(), Lines{R"(sign {"ok":1} {"ok":2})"});
}

TYPED_TEST(Interrupts, AnInterruptInAComposedChildPausesTheRootAndIsResumedByItsPath) {
  Definition child = refund(this->ledger_, "Child");
  Builder b("Parent");
  b.input("order_id", integer())
      .compose("inner", child)
      .argument("order_id", input("order_id"))
      .step("close",
            [this](const Args&) -> StepResult {
              this->ledger_.add("close");
              return Success();
            })
      .wait_for("inner");
  this->engine_->registry().add(b.build());
  const std::string id = this->paused_run("Parent");
  EXPECT_EQ(this->find(id).step("inner")->status, StepStatus::kRunning);
  EXPECT_EQ(this->engine_->resume_interrupt(id, "approve", kYes).status().code(),
            StatusCode::kNotFound);  // a root step of that name there is not
  ASSERT_TRUE(this->engine_->resume_interrupt(id, "inner/approve", kYes).ok());
  ASSERT_TRUE(this->engine_->run_due_jobs("Parent").ok());
  RunResult r = this->find(id);
  ASSERT_EQ(r.status, RunStatus::kCompleted) << ::testing::PrintToString(r);
  EXPECT_EQ(this->ledger_.lines(), (Lines{"check", "refund approved=true", "close"}));
}

TYPED_TEST(Interrupts, ByCorrelationAChildsInterruptIsFoundFromTheRoot) {
  this->engine_->registry().add(Builder("Outer")
                                    .input("order_id", integer())
                                    .compose("inner", refund(this->ledger_, "Kid"))
                                    .argument("order_id", input("order_id"))
                                    .build());
  const std::string id = this->paused_run("Outer", 9);
  ASSERT_TRUE(this->engine_->resume_by_correlation("Kid-9", kYes).ok());
  ASSERT_TRUE(this->engine_->run_due_jobs("Outer").ok());
  EXPECT_EQ(this->find(id).status, RunStatus::kCompleted);
}

TYPED_TEST(Interrupts, ResumedInlineTheRunGoesOnInTheCaller) {
  this->engine_->registry().add(refund(this->ledger_, "Refund"));
  const std::string id = this->paused_run("Refund");
  RunResult r;
  ASSERT_OK_AND_ASSIGN(r,
                       this->engine_->resume_interrupt(id, "approve", kYes, {.run_inline = true}));
  EXPECT_EQ(r.status, RunStatus::kCompleted) << ::testing::PrintToString(r);
  EXPECT_EQ(r.value, "refunded");
  EXPECT_FALSE(this->has_job(id));
  EXPECT_EQ(this->lease_holder(id), "");
}

TYPED_TEST(Interrupts, MaxAttemptsInvalidPayloadsRollTheRunBack) {
  this->engine_->registry().add(
      refund(this->ledger_, "Strict", [](Builder& b) { b.max_attempts(2); }));
  const std::string id = this->paused_run("Strict");
  Result<RunResult> first = this->engine_->resume_interrupt(id, "approve", Value::object());
  EXPECT_EQ(first.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(first.status().message().find("(1 of 2)"), std::string::npos)
      << first.status().message();
  EXPECT_EQ(this->find(id).status, RunStatus::kPaused);
  Result<RunResult> last = this->engine_->resume_interrupt(id, "approve", Value::object());
  EXPECT_EQ(last.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(last.status().message().find("rolled back"), std::string::npos);
  ASSERT_TRUE(this->engine_->run_due_jobs("Strict").ok());
  RunResult r = this->find(id);
  EXPECT_EQ(r.status, RunStatus::kFailed);
  ASSERT_TRUE(r.error.has_value());
  EXPECT_EQ(r.error->kind, ErrorKind::kInputInvalid);
  EXPECT_EQ(this->ledger_.lines(), (Lines{"check", "undo:check"}));
}

TYPED_TEST(Interrupts, ALazyTimeoutRefusesALateResumeAndRollsTheRunBack) {
  this->engine_->registry().add(
      refund(this->ledger_, "Lazy", [](Builder& b) { b.timeout(300ms, TimeoutMode::kLazy); }));
  const std::string id = this->paused_run("Lazy");
  EXPECT_FALSE(this->has_job(id));  // lazy: nothing wakes it
  this->factory_.advance(400ms);
  Result<RunResult> late = this->engine_->resume_interrupt(id, "approve", kYes);
  EXPECT_EQ(late.status().code(), StatusCode::kDeadlineExceeded) << late.status().to_string();
  ASSERT_TRUE(this->engine_->run_due_jobs("Lazy").ok());
  RunResult r = this->find(id);
  EXPECT_EQ(r.status, RunStatus::kFailed);
  ASSERT_TRUE(r.error.has_value());
  EXPECT_EQ(r.error->kind, ErrorKind::kTimeout);
  EXPECT_EQ(r.step("approve")->status, StepStatus::kCompensated);  // nothing to compensate
  EXPECT_EQ(this->ledger_.lines(), (Lines{"check", "undo:check"}));
}

TYPED_TEST(Interrupts, AnActiveTimeoutRollsTheRunBackWithNobodyCalling) {
  this->engine_->registry().add(
      refund(this->ledger_, "Active", [](Builder& b) { b.timeout(300ms, TimeoutMode::kActive); }));
  const std::string id = this->paused_run("Active");
  EXPECT_TRUE(this->has_job(id));  // the wake-up, due at the deadline
  ASSERT_TRUE(this->engine_->run_due_jobs("Active").ok());
  EXPECT_EQ(this->find(id).status, RunStatus::kPaused);  // not due yet
  this->factory_.advance(400ms);
  ASSERT_TRUE(this->engine_->run_due_jobs("Active").ok());
  RunResult r = this->find(id);
  EXPECT_EQ(r.status, RunStatus::kFailed) << ::testing::PrintToString(r);
  EXPECT_EQ(r.trace_summary(), "ran check; paused at approve; timed out at approve; undid check");
  EXPECT_EQ(this->ledger_.lines(), (Lines{"check", "undo:check"}));
}

TYPED_TEST(Interrupts, ATimeoutReadFromAnInputIsInSeconds) {
  Builder b("FromInput");
  b.input("timeout_s", number().default_value(3600))
      .interrupt("approve")
      .timeout(input("timeout_s"), TimeoutMode::kActive);
  this->engine_->registry().add(b.build());
  std::string id;
  ASSERT_OK_AND_ASSIGN(id, this->engine_->run_in_background("FromInput", {{"timeout_s", 0.3}}));
  ASSERT_TRUE(this->engine_->run_due_jobs("FromInput").ok());
  EXPECT_EQ(this->find(id).status, RunStatus::kPaused);
  this->factory_.advance(400ms);
  ASSERT_TRUE(this->engine_->run_due_jobs("FromInput").ok());
  EXPECT_EQ(this->find(id).status, RunStatus::kFailed);
  ASSERT_OK_AND_ASSIGN(id, this->engine_->run_in_background("FromInput", {{"timeout_s", -1}}));
  ASSERT_TRUE(this->engine_->run_due_jobs("FromInput").ok());
  RunResult bad = this->find(id);
  EXPECT_EQ(bad.status, RunStatus::kFailed);  // not a timeout it can keep
  ASSERT_TRUE(bad.error.has_value());
  EXPECT_NE(bad.error->message.find("not a positive number of seconds"), std::string::npos);
}

// A correlation id names one waiting interrupt: a second run computing the same id while the
// first waits fails at its interrupt, naming the holder.
TYPED_TEST(Interrupts, TwoWaitingInterruptsCannotShareACorrelationId) {
  this->engine_->registry().add(refund(this->ledger_, "Refund"));
  const std::string first = this->paused_run("Refund", 5);
  std::string second;
  ASSERT_OK_AND_ASSIGN(second, this->engine_->run_in_background("Refund", {{"order_id", 5}}));
  ASSERT_TRUE(this->engine_->run_due_jobs("Refund").ok());
  RunResult r = this->find(second);
  EXPECT_EQ(r.status, RunStatus::kFailed);
  ASSERT_TRUE(r.error.has_value());
  EXPECT_NE(r.error->message.find("is held by interrupt 'approve' of run " + first),
            std::string::npos)
      << r.error->message;
  // Once the first is resumed, the id is free for the next interrupt that reaches it.
  ASSERT_TRUE(this->engine_->resume_by_correlation("Refund-5", kYes).ok());
  const std::string third = this->paused_run("Refund", 5);
  ASSERT_TRUE(this->engine_->resume_by_correlation("Refund-5", kNo).ok());
  ASSERT_TRUE(this->engine_->run_due_jobs("Refund").ok());
  EXPECT_EQ(this->find(first).status, RunStatus::kCompleted);
  EXPECT_EQ(this->find(third).status, RunStatus::kFailed);
}

// Two callers resume one interrupt at once: exactly one wins; the step after it runs once.
TYPED_TEST(Interrupts, OfTwoRacingResumesExactlyOneWins) {
  this->engine_->registry().add(refund(this->ledger_, "Refund"));
  const std::string id = this->paused_run("Refund");
  std::atomic<int> won{0}, already{0};
  std::vector<std::thread> callers;
  for (int k = 0; k < 2; ++k) {
    callers.emplace_back([&] {
      Status s = this->engine_->resume_interrupt(id, "approve", kYes).status();
      if (s.ok()) ++won;
      if (s.code() == StatusCode::kAlreadyExists) ++already;
    });
  }
  for (auto& t : callers) t.join();
  EXPECT_EQ(won.load(), 1);
  EXPECT_EQ(already.load(), 1);
  ASSERT_TRUE(this->engine_->run_due_jobs("Refund").ok());
  EXPECT_EQ(this->ledger_.lines(), (Lines{"check", "refund approved=true"}));
}

TEST(InterruptDefinitions, AnInterruptInsideAMapElementOrAUnitIsRejected) {
  Definition elements = Builder("Element").input("x").interrupt("wait").build();
  try {
    (void)Builder("Mapped")
        .input("xs", array())
        .map("each", elements)
        .source(input("xs"))
        .argument("x", element("each"))
        .build();
    ADD_FAILURE() << "built";
  } catch (const DefinitionError& e) {
    EXPECT_NE(std::string(e.what()).find("not supported inside a map element"), std::string::npos)
        << e.what();
  }
  EXPECT_THROW(
      (void)Builder("Unit").async_reactor("later", elements).argument("x", value(1)).build(),
      DefinitionError);
  EXPECT_THROW((void)Builder("Bad").interrupt("i").max_attempts(0).build(), DefinitionError);
  EXPECT_THROW(
      (void)Builder("Bad").step("s", [](const Args&) { return Success(); }).payload("x").build(),
      DefinitionError);
}

}  // namespace
}  // namespace reactor::conformance

namespace reactor::conformance {
namespace {

// In process there is no store to wait in: the run ends paused, and a resume says what it needs.
TEST(InterruptsInProcess, ARunPausesAndAResumeNeedsAStore) {
  Ledger ledger;
  Engine engine;
  engine.registry().add(refund(ledger, "Refund"));
  RunResult r = engine.run("Refund", {{"order_id", 1}});
  EXPECT_EQ(r.status, RunStatus::kPaused);
  EXPECT_EQ(r.step("approve")->status, StepStatus::kPaused);
  EXPECT_EQ(r.trace_summary(), "ran check; paused at approve");
  Result<RunResult> resumed = engine.resume_interrupt(r.run_id, "approve", kYes);
  EXPECT_EQ(resumed.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(resumed.status().message().find("needs an engine with a backend"), std::string::npos);
}

// A test mocks an interrupt as any step: the mock's value is its payload.
TEST(InterruptsInProcess, AMockedInterruptRunsAsAStepWithTheMocksValue) {
  Ledger ledger;
  Engine engine;
  engine.registry().add(refund(ledger, "Refund"));
  RunOptions options;
  options.overrides["approve"] = [](const Args&, StepContext&) -> StepResult {
    return Success(kNo);
  };
  RunResult r = engine.run("Refund", {{"order_id", 1}}, options);
  EXPECT_EQ(r.status, RunStatus::kFailed);
  EXPECT_EQ(ledger.lines(), (Lines{"check", "refund approved=false", "undo:check"}));
}

}  // namespace
}  // namespace reactor::conformance
