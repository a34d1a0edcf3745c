// reactor/testing.hpp: TestRun (mock_step, fail_at, sequential) and the HasTrace / HasStatus /
// FailedAt matchers, used the way a user's own test would use them: in the form docs/testing.md
// recommends, both namespaces used, where `testing::` is still GoogleTest's.
#include <atomic>
#include <thread>

#include "reactor/testing.hpp"
#include "support/result_testing.hpp"
#include "unit/engine_test_support.hpp"

using namespace reactor;
using namespace reactor::testkit;

namespace {

struct Inventory {
  reactor_test::Counters calls;
};

Definition order_saga(Inventory& inv) {
  Definition payment =
      Builder("Payment")
          .input("amount", integer())
          .step("charge",
                [&inv](const Args& a) {
                  inv.calls.hit("charge");
                  return Success(a["amount"]);
                })
          .compensate([](const std::string&, const Args&, StepContext&) { return Success(); })
          .undo([](const Value&, const Args&, StepContext&) { return Success(); })
          .returns("charge")
          .build();
  return Builder("OrderSaga")
      .input("order_id", integer())
      .input("amount", integer())
      .step("reserve",
            [&inv](const Args& a) {
              inv.calls.hit("reserve");
              return Success(a["order_id"].get<int>() * 100);
            })
      .argument("order_id", input("order_id"))
      .undo([](const Value&, const Args&, StepContext&) { return Success(); })
      .compose("payment", payment)
      .argument("amount", input("amount"))
      .wait_for("reserve")
      .step("ship",
            [&inv](const Args& a) {
              inv.calls.hit("ship");
              return Success(Value{{"reservation", a["reservation"]}, {"paid", a["paid"]}});
            })
      .argument("reservation", result("reserve"))
      .argument("paid", result("payment"))
      .compensate([](const std::string&, const Args&, StepContext&) { return Success(); })
      .returns("ship")
      .build();
}

const Value kInputs{{"order_id", 1}, {"amount", 5}};

}  // namespace

TEST(TestingHeader, UnmockedRunBehavesNormally) {
  Inventory inv;
  RunResult r = TestRun(order_saga(inv)).run(kInputs);
  EXPECT_THAT(r, HasStatus(RunStatus::kCompleted));
  EXPECT_THAT(r, HasTrace("ran reserve, payment/charge, payment, ship"));
  EXPECT_EQ(r.value, (Value{{"reservation", 100}, {"paid", 5}}));
}

TEST(TestingHeader, MockStepReplacesTheBodyAndItsValueFlowsOn) {
  Inventory inv;
  RunResult r =
      TestRun(order_saga(inv))
          .mock_step("reserve", [](const Args& a) { return Success(a["order_id"].get<int>() + 6); })
          .run(kInputs);
  EXPECT_THAT(r, HasStatus(RunStatus::kCompleted));
  EXPECT_EQ(r.value["reservation"], 7);
  EXPECT_EQ(inv.calls.get("reserve"), 0) << "the real body must not run";
  EXPECT_EQ(inv.calls.get("ship"), 1);
}

TEST(TestingHeader, MockStepInsideAComposedChildWithContext) {
  Inventory inv;
  std::string seen_path;
  RunResult r = TestRun(order_saga(inv))
                    .mock_step("payment/charge",
                               [&](const Args& a, StepContext& ctx) {
                                 seen_path = ctx.step_path();
                                 return Success(a["amount"].get<int>() * 2);
                               })
                    .run(kInputs);
  EXPECT_THAT(r, HasStatus(RunStatus::kCompleted));
  EXPECT_EQ(seen_path, "payment/charge");
  EXPECT_EQ(r.value["paid"], 10);
  EXPECT_EQ(inv.calls.get("charge"), 0);
}

