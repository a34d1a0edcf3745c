// Fan-out maps end to end (docs/maps.md, issue 17), on every backend: an engine and a worker
// over the store, elements recorded in a side-effect log by their idempotency keys, and the
// reference system's failure modes injected one by one — an element's worker lost before it
// stored its result (M1), the owner's resume lost after the last element (M2), an element
// delivered again (M3), a dispatch cut short (M4), the last element of a window lost (M5), a
// nested map's element lost (N1), a map inside a composed child (C2), atomic rollback inline
// against fan-out (I-7) and a rollback cut short. Back-pressure is checked from the store at
// every commit.
#include <algorithm>

#include "conformance/fan_out_scenarios.hpp"

namespace reactor::conformance {
namespace {

TYPED_TEST_SUITE(FanOutScenarios, ConformanceBackends, BackendName);

TYPED_TEST(FanOutScenarios, EveryElementRunsAsAJobOfItsOwnAndTheMapCollectsInIndexOrder) {
  this->engine_->registry().add(summing(this->fx_, "Sum", 3));
  const std::string id = this->start("Sum", {{"items", items(10)}});
  this->start_worker();
  this->expect_completed_each_once(id, 10);
  // Each element is a run of its own, listed when asked.
  RunFilter f;
  f.elements = true;
  f.limit = 100;
  std::vector<RunHeaderRow> runs;
  ASSERT_OK_AND_ASSIGN(runs, this->store_->list_runs(f));
  EXPECT_EQ(runs.size(), 11u);
  RunResult element;
  ASSERT_OK_AND_ASSIGN(element, this->engine_->find(id + ":m[4]"));
  EXPECT_EQ(element.status, RunStatus::kCompleted);
  EXPECT_EQ(element.value, 8);
  const MapRow m = this->map_of(id);
  EXPECT_EQ(m.total, 10u);
  EXPECT_EQ(m.done, 10u);
  EXPECT_EQ(m.state, MapState::kSettled);
  // Back-pressure, as the store saw it at every commit.
  EXPECT_LE(this->store_->most_outstanding.load(), 3u);
  EXPECT_GE(this->store_->most_outstanding.load(), 1u);
}

// An element that returns Halt halts the map's run, with the element's value, as an inline map
// does: nothing is rolled back (step machine: dispatched, halt, halted).
TYPED_TEST(FanOutScenarios, AnElementsHaltHaltsTheRunWithItsValue) {
  this->element_halt_halts_the_run(1);
}

// I-7: an atomic failure gives the same Failure and undoes the same elements, highest index
// first, inline and fanned out (one element out at a time, so the same elements completed).
TYPED_TEST(FanOutScenarios, AnAtomicFailureIsTheSameInlineAndFannedOut) {
  std::string id;
  this->atomic_failure_is_as_inline(1, 1, id);
  EXPECT_EQ(this->map_of(id).undone, 3u);
}

// With a wider window, elements after the failing one may have completed too: each completed
// element is undone exactly once, highest index first, and none of the never-started runs.
TYPED_TEST(FanOutScenarios, AnAtomicFailureUndoesEachCompletedElementOnceHighestFirst) {
  std::size_t undone = 0;
  this->undoes_each_completed_once(4, 1, undone);
}

TYPED_TEST(FanOutScenarios, ANonAtomicMapCollectsSuccessesAndFailures) {
  Builder b("Sum");
  b.input("items", array())
      .map("m", doubler(this->fx_))
      .source(input("items"))
      .argument("x", element("m"))
      .argument("fail_at", value(2))
      .fan_out(2)
      .atomic(false)
      .collect([](const MapResults& results) {
        Value out = Value::object();
        out["ok"] = results.successes().size();
        out["failed"] = results.failures().size();
        out["first_error"] = results.failures().at(0).error;
        return out;
      })
      .returns("m");
  this->engine_->registry().add(b.build());
  const std::string id = this->start("Sum", {{"items", items(5)}});
  this->start_worker();
  RunResult r = this->wait_for_end(id);
  ASSERT_EQ(r.status, RunStatus::kCompleted) << (r.error ? r.error->message : "");
  EXPECT_EQ(r.value, (Value{{"ok", 4}, {"failed", 1}, {"first_error", "element 2 fails"}}));
  EXPECT_EQ(this->map_of(id).failed, 1u);
  this->expect_failed_elements(id, {2});
}

// undo_all replaces each element's undo with one call, over the completed results read page by
// page (600 elements: three pages).
TYPED_TEST(FanOutScenarios, UndoAllIsOneCallOverTheCompletedResultsPageByPage) {
  this->undo_all_is_one_call(1);
}

// An element's retry is its own: it hands the element back to the queue, never holding a thread.
TYPED_TEST(FanOutScenarios, AnElementRetriesOnItsOwn) { this->element_retries_on_its_own(1); }

// An element whose record cannot be read, or that ran on another graph, fails alone: a
// non-atomic map settles with it failed.
TYPED_TEST(FanOutScenarios, AnUnreadableElementOrAChangedOneFailsOnlyThatElement) {
  Builder b("Sum");
  b.input("items", array())
      .map("m", doubler(this->fx_))
      .source(input("items"))
      .argument("x", element("m"))
      .fan_out(1)
      .atomic(false)
      .returns("m");
  this->engine_->registry().add(b.build());
  // Dispatched here; two elements garbled before any worker runs them.
  const std::string id = this->dispatch("Sum", {{"items", items(4)}});
  CommitRequest garble;
  RunHeaderRow bad;
  ASSERT_OK_AND_ASSIGN(bad, this->store_->load_header(id + ":m[2]"));
  bad.body = "{not json";
  garble.headers.push_back(bad);
  RunHeaderRow moved;
  ASSERT_OK_AND_ASSIGN(moved, this->store_->load_header(id + ":m[3]"));
  moved.fingerprint = "another-graph";
  StepRow executed{moved.id, 0,
                   R"({"attempts":1,"body_started":true,"completion_seq":0,)"
                   R"("error":"","finished_at_ms":0,"name":"double","result":null,)"
                   R"("retry_at_ms":0,"started_at_ms":1,"status":"pending"})"};
  garble.headers.push_back(moved);
  garble.steps.push_back(executed);
  ASSERT_TRUE(this->store_->commit(garble).ok());
  this->start_worker(1);
  RunResult r = this->wait_for_end(id);
  ASSERT_EQ(r.status, RunStatus::kCompleted) << (r.error ? r.error->message : "");
  ASSERT_EQ(r.value.size(), 4u);
  EXPECT_EQ(r.value[0]["ok"], true);
  EXPECT_EQ(r.value[1]["ok"], true);
  EXPECT_EQ(r.value[2]["ok"], false);
  EXPECT_EQ(r.value[3]["ok"], false);
  EXPECT_EQ(this->map_of(id).failed, 2u);
}

// M1 and M5: an element's worker dies before storing its result — here the last element of
// the first window — and the sweeper hands the element to another worker; the next window is
// released when it reports.
TYPED_TEST(FanOutScenarios, AnElementLostWithItsWorkerRunsAgainAndReleasesTheNext) {
  this->engine_->registry().add(summing(this->fx_, "Sum", 2));
  // The two elements of the first window both die with their workers.
  const std::string id = this->dispatch("Sum", {{"items", items(6)}});
  std::optional<Delivery> first = this->take_and_die();
  std::optional<Delivery> second = this->take_and_die();
  ASSERT_TRUE(first && second);
  EXPECT_EQ(second->job.spec.run_id, id + ":m[1]");
  this->let_leases_lapse();
  this->start_worker(1);
  RunResult r = this->wait_for_end(id);
  ASSERT_EQ(r.status, RunStatus::kCompleted) << (r.error ? r.error->message : "");
  EXPECT_EQ(r.value, doubled(6));
  for (int i = 0; i < 6; ++i) {
    EXPECT_EQ(this->fx_.count('S', id + ":m[" + std::to_string(i) + "]/double"), 1) << i;
  }
  // The owner's trace says what its elements lost, as theirs do (issue 23, item 4).
  for (const std::string step : {"m[0]/double", "m[1]/double"}) {
    EXPECT_EQ(std::count_if(r.trace.begin(), r.trace.end(),
                            [&](const TraceEvent& e) {
                              return e.type == TraceType::kInterrupted && e.step == step;
                            }),
              1)
        << step << ": " << r.trace_summary();
  }
  EXPECT_NE(r.trace_summary().find("lost m[0]/double"), std::string::npos) << r.trace_summary();
  EXPECT_EQ(this->map_of(id).interrupted, 2u);
}

// The owner fails while its map's elements wait for a worker (none runs): it does not wait for
// them. The released elements and the next one are filed never run — their runs failed
// owner_ended, their slots cancelled —, the map releases no more and settles, and the run rolls
// back at once; a worker started later runs none of them (issue 23, item 2).
TYPED_TEST(FanOutScenarios, AFailingOwnerCancelsTheElementsNoWorkerStarted) {
  Effects& fx = this->fx_;
  this->engine_->registry().add(failing_beside_its_map(fx));
  // In this process, with no worker: m's first two elements are released, and boom fails.
  RunResult r = this->engine_->run("Sum", {{"items", items(5)}});
  ASSERT_EQ(r.status, RunStatus::kFailed) << this->describe(r.run_id);
  ASSERT_TRUE(r.error);
  EXPECT_EQ(r.error->step, "boom");
  EXPECT_EQ(fx.keys('U', r.run_id), std::vector<std::string>{":reserve"});
  const MapRow m = this->map_of(r.run_id);
  EXPECT_EQ(m.state, MapState::kSettled);
  EXPECT_EQ(m.cancelled, 3u);  // the two released, and the next one to release
  EXPECT_EQ(m.released, 3u);
  EXPECT_EQ(m.done, 3u);
  for (std::uint32_t i = 0; i < 5; ++i) {
    RunHeaderRow h;
    ASSERT_TRUE(assign_or_status(h, this->store_->load_header(element_run_id(m.map_id, i))).ok())
        << i;
    EXPECT_EQ(h.status, i < 3 ? RunStatus::kFailed : RunStatus::kPending) << i;
  }
  RunResult element;
  ASSERT_OK_AND_ASSIGN(element, this->engine_->find(r.run_id + ":m[0]"));
  ASSERT_TRUE(element.error);
  EXPECT_EQ(element.error->kind, ErrorKind::kOwnerEnded);
  // A worker now: the elements' jobs find their runs ended and run nothing.
  this->start_worker(1);
  for (const std::string e : {":m[0]", ":m[1]"}) {
    bool has_job = true;
    for (int k = 0; k < 400 && has_job; ++k) {
      ASSERT_OK_AND_ASSIGN(has_job, this->store_->has_job(r.run_id + e));
      if (has_job) std::this_thread::sleep_for(5ms);
    }
    EXPECT_FALSE(has_job) << e;
  }
  EXPECT_EQ(fx.count('S', r.run_id + ":m[0]/double") + fx.count('S', r.run_id + ":m[1]/double"), 0);
}

// M2: the owner's resume, enqueued by the last element, is lost; the sweeper finds the owner
// waiting with its map settled and resumes it.
TYPED_TEST(FanOutScenarios, AnOwnerWhoseResumeWasLostIsResumedByTheSweeper) {
  this->resume_lost_is_found(1);
}

// M3: an element delivered again after it reported changes nothing: no slot counted twice, the
// owner resumed once.
TYPED_TEST(FanOutScenarios, AnElementDeliveredAgainChangesNothing) {
  this->engine_->registry().add(summing(this->fx_, "Sum", 2));
  const std::string id = this->start("Sum", {{"items", items(4)}});
  this->start_worker();
  RunResult r = this->wait_for_end(id);
  ASSERT_EQ(r.status, RunStatus::kCompleted);
  CommitRequest again;
  again.enqueue.push_back(JobSpec{"Sum", JobKind::kStart, id + ":m[1]", "Doubler", 0, 0});
  again.enqueue.push_back(JobSpec{"Sum", JobKind::kResume, id, "Sum", 0, 0});
  ASSERT_TRUE(this->store_->commit(again).ok());
  for (int k = 0; k < 400; ++k) {
    bool a = true, b = true;
    ASSERT_OK_AND_ASSIGN(a, this->store_->has_job(id + ":m[1]"));
    ASSERT_OK_AND_ASSIGN(b, this->store_->has_job(id));
    if (!a && !b) break;
    std::this_thread::sleep_for(5ms);
  }
  const MapRow m = this->map_of(id);
  EXPECT_EQ(m.done, 4u);
  EXPECT_EQ(this->fx_.count('S', id + ":m[1]/double"), 1);
  ASSERT_OK_AND_ASSIGN(r, this->engine_->find(id));
  EXPECT_EQ(r.status, RunStatus::kCompleted);
  EXPECT_EQ(this->fx_.count('S', id + ":reserve"), 1);
}

// M4: the owner dies while it dispatches (its commit of the map refused); whoever takes the
// run over dispatches again, and every element runs once.
TYPED_TEST(FanOutScenarios, ADispatchCutShortIsDoneAgainByWhoeverTakesTheRunOver) {
  this->dispatch_cut_short_is_done_again(1);
}

// A rollback cut short (an element's undo commit refused) resumes without undoing any element
// twice.
TYPED_TEST(FanOutScenarios, ARollbackCutShortResumesWithoutUndoingAnElementTwice) {
  this->rollback_cut_short_runs_only_the_undo_in_flight_again(1);
}

// N1: a fan-out map inside a fan-out map's element; an inner element lost with its worker is
// run again, and the outer element (the inner map's owner) resumes.
TYPED_TEST(FanOutScenarios, ANestedMapRecoversAnInnerElement) {
  this->nested_map_recovers_an_inner_element(1);
}

// C2: a fan-out map inside a composed child; the root resumes, and the child with it.
TYPED_TEST(FanOutScenarios, AMapInsideAComposedChildResumesItsRoot) {
  this->map_in_a_composed_child_resumes_its_root(1);
}

}  // namespace
}  // namespace reactor::conformance
