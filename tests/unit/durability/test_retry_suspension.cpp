// A retry that is not due: beside a running sibling it waits in process; with nothing else
// running, the run is suspended (waiting) and handed back to the queue until it is due.
#include "support/result_testing.hpp"
#include "unit/durability/durable_fixture.hpp"

namespace reactor::durable_test {
namespace {

// A run of up to two parallel branches: "slow" runs until the test lets it
// finish; "flaky" fails once (retry after 30 s) — beside "slow", or after it.
Definition branches(std::atomic<int>& flaky_runs, std::atomic<bool>& slow_may_finish,
                    bool flaky_after_slow = false) {
  Builder b("Branches");
  b.max_concurrency(2)
      .step("slow",
            [&slow_may_finish](const Args&) {
              while (!slow_may_finish) std::this_thread::sleep_for(1ms);
              return Success(2);
            })
      .step("flaky",
            [&flaky_runs](const Args&) {
              if (++flaky_runs == 1) return Failure("first try fails");
              return Success(1);
            })
      .retries(fixed_backoff(2, 30s));
  if (flaky_after_slow) b.wait_for("slow");
  return b.build();
}

TEST_F(DurableRules, ABranchRetryWaitsInProcessBesideARunningSibling) {
  open();
  std::atomic<int> flaky{0};
  std::atomic<bool> slow_may_finish{false};
  engine_->registry().add(branches(flaky, slow_may_finish));
  std::string id;
  ASSERT_OK_AND_ASSIGN(id, engine_->run_in_background("Branches", Value::object()));
  auto worker = start_worker();
  struct Unblock {  // destroyed before the worker, whatever the test's outcome
    std::atomic<bool>& flag;
    ~Unblock() { flag = true; }
  } unblock{slow_may_finish};
  // The retry waited beside "slow", in this delivery, on the clock (a
  // ManualClock's sleep_until jumps to the deadline and records it).
  ASSERT_TRUE(eventually([&] { return flaky.load() == 2; }));
  EXPECT_EQ(clock_->sleeps(), std::vector<Duration>{Duration(30s)});
  slow_may_finish = true;
  EXPECT_EQ(wait_for(id, RunStatus::kCompleted).status, RunStatus::kCompleted);
  EXPECT_TRUE(eventually([&] { return worker->stats().jobs >= 1; }));
  EXPECT_EQ(worker->stats().jobs, 1u);  // one delivery: never handed back
}

TEST_F(DurableRules, ARetryIsHandedBackToTheQueueWhenNothingElseOfTheRunIsRunning) {
  open();
  std::atomic<int> flaky{0};
  std::atomic<bool> slow_may_finish{true};
  engine_->registry().add(branches(flaky, slow_may_finish, /*flaky_after_slow=*/true));
  std::string id;
  ASSERT_OK_AND_ASSIGN(id, engine_->run_in_background("Branches", Value::object()));
  auto worker = start_worker();
  // "slow" is done and "flaky" waits 30 s: the run goes back to the queue.
  ASSERT_TRUE(eventually([&] {
    bool free = false;
    Lease l;
    bool has_job = false;
    RunResult r;
    return assign_if_ok(r, engine_->find(id)) && r.step("slow") &&
           r.step("slow")->status == StepStatus::kCompleted &&
           assign_or_status(has_job, store_->has_job(id)).ok() && has_job &&
           assign_or_status(free, l, store_->acquire_lease(run_lease_key(id), "probe", 1ms)).ok() &&
           free;
  }));
  EXPECT_EQ(flaky.load(), 1);
  clock_->advance(31s);
  EXPECT_EQ(wait_for(id, RunStatus::kCompleted).status, RunStatus::kCompleted);
  EXPECT_EQ(flaky.load(), 2);
  EXPECT_TRUE(eventually([&] { return worker->stats().jobs == 2; })) << worker->stats().jobs;
}

// One step that fails its first attempt and is retried after 30 s.
Definition once_flaky(std::atomic<int>& runs) {
  return Builder("OnceFlaky")
      .step("flaky",
            [&runs](const Args&) {
              if (++runs == 1) return Failure("first try fails");
              return Success(1);
            })
      .retries(fixed_backoff(2, 30s))
      .build();
}

// The job due for `id` by `at` (leased to a probe, then put back as it was), or none.
std::optional<Job> job_due_by(Backend& store, const std::string& queue, TimePoint at,
                              ManualClock& clock) {
  const TimePoint now = clock.now();
  clock.set(at);
  std::optional<Delivery> d;
  EXPECT_OK_AND_ASSIGN(d, store.fetch({{queue}, "probe", 1s, 1ms}));
  if (d) {
    if (d->run_leased) {
      EXPECT_TRUE(store.release_lease(d->run_lease.key, "probe", d->run_lease.token).ok());
    }
    // Back as it was: due at its own time, which has come at `at`.
    EXPECT_TRUE(store
                    .release_job(d->job.id, "probe",
                                 std::chrono::milliseconds(d->job.spec.run_at_ms - to_unix_ms(at)))
                    .ok());
  }
  clock.set(now);
  if (!d) return std::nullopt;
  return d->job;
}

TEST_F(DurableRules, ARunWaitingForARetryIsSuspendedInOneCommitWithTheJobThatWakesIt) {
  open();
  std::atomic<int> runs{0};
  engine_->registry().add(once_flaky(runs));
  std::string id;
  ASSERT_OK_AND_ASSIGN(id, engine_->run_in_background("OnceFlaky", Value::object()));
  const std::int64_t due = to_unix_ms(clock_->now() + 30s);
  auto worker = start_worker();
  RunHeaderRow h = wait_for(id, RunStatus::kWaiting);
  ASSERT_EQ(h.status, RunStatus::kWaiting);
  EXPECT_EQ(h.wake_at_ms, due);
  RunResult r;
  ASSERT_OK_AND_ASSIGN(r, engine_->find(id));
  EXPECT_EQ(r.step("flaky")->status, StepStatus::kRetryScheduled);
  // The fetch filed it running; the failed attempt and the suspension are one commit.
  EXPECT_TRUE(eventually([&] { return worker->stats().jobs == 1; }));
  EXPECT_EQ(store_->commits.load(), 2);  // the start's, then that one
  const auto calls = store_->calls();
  EXPECT_NE(std::find(calls.begin(), calls.end(), "commit:waiting"), calls.end());
  worker.reset();
  // Its lease is free, and its job is due when the retry is, not before.
  bool free = false;
  Lease l;
  ASSERT_TRUE(
      assign_or_status(free, l, store_->acquire_lease(run_lease_key(id), "probe", 1ms)).ok());
  EXPECT_TRUE(free);
  EXPECT_FALSE(job_due_by(*store_, "OnceFlaky", from_unix_ms(due - 1), *clock_));
  EXPECT_TRUE(job_due_by(*store_, "OnceFlaky", from_unix_ms(due), *clock_));
}

// A duplicate (an operator's `reactor enqueue`, a redelivery) before the retry is due runs
// nothing: its job goes back, due then, and the run stays waiting.
TEST_F(DurableRules, ADeliveryBeforeTheSuspensionEndsPutsItsJobBackAndRunsNothing) {
  open();
  std::atomic<int> runs{0};
  engine_->registry().add(once_flaky(runs));
  std::string id;
  ASSERT_OK_AND_ASSIGN(id, engine_->run_in_background("OnceFlaky", Value::object()));
  auto worker = start_worker();
  ASSERT_EQ(wait_for(id, RunStatus::kWaiting).status, RunStatus::kWaiting);
  CommitRequest nudge;
  nudge.enqueue.push_back(
      JobSpec{"OnceFlaky", JobKind::kResume, id, "OnceFlaky", to_unix_ms(clock_->now()), 0});
  ASSERT_TRUE(store_->commit(nudge).ok());
  ASSERT_TRUE(eventually([&] { return worker->stats().jobs == 2; }));
  EXPECT_EQ(runs.load(), 1);
  EXPECT_EQ(wait_for(id, RunStatus::kWaiting).status, RunStatus::kWaiting);
  clock_->advance(30s);
  EXPECT_EQ(wait_for(id, RunStatus::kCompleted).status, RunStatus::kCompleted);
  EXPECT_EQ(runs.load(), 2);
}

// A waiting run whose job was lost (deleted by hand) is woken by the sweeper when it is due.
TEST_F(DurableRules, TheSweeperGivesAWaitingRunWhoseJobWasLostAJobDueWhenItWakes) {
  open();
  std::atomic<int> runs{0};
  engine_->registry().add(once_flaky(runs));
  std::string id;
  ASSERT_OK_AND_ASSIGN(id, engine_->run_in_background("OnceFlaky", Value::object()));
  const std::int64_t due = to_unix_ms(clock_->now() + 30s);
  {
    auto worker = start_worker();
    ASSERT_EQ(wait_for(id, RunStatus::kWaiting).status, RunStatus::kWaiting);
  }
  // Lose the job: fetched (at its due time) and acknowledged behind the engine's back.
  std::optional<Job> job = job_due_by(*store_, "OnceFlaky", from_unix_ms(due), *clock_);
  ASSERT_TRUE(job);
  CommitRequest ack;
  ack.ack_job = job->id;
  ASSERT_TRUE(store_->commit(ack).ok());
  bool has_job = true;
  ASSERT_OK_AND_ASSIGN(has_job, store_->has_job(id));
  ASSERT_FALSE(has_job);

  SweepResult swept;
  ASSERT_OK_AND_ASSIGN(swept, engine_->sweep_once());
  EXPECT_EQ(swept.requeued, 1u);
  EXPECT_FALSE(job_due_by(*store_, "OnceFlaky", from_unix_ms(due - 1), *clock_));
  EXPECT_TRUE(job_due_by(*store_, "OnceFlaky", from_unix_ms(due), *clock_));
  // Not an orphan any more: a second sweep leaves it alone.
  ASSERT_OK_AND_ASSIGN(swept, engine_->sweep_once());
  EXPECT_EQ(swept.requeued, 0u);
  clock_->set(from_unix_ms(due));
  auto worker = start_worker();
  EXPECT_EQ(wait_for(id, RunStatus::kCompleted).status, RunStatus::kCompleted);
  EXPECT_EQ(runs.load(), 2);
}

}  // namespace
}  // namespace reactor::durable_test