TEST(TestingHeader, FailAtForcesAFailureThatIsCompensatedAndRolledBack) {
  Inventory inv;
  RunResult r = TestRun(order_saga(inv)).fail_at("ship", "carrier down").run(kInputs);
  EXPECT_THAT(r, HasStatus(RunStatus::kFailed));
  EXPECT_THAT(r, FailedAt("ship", ErrorKind::kStepFailed));
  EXPECT_THAT(r, HasTrace("ran reserve, payment/charge, payment, ship; compensated ship; "
                          "undid payment/charge, reserve"));
  ASSERT_TRUE(r.error);
  EXPECT_EQ(r.error->message, "carrier down");
  EXPECT_EQ(inv.calls.get("ship"), 0);
}

TEST(TestingHeader, FailAtInsideAChildIsNotRetried) {
  Inventory inv;
  RunResult r = TestRun(order_saga(inv)).fail_at("payment/charge").run(kInputs);
  EXPECT_THAT(r, FailedAt("payment/charge", ErrorKind::kStepFailed));
  EXPECT_THAT(r, HasTrace("ran reserve, payment/charge; compensated payment/charge; ran payment; "
                          "undid reserve"));
  ASSERT_TRUE(r.error);
  EXPECT_EQ(r.error->message, "forced failure");
  EXPECT_EQ(r.error->attempts, 1);
}

TEST(TestingHeader, MockingAWholeMapStep) {
  Definition element_reactor =
      Builder("One")
          .input("item", integer())
          .step("work", [](const Args&) { return Failure("real work", false); })
          .build();
  Definition d = Builder("Batch")
                     .input("items", array())
                     .map("each", element_reactor)
                     .source(input("items"))
                     .argument("item", element("each"))
                     .returns("each")
                     .build();
  RunResult r =
      TestRun(d)
          .mock_step("each", [](const Args&) { return Success(Value::array({"canned"})); })
          .run(Value{{"items", Value::array({1, 2})}});
  EXPECT_THAT(r, HasStatus(RunStatus::kCompleted));
  EXPECT_EQ(r.value, Value::array({"canned"}));
}

TEST(TestingHeader, TestRunTakesEngineOptions) {
  auto clock = reactor_test::manual_clock();
  Definition d = Builder("Flaky")
                     .step("s",
                           [](const Args&, StepContext& ctx) {
                             return ctx.attempt() < 3 ? Failure("again") : Success(ctx.attempt());
                           })
                     .retries(exponential_backoff(3, std::chrono::seconds(30)))
                     .returns("s")
                     .build();
  TestRun t(d, reactor_test::with_clock(clock));
  RunResult r = t.run();
  EXPECT_THAT(r, HasStatus(RunStatus::kCompleted));
  EXPECT_THAT(r, HasTrace("ran s, s, s"));
  EXPECT_EQ(clock->sleeps(),
            (std::vector<Duration>{std::chrono::seconds(30), std::chrono::seconds(60)}));
  EXPECT_EQ(&t.engine().clock(), clock.get());
}

TEST(TestingHeader, MatchersReadAsOneLineAndExplainMismatches) {
  Inventory inv;
  RunResult r = TestRun(order_saga(inv)).fail_at("ship", "carrier down").run(kInputs);

  EXPECT_EQ(testing::DescribeMatcher<RunResult>(HasStatus(RunStatus::kFailed)),
            "has status failed");
  EXPECT_EQ(testing::DescribeMatcher<RunResult>(HasTrace("ran a")), "has trace \"ran a\"");
  EXPECT_EQ(testing::DescribeMatcher<RunResult>(FailedAt("ship", ErrorKind::kTimeout)),
            "failed at step ship with timeout");

  testing::StringMatchResultListener status_why;
  EXPECT_FALSE(testing::ExplainMatchResult(HasStatus(RunStatus::kCompleted), r, &status_why));
  EXPECT_EQ(status_why.str(), "whose status is failed (error: carrier down)");

  testing::StringMatchResultListener trace_why;
  EXPECT_FALSE(testing::ExplainMatchResult(HasTrace("ran reserve"), r, &trace_why));
  EXPECT_EQ(trace_why.str(), "whose trace is \"" + r.trace_summary() + "\"");

  testing::StringMatchResultListener failed_why;
  EXPECT_FALSE(
      testing::ExplainMatchResult(FailedAt("charge", ErrorKind::kStepFailed), r, &failed_why));
  EXPECT_EQ(failed_why.str(), "which failed at 'ship' with step_failed: carrier down");

  RunResult ok = TestRun(order_saga(inv)).run(kInputs);
  testing::StringMatchResultListener none_why;
  EXPECT_FALSE(
      testing::ExplainMatchResult(FailedAt("ship", ErrorKind::kStepFailed), ok, &none_why));
  EXPECT_EQ(none_why.str(), "which has no error");
  EXPECT_THAT(ok, testing::Not(HasStatus(RunStatus::kFailed)));
  EXPECT_THAT(r, testing::Not(FailedAt("ship", ErrorKind::kTimeout)));
}

