// Claimed fan-out maps end to end (Builder::claim_batch, docs/maps.md "Claims"), on every
// backend: elements released a claim at a time, each claim one run whose delivery runs its
// elements in memory and files their slots with one commit; the same values, failures and
// undone sets as a map whose elements are runs; a claim lost with its worker runs again whole;
// a failing owner cancels the claims nobody started.
#include <gmock/gmock.h>

#include "conformance/fan_out_scenarios.hpp"
#include "records/run_rows.hpp"

namespace reactor::conformance {
namespace {

using ::testing::HasSubstr;

template <typename Factory>
class ClaimedFanOut : public FanOutScenarios<Factory> {
 protected:
  // The status of run `id`'s claim run "<id>:m[first..last]".
  RunStatus claim_status(const std::string& id, int first, int last) {
    RunHeaderRow h;
    const std::string claim =
        id + ":m[" + std::to_string(first) + ".." + std::to_string(last) + "]";
    Status s = assign_or_status(h, this->store_->load_header(claim));
    EXPECT_TRUE(s.ok()) << claim << ": " << s.to_string();
    return h.status;
  }
};
TYPED_TEST_SUITE(ClaimedFanOut, ConformanceBackends, BackendName);

// Ten elements in claims of 3 ([0..2] … [9..9]), at most 4 out: four claim runs and no element
// run; each element ran once, with the idempotency key it has as a run of its own.
TYPED_TEST(ClaimedFanOut, ElementsRunInClaimsAndTheMapCollectsInIndexOrder) {
  this->engine_->registry().add(summing(this->fx_, "Sum", 4, true, nullptr, 3));
  const std::string id = this->start("Sum", {{"items", items(10)}});
  this->start_worker();
  this->expect_completed_each_once(id, 10);
  for (int first : {0, 3, 6}) {
    EXPECT_EQ(this->claim_status(id, first, first + 2), RunStatus::kCompleted) << first;
  }
  EXPECT_EQ(this->claim_status(id, 9, 9), RunStatus::kCompleted);
  RunHeaderRow none;
  EXPECT_EQ(assign_or_status(none, this->store_->load_header(id + ":m[4]")).code(),
            StatusCode::kNotFound);
  RunFilter f;
  f.elements = true;
  f.limit = 100;
  std::vector<RunHeaderRow> runs;
  ASSERT_OK_AND_ASSIGN(runs, this->store_->list_runs(f));
  EXPECT_EQ(runs.size(), 5u);  // the owner and its four claims
  // A claimed element reads as its slot says, as an element run would.
  RunResult element;
  ASSERT_OK_AND_ASSIGN(element, this->engine_->find(id + ":m[4]"));
  EXPECT_EQ(element.status, RunStatus::kCompleted);
  EXPECT_EQ(element.value, 8);
  EXPECT_EQ(element.reactor, "Doubler");
  Inspector inspector(*this->store_);
  std::optional<ElementInfo> info;
  ASSERT_OK_AND_ASSIGN(info, inspector.element_of(id + ":m[4]"));
  ASSERT_TRUE(info);
  EXPECT_EQ(info->owner_id, id);
  EXPECT_EQ(info->index, 4u);
  EXPECT_EQ(info->step, "m");
  RunResult past_the_end;
  EXPECT_EQ(assign_or_status(past_the_end, this->engine_->find(id + ":m[10]")).code(),
            StatusCode::kNotFound);
  const MapRow m = this->map_of(id);
  EXPECT_EQ(m.claim, 3u);
  EXPECT_EQ(m.total, 10u);
  EXPECT_EQ(m.done, 10u);
  EXPECT_EQ(m.state, MapState::kSettled);
  // The window, in elements: a claim is released while fewer than 4 are out.
  EXPECT_LE(this->store_->most_outstanding.load(), 4u + 3u - 1u);
}

// A graceful stop lets the claim in flight run to its end and files it, as a run's step in flight
// finishes and commits: no element of it runs again, and the owner goes on with the next worker.
TYPED_TEST(ClaimedFanOut, AGracefulStopFilesTheClaimInFlight) {
  static std::atomic<bool> go;
  go = false;
  Effects& fx = this->fx_;
  std::atomic<int>& in_step = this->faults_;
  Definition gated = Builder("Gated")
                         .input("x", integer())
                         .input("fail_at", any().optional())
                         .step("double",
                               [&fx, &in_step](const Args& a, StepContext& ctx) -> StepResult {
                                 fx.add('S', ctx.idempotency_key());
                                 ++in_step;
                                 while (!go) std::this_thread::sleep_for(1ms);
                                 return Success(2 * a.get<std::int64_t>("x"));
                               })
                         .argument("x", input("x"))
                         .returns("double")
                         .build();
  this->engine_->registry().add(summing(fx, "Sum", 3, true, &gated, 3));
  const std::string id = this->start("Sum", {{"items", items(3)}});
  this->start_worker(1);
  for (int k = 0; k < 2000 && in_step == 0; ++k) std::this_thread::sleep_for(5ms);
  ASSERT_EQ(in_step.load(), 1);  // element 0 of claim [0..2] is inside its step
  this->worker_->stop();
  go = true;
  this->worker_->wait();
  EXPECT_EQ(this->claim_status(id, 0, 2), RunStatus::kCompleted);
  EXPECT_EQ(this->worker_->stats().released, 0u);
  this->worker_.reset();
  this->start_worker(1);
  RunResult r = this->wait_for_end(id);
  ASSERT_EQ(r.status, RunStatus::kCompleted) << (r.error ? r.error->message : "");
  EXPECT_EQ(r.value, doubled(3));
  for (int i = 0; i < 3; ++i)
    EXPECT_EQ(fx.count('S', id + ":m[" + std::to_string(i) + "]/double"), 1) << i;
}

// fan_out(input(…)) and claim_batch(input(…)): both sizes read when the map starts; a size that is
// not an integer from 1 fails the map unresolved, naming it, and nothing is dispatched.
TYPED_TEST(ClaimedFanOut, SizesReadFromInputsWhenTheMapStarts) {
  this->engine_->registry().add(Builder("Sized")
                                    .input("items", array())
                                    .input("batch", integer())
                                    .input("claim", integer())
                                    .map("m", doubler(this->fx_))
                                    .source(input("items"))
                                    .argument("x", element("m"))
                                    .fan_out(input("batch"))
                                    .claim_batch(input("claim"))
                                    .returns("m")
                                    .build());
  this->start_worker();
  const std::string id = this->start("Sized", {{"items", items(7)}, {"batch", 4}, {"claim", 3}});
  RunResult r = this->wait_for_end(id);
  ASSERT_EQ(r.status, RunStatus::kCompleted) << (r.error ? r.error->message : "");
  EXPECT_EQ(r.value, doubled(7));
  const MapRow m = this->map_of(id);
  EXPECT_EQ(m.claim, 3u);
  EXPECT_EQ(m.batch_size, 4u);
  EXPECT_EQ(this->claim_status(id, 3, 5), RunStatus::kCompleted);
  const std::string zero = this->start("Sized", {{"items", items(7)}, {"batch", 4}, {"claim", 0}});
  r = this->wait_for_end(zero);
  ASSERT_EQ(r.status, RunStatus::kFailed);
  ASSERT_TRUE(r.error);
  EXPECT_THAT(r.error->message,
              HasSubstr("the claim size of map 'm' is 0, not an integer from 1 to"));
  EXPECT_EQ(this->fx_.count('S', zero + ":m[0]/double"), 0);
}

// checkpoint_steps() (the default, stated): each element a run of its own, the map's claim 1.
TYPED_TEST(ClaimedFanOut, CheckpointStepsKeepsEachElementARunOfItsOwn) {
  this->engine_->registry().add(Builder("Each")
                                    .input("items", array())
                                    .map("m", doubler(this->fx_))
                                    .source(input("items"))
                                    .argument("x", element("m"))
                                    .fan_out(2)
                                    .checkpoint_steps()
                                    .returns("m")
                                    .build());
  const std::string id = this->start("Each", {{"items", items(4)}});
  this->start_worker();
  RunResult r = this->wait_for_end(id);
  ASSERT_EQ(r.status, RunStatus::kCompleted) << (r.error ? r.error->message : "");
  EXPECT_EQ(r.value, doubled(4));
  EXPECT_EQ(this->map_of(id).claim, 1u);
  for (int i = 0; i < 4; ++i) {
    RunHeaderRow element;
    const std::string element_id = id + ":m[" + std::to_string(i) + "]";
    ASSERT_OK_AND_ASSIGN(element, this->store_->load_header(element_id));
    EXPECT_EQ(element.status, RunStatus::kCompleted) << element_id;
  }
}

// I-7 for claims: the same Failure and the same undone elements, highest index first, as the
// map inline. Claim [3..5] runs element 3, which fails: 4 and 5 never run (filed cancelled).
TYPED_TEST(ClaimedFanOut, AnAtomicFailureIsTheSameInlineAndClaimed) {
  std::string id;
  this->atomic_failure_is_as_inline(1, 3, id);
  EXPECT_EQ(this->fx_.count('S', id + ":m[4]/double"), 0);
  RunResult element;
  ASSERT_OK_AND_ASSIGN(element, this->engine_->find(id + ":m[1]"));
  EXPECT_EQ(element.status, RunStatus::kCompleted);
  ASSERT_EQ(element.steps.size(), 1u);
  EXPECT_EQ(element.steps[0].status, StepStatus::kUndone) << "its steps, undone by its owner";
  ASSERT_OK_AND_ASSIGN(element, this->engine_->find(id + ":m[4]"));
  EXPECT_EQ(element.status, RunStatus::kFailed);
  ASSERT_TRUE(element.error);
  EXPECT_EQ(element.error->kind, ErrorKind::kOwnerEnded) << "never run";
  const MapRow m = this->map_of(id);
  EXPECT_EQ(m.undone, 3u);
  EXPECT_EQ(m.failed, 1u);
  EXPECT_EQ(m.cancelled, 2u);
}

// With a wider window, claims after the failing one may have completed: each completed element
// is undone once, highest index first, under its claim's lease.
TYPED_TEST(ClaimedFanOut, AnAtomicFailureUndoesEachCompletedElementOnceHighestFirst) {
  std::size_t undone = 0;
  this->undoes_each_completed_once(6, 2, undone);
  EXPECT_GT(undone, 0u);
}

// A non-atomic map runs every element of every claim, whatever fails.
TYPED_TEST(ClaimedFanOut, ANonAtomicMapCollectsSuccessesAndFailures) {
  this->engine_->registry().add(summing(this->fx_, "Sum", 2, false, nullptr, 2));
  const std::string id = this->start("Sum", {{"items", items(5)}, {"fail_at", 3}});
  this->start_worker();
  RunResult r = this->wait_for_end(id);
  ASSERT_EQ(r.status, RunStatus::kCompleted) << (r.error ? r.error->message : "");
  ASSERT_EQ(r.value.size(), 5u);
  EXPECT_EQ(r.value[3]["ok"], false);
  EXPECT_EQ(r.value[4]["ok"], true);
  EXPECT_EQ(r.value[4]["value"], 8);
  EXPECT_EQ(this->map_of(id).failed, 1u);
  this->expect_failed_elements(id, {3});
}

// The cases of test_fan_out.cpp that hold for claims as for element runs, on claims.
TYPED_TEST(ClaimedFanOut, AnElementsHaltHaltsTheRunWithItsValue) {
  this->element_halt_halts_the_run(2);
}
TYPED_TEST(ClaimedFanOut, AnElementRetriesOnItsOwn) { this->element_retries_on_its_own(2); }
TYPED_TEST(ClaimedFanOut, ARollbackCutShortRunsOnlyTheUndoInFlightAgain) {
  this->rollback_cut_short_runs_only_the_undo_in_flight_again(2);
}
TYPED_TEST(ClaimedFanOut, ANestedMapRecoversAnInnerElement) {
  this->nested_map_recovers_an_inner_element(2);
}
TYPED_TEST(ClaimedFanOut, AMapInsideAComposedChildResumesItsRoot) {
  this->map_in_a_composed_child_resumes_its_root(2);
}
TYPED_TEST(ClaimedFanOut, UndoAllIsOneCallOverTheCompletedResultsPageByPage) {
  this->undo_all_is_one_call(32);
}
TYPED_TEST(ClaimedFanOut, AnOwnerWhoseResumeWasLostIsResumedByTheSweeper) {
  this->resume_lost_is_found(2);
}
TYPED_TEST(ClaimedFanOut, ADispatchCutShortIsDoneAgainByWhoeverTakesTheRunOver) {
  this->dispatch_cut_short_is_done_again(4);
}

// M1 for claims: the worker that fetched the first claim dies with it; once its lease lapses the
// sweeper hands the claim to another worker, which runs it whole and releases the next.
TYPED_TEST(ClaimedFanOut, AClaimLostWithItsWorkerRunsAgainWhole) {
  this->engine_->registry().add(summing(this->fx_, "Sum", 2, true, nullptr, 2));
  const std::string id = this->dispatch("Sum", {{"items", items(6)}});
  std::optional<Delivery> lost = this->take_and_die();
  ASSERT_TRUE(lost);
  EXPECT_EQ(lost->job.spec.run_id, id + ":m[0..1]");
  this->let_leases_lapse();
  this->start_worker(1);
  this->expect_completed_each_once(id, 6);
  EXPECT_EQ(this->map_of(id).done, 6u);
  // Its lost delivery may have run each of its elements: each counts one lost execution.
  EXPECT_EQ(this->interrupted_of(id), (std::vector<std::uint32_t>{1, 1, 0, 0, 0, 0}));
  EXPECT_EQ(this->map_of(id).interrupted, 2u);
}

// The bound on re-executions: a claim whose worker ran its elements and was lost before its
// commit (here the commit is refused) runs again whole — each of its elements twice, no other
// element twice — and every element is counted once.
TYPED_TEST(ClaimedFanOut, AClaimCutShortRunsItsElementsAgainAndNoOthers) {
  this->engine_->registry().add(summing(this->fx_, "Sum", 2, true, nullptr, 3));
  this->store_->refuse = [this](const CommitRequest& c) {
    return c.settle && c.settle->slots.size() == 3 && c.settle->slots.front().index == 3 &&
           this->faults_++ == 0;
  };
  const std::string id = this->start("Sum", {{"items", items(9)}});
  this->start_worker(1);
  for (int k = 0; k < 1000 && this->faults_ == 0; ++k) std::this_thread::sleep_for(5ms);
  ASSERT_GE(this->faults_.load(), 1);
  this->let_leases_lapse();
  RunResult r = this->wait_for_end(id);
  ASSERT_EQ(r.status, RunStatus::kCompleted) << (r.error ? r.error->message : "");
  EXPECT_EQ(r.value, doubled(9));
  for (int i = 0; i < 9; ++i) {
    EXPECT_EQ(this->fx_.count('S', id + ":m[" + std::to_string(i) + "]/double"),
              i >= 3 && i <= 5 ? 2 : 1)
        << i;
  }
  const MapRow m = this->map_of(id);
  EXPECT_EQ(m.done, 9u);
  EXPECT_EQ(m.state, MapState::kSettled);
  EXPECT_EQ(this->interrupted_of(id), (std::vector<std::uint32_t>{0, 0, 0, 1, 1, 1, 0, 0, 0}));
  EXPECT_EQ(m.interrupted, 3u);
}

// A claim whose deliveries keep ending with their workers (a crash loop) fails whole once
// max_deliveries_without_progress (3) of them were lost: each of its slots failed with
// poison_delivery, so its atomic map fails with it and the other claims are rolled back.
TYPED_TEST(ClaimedFanOut, AClaimInACrashLoopFailsWhole) {
  this->engine_->registry().add(summing(this->fx_, "Sum", 2, true, nullptr, 2));
  this->store_->die_with = [this](const Job& job) {  // its first three deliveries
    return job.spec.run_id.ends_with(":m[0..1]") && this->faults_++ < 3;
  };
  const std::string id = this->start("Sum", {{"items", items(4)}});
  this->start_worker(1);
  for (int lost = 1; lost <= 3; ++lost) {
    for (int k = 0; k < 2000 && this->faults_ < lost; ++k) std::this_thread::sleep_for(5ms);
    ASSERT_GE(this->faults_.load(), lost) << this->describe(id);
    this->let_leases_lapse();
    this->sweep();
  }
  RunResult r = this->wait_for_end(id);
  ASSERT_EQ(r.status, RunStatus::kFailed);
  ASSERT_TRUE(r.error);
  EXPECT_EQ(r.error->kind, ErrorKind::kPoisonDelivery) << r.error->message;
  EXPECT_EQ(this->fx_.count('S', id + ":m[0]/double"), 0);
  EXPECT_EQ(this->claim_status(id, 0, 1), RunStatus::kFailed);
  const MapRow m = this->map_of(id);
  EXPECT_EQ(m.failed, 2u);
  EXPECT_EQ(m.interrupted, 6u);  // its two elements, each in its three lost deliveries
  EXPECT_EQ(this->fx_.count('U', id + ":m[3]/double"), this->fx_.count('S', id + ":m[3]/double"));
}

// A claim whose record is not a claim's (its inputs are no elements' inputs) runs nothing and
// fails whole, corrupt_record in each of its slots: its map settles all the same.
TYPED_TEST(ClaimedFanOut, AClaimWhoseRecordIsNotAClaimsFailsWhole) {
  this->engine_->registry().add(summing(this->fx_, "Sum", 2, true, nullptr, 2));
  Run claim;
  claim.id = claim.root_id = "x1:m[0..1]";
  claim.parent_id = "x1";
  claim.path = "m[0..1]";
  claim.reactor = "Doubler";
  claim.status = RunStatus::kEnqueued;
  claim.inputs = Value{{"atomic", true}, {"elements", 7}};
  CommitRequest c;
  c.headers.push_back(header("x1", RunStatus::kWaiting));
  records::encode_created(claim, 0, c);
  MapRow m;
  m.map_id = "x1:m";
  m.owner_id = "x1";
  m.owner_reactor = "Sum";
  m.queue = "Sum";
  m.element_reactor = "Doubler";
  m.total = m.released = m.batch_size = m.claim = 2;
  c.maps.push_back(m);
  c.enqueue.push_back(job("Sum", claim.id, 0, JobKind::kStart));
  c.enqueue.back().reactor = "Doubler";
  ASSERT_TRUE(this->store_->commit(c).ok());
  this->start_worker(1);
  MapRow settled;
  for (int k = 0; k < 1000 && settled.state != MapState::kSettled; ++k) {
    ASSERT_OK_AND_ASSIGN(settled, this->store_->load_map("x1:m"));
    if (settled.state != MapState::kSettled) std::this_thread::sleep_for(5ms);
  }
  EXPECT_EQ(settled.state, MapState::kSettled);
  EXPECT_EQ(settled.failed, 2u);
  RunResult failed;
  ASSERT_OK_AND_ASSIGN(failed, this->engine_->find("x1:m[1]"));
  EXPECT_EQ(failed.status, RunStatus::kFailed);
  ASSERT_TRUE(failed.error);
  EXPECT_EQ(failed.error->kind, ErrorKind::kCorruptRecord) << failed.error->message;
  EXPECT_EQ(this->claim_status("x1", 0, 1), RunStatus::kFailed);
  EXPECT_EQ(this->fx_.keys('S', "x1").size(), 0u);
}

// The owner fails while its claims wait for a worker: the released claim and the next one are
// filed never run (their runs failed owner_ended, every slot cancelled), the map settles, and
// the run rolls back at once; a worker started later runs none of them.
TYPED_TEST(ClaimedFanOut, AFailingOwnerCancelsTheClaimsNoWorkerStarted) {
  Effects& fx = this->fx_;
  this->engine_->registry().add(failing_beside_its_map(fx, 2));
  RunResult r = this->engine_->run("Sum", {{"items", items(5)}});
  ASSERT_EQ(r.status, RunStatus::kFailed) << this->describe(r.run_id);
  EXPECT_EQ(r.error->step, "boom");
  EXPECT_EQ(fx.keys('U', r.run_id), std::vector<std::string>{":reserve"});
  const MapRow m = this->map_of(r.run_id);
  EXPECT_EQ(m.state, MapState::kSettled);
  EXPECT_EQ(m.cancelled, 4u);  // claim [0..1], released, and [2..3], the next to release
  EXPECT_EQ(m.released, 4u);
  EXPECT_EQ(m.done, 4u);
  EXPECT_EQ(this->claim_status(r.run_id, 0, 1), RunStatus::kFailed);
  EXPECT_EQ(this->claim_status(r.run_id, 2, 3), RunStatus::kFailed);
  EXPECT_EQ(this->claim_status(r.run_id, 4, 4), RunStatus::kPending);
  this->start_worker(1);
  bool has_job = true;
  for (int k = 0; k < 400 && has_job; ++k) {
    ASSERT_OK_AND_ASSIGN(has_job, this->store_->has_job(r.run_id + ":m[0..1]"));
    if (has_job) std::this_thread::sleep_for(5ms);
  }
  EXPECT_FALSE(has_job);
  EXPECT_EQ(fx.count('S', r.run_id + ":m[0]/double"), 0);
}

}  // namespace
}  // namespace reactor::conformance