TEST(TestingHeader, RunResultPrintsAsOneReadableLine) {
  Inventory inv;
  RunResult r = TestRun(order_saga(inv)).fail_at("ship", "carrier down").run(kInputs);
  EXPECT_EQ(testing::PrintToString(r),
            "RunResult{OrderSaga run " + r.run_id +
                ", status failed, error step_failed at 'ship': carrier down, trace \"" +
                r.trace_summary() + "\"}");
  RunResult ok = TestRun(order_saga(inv)).run(kInputs);
  EXPECT_THAT(testing::PrintToString(ok),
              testing::HasSubstr("status completed, value {\"paid\":5,\"reservation\":100}"));
}

// The steps of a parallel saga: each counts the steps in flight with it and takes a moment, the
// first of two branches longer than the second, so that run at once they finish out of order.
struct InFlight {
  std::atomic<int> now{0};
  std::atomic<int> most{0};

  RunFn step(std::chrono::microseconds work) {
    return [this, work](const Args&, StepContext&) {
      int n = ++now;
      int seen = most.load();
      while (n > seen && !most.compare_exchange_weak(seen, n)) {
      }
      std::this_thread::sleep_for(work);
      --now;
      return Success();
    };
  }
};

// max_concurrency(2), with a composed child of max_concurrency(2), failing at the join so that
// the undo order is in the trace too.
Definition parallel_saga(InFlight& flight) {
  using std::chrono::microseconds;
  auto noop_undo = [](const Value&, const Args&, StepContext&) { return Success(); };
  Definition child = Builder("Pack")
                         .max_concurrency(2)
                         .step("box", flight.step(microseconds(300)))
                         .undo(noop_undo)
                         .step("label", flight.step(microseconds(0)))
                         .undo(noop_undo)
                         .build();
  return Builder("Fulfilment")
      .max_concurrency(2)
      .step("invoice", flight.step(microseconds(300)))
      .undo(noop_undo)
      .step("reserve", flight.step(microseconds(0)))
      .undo(noop_undo)
      .compose("pack", child)
      .step("ship", [](const Args&) { return Failure("no carrier", false); })
      .wait_for({"invoice", "reserve", "pack"})
      .build();
}

TEST(TestingHeader, SequentialGivesAParallelSagaTheSameTraceOnEveryRun) {
  InFlight flight;
  Definition saga = parallel_saga(flight);
  for (int i = 0; i < 200; ++i) {
    RunResult r = TestRun(saga).sequential().run();
    ASSERT_THAT(r, HasTrace("ran invoice, reserve, pack/box, pack/label, pack, ship; "
                            "undid pack/label, pack/box, reserve, invoice"))
        << "run " << i;
  }
  EXPECT_EQ(flight.most.load(), 1) << "one step at a time, the composed child's too";
}

// The same saga without .sequential() runs its branches at once: both are in flight together
// (a rendezvous, bounded by kSafetyBound), which is what makes its trace vary.
TEST(TestingHeader, WithoutSequentialTheSameSagaRunsItsBranchesAtOnce) {
  reactor_test::Rendezvous both(2);
  std::atomic<bool> met{true};
  auto meet = [&](const Args&) {
    if (!both.arrive_and_wait()) met = false;
    return Success();
  };
  Definition d = Builder("Two").max_concurrency(2).step("a", meet).step("b", meet).build();
  RunResult r = TestRun(d).run();
  EXPECT_THAT(r, HasStatus(RunStatus::kCompleted));
  EXPECT_TRUE(met) << "a and b did not run at the same time";
}

namespace {

// The order saga composed, then a receipt, handed off after it: the notice goes out in a worker.
Definition handed_off_order(Inventory& inv) {
  const Definition d = order_saga(inv);
  return Builder("HandedOffOrder")
      .input("order_id", integer())
      .input("amount", integer())
      .compose("order", d)
      .argument("order_id", input("order_id"))
      .argument("amount", input("amount"))
      .step("receipt",
            [&inv](const Args& a) {
              inv.calls.hit("receipt");
              return Success(a["order"]);
            })
      .argument("order", result("order"))
      .step("notify", [](const Args&) { return Success("sent"); })
      .wait_for("receipt")
      .background_after("receipt")
      .returns("receipt")
      .build();
}

}  // namespace

// durable(): the hand-off and the worker's part run in the test's thread, through jobs on a
// store in memory; the trace says what ran before the hand-off and what after it.
TEST(TestingHeader, ADurableRunGoesThroughItsHandOffInOneCall) {
  Inventory inv;
  RunResult r = TestRun(handed_off_order(inv)).durable().run(kInputs);
  EXPECT_THAT(r, HasStatus(RunStatus::kCompleted));
  EXPECT_THAT(r, HasTrace("ran order/reserve, order/payment/charge, order/payment, order/ship, "
                          "order, receipt; handed off after receipt; ran notify"));
  EXPECT_EQ(r.value, (Value{{"reservation", 100}, {"paid", 5}}));
}

// step_by_step(): the caller's part, then the job it queued, then the worker's part.
TEST(TestingHeader, StepByStepStopsAtTheHandOffUntilTheJobsAreDrained) {
  Inventory inv;
  TestRun t(handed_off_order(inv));
  RunResult r = t.step_by_step().run(kInputs);
  EXPECT_THAT(r, HasStatus(RunStatus::kRunning));
  EXPECT_EQ(r.step("notify")->status, StepStatus::kPending);
  const std::vector<JobSpec> jobs = t.pending_jobs();
  ASSERT_EQ(jobs.size(), 1u);
  EXPECT_EQ(jobs[0].kind, JobKind::kResume);
  EXPECT_EQ(jobs[0].run_id, r.run_id);

  r = t.drain_jobs();
  EXPECT_THAT(r, HasStatus(RunStatus::kCompleted));
  EXPECT_EQ(r.step("notify")->status, StepStatus::kCompleted);
  EXPECT_TRUE(t.pending_jobs().empty());
}

// A mock is part of the reactor the worker's job runs, also inside a composed child.
TEST(TestingHeader, MocksHoldOnBothSidesOfTheHandOff) {
  Inventory inv;
  RunResult r = TestRun(handed_off_order(inv))
                    .mock_step("order/payment/charge", [](const Args&) { return Success(42); })
                    .fail_at("notify", "mail server down")
                    .durable()
                    .run(kInputs);
  EXPECT_THAT(r, HasStatus(RunStatus::kFailed));
  EXPECT_THAT(r, FailedAt("notify", ErrorKind::kStepFailed));
  EXPECT_EQ(inv.calls.get("charge"), 0);  // mocked
  EXPECT_EQ(inv.calls.get("receipt"), 1);
}

namespace {

// reserve → notify (an async_step nobody reads) and invoice (an async_reactor) → close, which
// reads invoice. `notes` counts notify's bodies.
Definition order_with_units(std::atomic<int>& notes) {
  const Definition invoice = Builder("TestInvoice")
                                 .input("amount", integer())
                                 .step("store", [](const Args& a) { return Success(a["amount"]); })
                                 .argument("amount", input("amount"))
                                 .returns("store")
                                 .build();
  return Builder("UnitsOrder")
      .step("reserve", [](const Args&) { return Success(1); })
      .async_step("notify",
                  [&notes](const Args&) {
                    ++notes;
                    return Success("sent");
                  })
      .wait_for("reserve")
      .async_reactor("invoice", invoice)
      .argument("amount", value(5))
      .wait_for("reserve")
      .step("close", [](const Args& a) { return Success(a["invoice"]); })
      .argument("invoice", result("invoice"))
      .returns("close")
      .build();
}

}  // namespace

// durable(): the units' jobs run in this thread, and the reader gets the child's value.
TEST(TestingHeader, ADurableRunDrainsItsAsyncUnitsInOneCall) {
  std::atomic<int> notes{0};
  TestRun t(order_with_units(notes));
  RunResult r = t.durable().run();
  EXPECT_THAT(r, HasStatus(RunStatus::kCompleted));
  EXPECT_EQ(r.value, 5);
  EXPECT_EQ(notes.load(), 1);
  RunResult unit;
  ASSERT_OK_AND_ASSIGN(unit, t.engine().find(r.run_id + ":invoice[0]"));
  EXPECT_EQ(unit.reactor, "TestInvoice");
}

// step_by_step(): the caller dispatches the units and leaves their jobs pending (the run parks
// as in a worker); drain_jobs() runs them, then the run they resume.
TEST(TestingHeader, StepByStepLeavesTheUnitsJobsPendingUntilDrained) {
  std::atomic<int> notes{0};
  TestRun t(order_with_units(notes));
  RunResult r = t.step_by_step().run();
  EXPECT_THAT(r, HasStatus(RunStatus::kWaiting));
  EXPECT_EQ(r.step("notify")->status, StepStatus::kDispatched);
  std::vector<std::string> started;
  int wake_ups = 0;  // the run's own, due when its reader gives up waiting (async_park_timeout)
  for (const JobSpec& j : t.pending_jobs()) {
    if (j.kind == JobKind::kStart) started.push_back(j.run_id);
    if (j.kind == JobKind::kResume && j.run_id == r.run_id) ++wake_ups;
  }
  EXPECT_THAT(started,
              ::testing::UnorderedElementsAre(r.run_id + ":notify[0]", r.run_id + ":invoice[0]"));
  EXPECT_EQ(wake_ups, 1);
  EXPECT_EQ(notes.load(), 0);
  r = t.drain_jobs();
  EXPECT_THAT(r, HasStatus(RunStatus::kCompleted));
  EXPECT_EQ(notes.load(), 1);
}

// A mock of an async_step is the body its job runs: the step stays a unit.
TEST(TestingHeader, AMockOfAnAsyncStepIsTheBodyItsJobRuns) {
  std::atomic<int> notes{0};
  TestRun t(order_with_units(notes));
  t.mock_step("notify", [](const Args&, StepContext&) { return Success("mocked"); });
  RunResult r = t.durable().run();
  EXPECT_THAT(r, HasStatus(RunStatus::kCompleted));
  EXPECT_EQ(notes.load(), 0);
  EXPECT_EQ(r.step("notify")->result, "mocked");
  EXPECT_EQ(r.step("notify")->status, StepStatus::kCompleted);
}

namespace {

// A trip: book, then a fan-out map of ticket emails (one element per traveller), then an
// invoice unit whose render a test may mock. Each email is undone, so a failure after them
// lists their undos.
Definition trip(std::atomic<int>& emails) {
  const Definition email =
      Builder("Trip.ticket")
          .input("who", string())
          .step("email",
                [&emails](const Args& a) {
                  ++emails;
                  return Success("sent to " + a.get<std::string>("who"));
                })
          .argument("who", input("who"))
          .undo([](const Value&, const Args&, StepContext&) { return Success(); })
          .returns("email")
          .build();
  const Definition invoice = Builder("Trip.invoice")
                                 .step("render", [](const Args&) { return Success("pdf"); })
                                 .returns("render")
                                 .build();
  return Builder("Trip")
      .step("book",
            [](const Args&) {
              return Success(Value::array({"ann", "bob"}));
            })
      .undo([](const Value&, const Args&, StepContext&) { return Success(); })
      .map("tickets", email)
      .source(result("book"))
      .argument("who", element("tickets"))
      .fan_out(2)
      .async_reactor("invoice", invoice)
      .wait_for("tickets")
      .step("close", [](const Args& a) { return Success(a["invoice"]); })
      .argument("invoice", result("invoice"))
      .returns("close")
      .build();
}

// The same TestRun, in-process or durable.
TestRun trip_run(std::atomic<int>& emails, bool durable) {
  TestRun t(trip(emails));
  if (durable) t.durable();
  return t;
}

}  // namespace

// One path syntax in both modes (issue 23, item 1): a map's step ("tickets/email", every
// element), one element's ("tickets[1]/email") and a unit's step ("invoice/render").
TEST(TestingHeader, FailAtTakesTheSamePathsInProcessAndDurable) {
  for (const bool durable : {false, true}) {
    SCOPED_TRACE(durable ? "durable" : "in-process");
    std::atomic<int> emails{0};
    RunResult one = trip_run(emails, durable).fail_at("tickets[1]/email", "bounced").run();
    EXPECT_THAT(one, HasStatus(RunStatus::kFailed));
    ASSERT_TRUE(one.error);
    EXPECT_EQ(one.error->message, "bounced");
    EXPECT_EQ(emails.load(), 1);  // element 0 sent, element 1 forced to fail

    emails = 0;
    RunResult every = trip_run(emails, durable).fail_at("tickets/email", "bounced").run();
    EXPECT_THAT(every, HasStatus(RunStatus::kFailed));
    EXPECT_EQ(emails.load(), 0);

    emails = 0;
    RunResult mocked = trip_run(emails, durable)
                           .mock_step("invoice/render", [](const Args&) { return Success("mock"); })
                           .run();
    EXPECT_THAT(mocked, HasStatus(RunStatus::kCompleted));
    EXPECT_EQ(mocked.value, "mock");
    EXPECT_EQ(emails.load(), 2);
  }
}

// A path that names no step is an error when it is given, naming it and the nearest real one.
TEST(TestingHeader, APathThatNamesNoStepIsRefusedWithTheNearestOne) {
  std::atomic<int> emails{0};
  for (const char* path :
       {"tickets/emial", "ticket[1]/email", "tickets[x]/email", "book[0]/email", "tickets[1]"}) {
    SCOPED_TRACE(path);
    try {
      TestRun(trip(emails)).fail_at(path);
      ADD_FAILURE() << "accepted";
    } catch (const std::invalid_argument& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find(std::string("no step '") + path + "' in Trip"), std::string::npos)
          << what;
      EXPECT_NE(what.find("the nearest is '"), std::string::npos) << what;
    }
  }
  try {
    TestRun(trip(emails)).mock_step("tickets/emial", [](const Args&) { return Success(); });
    ADD_FAILURE() << "accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("the nearest is 'tickets/email'"), std::string::npos)
        << e.what();
  }
  EXPECT_NO_THROW(TestRun(trip(emails)).fail_at("invoice[0]/render").fail_at("tickets[0]/email"));
}
// The owner's trace lists what its elements undid, in-process and durable alike (issue 23, item
// 4): a test's expected rollback carries over from one mode to the other.
TEST(TestingHeader, ElementUndosAreInTheOwnersTraceInBothModes) {
  for (const bool durable : {false, true}) {
    SCOPED_TRACE(durable ? "durable" : "in-process");
    std::atomic<int> emails{0};
    RunResult r = trip_run(emails, durable).fail_at("close", "nope").run();
    EXPECT_THAT(r, HasStatus(RunStatus::kFailed));
    const std::string trace = r.trace_summary();
    EXPECT_TRUE(trace.ends_with("; undid tickets[1]/email, tickets[0]/email, book")) << trace;
  }
}
