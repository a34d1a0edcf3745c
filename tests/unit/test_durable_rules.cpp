// Durable-engine rules that need to see or bend the store: capped snoozes
// when the store is unavailable, a record naming an unregistered reactor,
// coalesced checkpoints, expiry re-stamping and purge. The store is the
// memory backend behind a wrapper that counts commits and can refuse loads;
// time is a ManualClock. Last, the inline mode: jobs run in their caller.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "reactor/backend_wrapper.hpp"
#include "reactor/reactor.hpp"
#include "reactor/worker.hpp"

namespace {

using namespace reactor;
using namespace std::chrono_literals;

// Delegates to a real backend; counts commits; answers load_run with
// Unavailable while `refuse_loads` is set (a store that is busy or down), and
// load_run and load_header of the run made unreadable with Corruption (a store
// that cannot parse what it holds for it, as a Redis header that is not JSON)
// until a commit writes that run's header again. Either way a fetch then
// delivers the job without its run, as a fetch that could not read it. With
// `hide_started` its fetch never says it filed the run as running, as a
// backend that cannot do that.
class WatchedBackend : public BackendWrapper {
 public:
  using BackendWrapper::BackendWrapper;

  std::atomic<int> commits{0};
  std::atomic<bool> refuse_loads{false};
  std::atomic<bool> hide_started{false};

  void make_unreadable(const std::string& id) {
    std::lock_guard lock(mu_);
    unreadable_ = id;
  }

  Status commit(const CommitRequest& c) override {
    ++commits;
    log("commit:" + (c.headers.empty() ? std::string("-") : to_string(c.headers[0].status)));
    Status s = BackendWrapper::commit(c);
    std::lock_guard lock(mu_);
    for (const auto& h : c.headers) {
      if (s.ok() && h.id == unreadable_) unreadable_.clear();
    }
    return s;
  }
  Status load_run(const std::string& id, StoredRun& out) override {
    if (refuse_loads) return Status::Unavailable("store busy (injected)");
    if (Status s = check_readable(id); !s.ok()) return s;
    return BackendWrapper::load_run(id, out);
  }
  Status load_header(const std::string& id, RunHeaderRow& out) override {
    if (Status s = check_readable(id); !s.ok()) return s;
    return BackendWrapper::load_header(id, out);
  }
  Status fetch(const FetchRequest& f, std::optional<Delivery>& out) override {
    Status s = BackendWrapper::fetch(f, out);
    if (out && (refuse_loads || !check_readable(out->job.spec.run_id).ok())) out->run.reset();
    if (out && hide_started) out->run_started = false;
    log(out ? "fetch:job" : "fetch:none");
    return s;
  }
  Status wait_for_jobs(const std::vector<std::string>& queues, Duration max_wait) override {
    log("wait");
    return BackendWrapper::wait_for_jobs(queues, max_wait);
  }
  // The combined calls as their two parts, so the overrides above see them.
  Status commit_then_fetch(const CommitRequest& c, const FetchRequest& f,
                           std::optional<Delivery>& next) override {
    return Backend::commit_then_fetch(c, f, next);
  }
  Status wait_then_fetch(const FetchRequest& f, Duration max_wait,
                         std::optional<Delivery>& out) override {
    return JobQueue::wait_then_fetch(f, max_wait, out);
  }

  // What the worker asked of the store, in order: "commit:<status of the
  // first header>" (or "commit:-"), "fetch:job", "fetch:none", "wait".
  std::vector<std::string> calls() {
    std::lock_guard lock(mu_);
    return calls_;
  }

 private:
  Status check_readable(const std::string& id) {
    std::lock_guard lock(mu_);
    if (id == unreadable_) return Status::Corruption("run header " + id + ": not JSON (injected)");
    return Status::Ok();
  }

  void log(std::string call) {
    std::lock_guard lock(mu_);
    calls_.push_back(std::move(call));
  }

  std::mutex mu_;
  std::string unreadable_;
  std::vector<std::string> calls_;
};

// Waits (bounded) for `cond`, without moving the clock. A worker counts a
// delivery in its stats after the delivery's last commit: a test that saw
// that commit in the store waits for the count too.
template <typename Cond>
bool eventually(Cond cond) {
  for (int i = 0; i < 2000; ++i) {
    if (cond()) return true;
    std::this_thread::sleep_for(5ms);
  }
  return cond();
}

class DurableRules : public ::testing::Test {
 protected:
  void open(DurabilityOptions durability = {}) {
    std::unique_ptr<Backend> memory;
    ASSERT_TRUE(open_backend("memory:", clock_, memory).ok());
    auto watched = std::make_unique<WatchedBackend>(std::move(memory));
    store_ = watched.get();
    EngineOptions options;
    options.clock = clock_;
    options.backend = std::move(watched);
    durability.lease_ttl = 10s;
    options.durability = durability;
    engine_ = std::make_unique<Engine>(std::move(options));
    engine_->registry().add(five_steps());
  }

  static Definition five_steps() {
    Builder b("Five");
    b.input("n", integer());
    b.step("s1", [](const Args& a) {
       return Success(a.get<int>("n") + 1);
     }).argument("n", input("n"));
    for (int i = 2; i <= 5; ++i) {
      b.step("s" + std::to_string(i), [](const Args& a) {
         return Success(a.get<int>("p") + 1);
       }).argument("p", result("s" + std::to_string(i - 1)));
    }
    return b.returns("s5").build();
  }

  std::unique_ptr<Worker> start_worker() {
    WorkerOptions w;
    w.sweeper = false;
    w.poll_interval = 5ms;
    auto worker = std::make_unique<Worker>(*engine_, w);
    worker->start();
    return worker;
  }

  // Polls (bounded) until the run's header shows `status`, moving the clock
  // on by `step` each round so snoozed jobs fall due.
  RunHeaderRow wait_for(const std::string& id, RunStatus status, Duration step = 0s) {
    RunHeaderRow h;
    for (int i = 0; i < 2000; ++i) {
      if (store_->load_header(id, h).ok() && h.status == status) return h;
      clock_->advance(step);
      std::this_thread::sleep_for(5ms);
    }
    return h;
  }

  // A stored "Five" run whose every load the store refuses; snoozes of exactly
  // one second (no jitter), at most `snooze_cap` of them.
  std::string start_against_a_busy_store(int snooze_cap) {
    DurabilityOptions d;
    d.lock_snooze_base_delay = 1s;
    d.lock_snooze_jitter = 0s;
    d.lock_snooze_max_attempts = snooze_cap;
    open(d);
    std::string id;
    EXPECT_TRUE(engine_->run_in_background("Five", {{"n", 0}}, id).ok());
    store_->refuse_loads = true;
    return id;
  }

  std::shared_ptr<ManualClock> clock_ = std::make_shared<ManualClock>();
  WatchedBackend* store_ = nullptr;
  std::unique_ptr<Engine> engine_;
};

TEST_F(DurableRules, AStoreThatStaysUnavailableSnoozesTheRunUpToTheCapThenFailsIt) {
  const std::string id = start_against_a_busy_store(/*snooze_cap=*/2);
  auto worker = start_worker();

  RunHeaderRow h = wait_for(id, RunStatus::kFailed, 1s);
  ASSERT_EQ(h.status, RunStatus::kFailed);
  EXPECT_NE(h.body.find("\"contention\""), std::string::npos) << h.body;
  EXPECT_NE(h.body.find("through 2 snoozes"), std::string::npos) << h.body;
  EXPECT_EQ(worker->stats().snoozed, 2u);
  bool has_job = true;
  ASSERT_TRUE(store_->has_job(id, has_job).ok());
  EXPECT_FALSE(has_job);

  // The store is back: the same worker serves the next run.
  store_->refuse_loads = false;
  std::string next;
  ASSERT_TRUE(engine_->run_in_background("Five", {{"n", 10}}, next).ok());
  EXPECT_EQ(wait_for(next, RunStatus::kCompleted).status, RunStatus::kCompleted);
}

TEST_F(DurableRules, AStoreThatRecoversBeforeTheCapLosesNothing) {
  const std::string id = start_against_a_busy_store(/*snooze_cap=*/5);
  auto worker = start_worker();
  for (int i = 0; i < 2000 && worker->stats().snoozed < 2; ++i) {
    clock_->advance(1s);
    std::this_thread::sleep_for(5ms);
  }
  ASSERT_GE(worker->stats().snoozed, 2u);
  store_->refuse_loads = false;
  wait_for(id, RunStatus::kCompleted, 1s);
  RunResult r;
  ASSERT_TRUE(engine_->find(id, r).ok());
  EXPECT_EQ(r.status, RunStatus::kCompleted);
  EXPECT_EQ(r.value, 5);
}

TEST_F(DurableRules, ARecordNamingAReactorNotRegisteredHereFailsAtOnce) {
  open();
  std::string id;
  ASSERT_TRUE(engine_->run_in_background("Five", {{"n", 0}}, id).ok());
  // The job still routes as "Five"; the record says the run is a "Retired".
  RunHeaderRow h;
  ASSERT_TRUE(store_->load_header(id, h).ok());
  h.reactor = "Retired";
  CommitRequest rename;
  rename.headers.push_back(h);
  ASSERT_TRUE(store_->commit(rename).ok());

  auto worker = start_worker();
  RunHeaderRow failed = wait_for(id, RunStatus::kFailed);
  ASSERT_EQ(failed.status, RunStatus::kFailed);
  EXPECT_NE(failed.body.find("unknown_reactor"), std::string::npos) << failed.body;
  EXPECT_NE(failed.body.find("'Retired'"), std::string::npos) << failed.body;
  std::string next;
  ASSERT_TRUE(engine_->run_in_background("Five", {{"n", 1}}, next).ok());
  EXPECT_EQ(wait_for(next, RunStatus::kCompleted).status, RunStatus::kCompleted);
}

TEST_F(DurableRules, ARunTheStoreCannotReadBackFailsWithCorruptRecordAndItsJobIsAcknowledged) {
  open();
  std::string id;
  ASSERT_TRUE(engine_->run_in_background("Five", {{"n", 0}}, id).ok());
  store_->make_unreadable(id);
  auto worker = start_worker();

  // Not redelivered for ever: failed on its first delivery, job acknowledged.
  RunHeaderRow failed = wait_for(id, RunStatus::kFailed);
  ASSERT_EQ(failed.status, RunStatus::kFailed);
  EXPECT_NE(failed.body.find("corrupt_record"), std::string::npos) << failed.body;
  EXPECT_NE(failed.body.find("not JSON (injected)"), std::string::npos) << failed.body;
  bool has_job = true;
  ASSERT_TRUE(store_->has_job(id, has_job).ok());
  EXPECT_FALSE(has_job);
  RunResult r;
  ASSERT_TRUE(engine_->find(id, r).ok());
  EXPECT_EQ(r.status, RunStatus::kFailed);
  ASSERT_TRUE(r.error.has_value());
  EXPECT_EQ(r.error->kind, ErrorKind::kCorruptRecord);

  // A duplicate job finds the run ended and is acknowledged; its verdict stands.
  CommitRequest duplicate;  // as `reactor enqueue` writes it (default queue: the reactor's name)
  duplicate.enqueue.push_back(JobSpec{"Five", JobKind::kResume, id, "Five", 0, 0});
  ASSERT_TRUE(store_->commit(duplicate).ok());
  std::string next;
  ASSERT_TRUE(engine_->run_in_background("Five", {{"n", 10}}, next).ok());
  EXPECT_EQ(wait_for(next, RunStatus::kCompleted).status, RunStatus::kCompleted);
  EXPECT_TRUE(eventually([&] { return worker->stats().runs_finished == 1; }))
      << worker->stats().runs_finished;
  ASSERT_TRUE(store_->has_job(id, has_job).ok());
  EXPECT_FALSE(has_job);
  RunHeaderRow after;
  ASSERT_TRUE(store_->load_header(id, after).ok());
  EXPECT_EQ(after.body, failed.body);
}

TEST_F(DurableRules, AWorkerCommitsOncePerStepWithTheRunsEndInTheLastStepsCommit) {
  open();
  std::string id;
  ASSERT_TRUE(engine_->run_in_background("Five", {{"n", 0}}, id).ok());
  ASSERT_EQ(store_->commits.exchange(0), 1);  // the run and its job, together
  auto worker = start_worker();
  ASSERT_EQ(wait_for(id, RunStatus::kCompleted).status, RunStatus::kCompleted);
  // The fetch filed the run as running; then one commit per step, step 5's
  // also carrying the terminal state, the job's ack and the lease release.
  EXPECT_EQ(store_->commits.load(), 5);
  bool has_job = true;
  ASSERT_TRUE(store_->has_job(id, has_job).ok());
  EXPECT_FALSE(has_job);
}

TEST_F(DurableRules, AWorkerCommitsTheStartItselfWhenTheFetchDidNotFileTheRunAsRunning) {
  open();
  store_->hide_started = true;
  std::string id;
  ASSERT_TRUE(engine_->run_in_background("Five", {{"n", 0}}, id).ok());
  ASSERT_EQ(store_->commits.exchange(0), 1);
  auto worker = start_worker();
  ASSERT_EQ(wait_for(id, RunStatus::kCompleted).status, RunStatus::kCompleted);
  EXPECT_EQ(store_->commits.load(), 6);  // "running", then one per step
}

// WorkerOptions::reactors: a worker serves those reactors' queues only, and
// refuses a name the engine does not know.
TEST_F(DurableRules, AWorkerServesOnlyTheReactorsItIsGiven) {
  open();
  Builder b("Other");
  b.step("only", [](const Args&) { return Success(1); });
  engine_->registry().add(b.build());
  WorkerOptions unknown;
  unknown.reactors = {"Other", "Nope"};
  try {
    Worker refused(*engine_, unknown);
    ADD_FAILURE() << "a worker for an unknown reactor was built";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("'Nope'"), std::string::npos) << e.what();
  }
  // Enqueued first: a worker serving every queue would take it first.
  std::string five, other;
  ASSERT_TRUE(engine_->run_in_background("Five", {{"n", 0}}, five).ok());
  ASSERT_TRUE(engine_->run_in_background("Other", Value::object(), other).ok());
  WorkerOptions w;
  w.sweeper = false;
  w.poll_interval = 5ms;
  w.reactors = {"Other"};
  Worker worker(*engine_, w);
  worker.start();
  EXPECT_EQ(wait_for(other, RunStatus::kCompleted).status, RunStatus::kCompleted);
  worker.stop();
  worker.wait();
  RunHeaderRow h;
  ASSERT_TRUE(store_->load_header(five, h).ok());
  EXPECT_EQ(h.status, RunStatus::kEnqueued);
  EXPECT_EQ(worker.stats().jobs, 1u);
}

// A run's last commit also fetches the worker's next job. When it finds none,
// the worker's next try waits for an enqueue first: fetching again at once
// would only find nothing a second time.
TEST_F(DurableRules, AWorkerWhoseLastCommitFoundNoJobWaitsBeforeFetchingAgain) {
  open();
  std::string id;
  ASSERT_TRUE(engine_->run_in_background("Five", {{"n", 0}}, id).ok());
  auto worker = start_worker();
  ASSERT_EQ(wait_for(id, RunStatus::kCompleted).status, RunStatus::kCompleted);
  std::vector<std::string> calls;
  ASSERT_TRUE(eventually([&] {
    calls = store_->calls();
    auto end = std::find(calls.begin(), calls.end(), "commit:completed");
    return end != calls.end() && calls.end() - end >= 3;
  }));
  worker->stop();
  worker->wait();
  auto end = std::find(calls.begin(), calls.end(), "commit:completed");
  ASSERT_NE(end, calls.end());
  EXPECT_EQ(*(end + 1), "fetch:none");  // the commit's own fetch
  EXPECT_EQ(*(end + 2), "wait");
  // Five steps, each committed; a store inside the process counts no requests.
  EXPECT_EQ(worker->stats().durable_steps, 5u);
  EXPECT_EQ(worker->stats().round_trips, 0u);
}

// A run's last commit fetches the worker's next job. A worker told to stop
// meanwhile does not run that job: it gives it back, its run filed as it was
// found, due at once for whoever comes next.
TEST_F(DurableRules, AStoppingWorkerGivesBackTheJobItFetchedWithItsLastCommit) {
  open();
  std::mutex mu;
  std::condition_variable cv;
  bool in_last_step = false, may_finish = false;
  Builder b("Gate");
  b.step("wait", [&](const Args&) {
    std::unique_lock lock(mu);
    in_last_step = true;
    cv.notify_all();
    cv.wait(lock, [&] { return may_finish; });
    return Success(1);
  });
  engine_->registry().add(b.build());
  std::string gate, next;
  ASSERT_TRUE(engine_->run_in_background("Gate", Value::object(), gate).ok());
  auto worker = start_worker();
  {
    std::unique_lock lock(mu);
    ASSERT_TRUE(cv.wait_for(lock, 10s, [&] { return in_last_step; }));
  }
  ASSERT_TRUE(engine_->run_in_background("Five", {{"n", 0}}, next).ok());
  worker->stop();
  {
    std::lock_guard lock(mu);
    may_finish = true;
  }
  cv.notify_all();
  worker->wait();

  RunHeaderRow h;
  ASSERT_TRUE(store_->load_header(gate, h).ok());
  EXPECT_EQ(h.status, RunStatus::kCompleted);
  ASSERT_TRUE(store_->load_header(next, h).ok());
  EXPECT_EQ(h.status, RunStatus::kEnqueued);
  bool has_job = false;
  ASSERT_TRUE(store_->has_job(next, has_job).ok());
  EXPECT_TRUE(has_job);
  auto again = start_worker();
  EXPECT_EQ(wait_for(next, RunStatus::kCompleted).status, RunStatus::kCompleted);
}

TEST_F(DurableRules, ASynchronousRunStoresItsInputsWithItsFirstCommit) {
  open();
  RunResult r = engine_->run("Five", {{"n", 7}});
  ASSERT_EQ(r.status, RunStatus::kCompleted);
  StoredRun stored;
  ASSERT_TRUE(store_->load_run(r.run_id, stored).ok());
  ASSERT_EQ(stored.inputs.size(), 1u);
  EXPECT_EQ(Value::parse(stored.inputs.front().inputs), (Value{{"n", 7}}));
}

TEST_F(DurableRules, CheckpointMinIntervalCoalescesMidRunCommitsButAlwaysWritesTheEnd) {
  open();
  RunResult every = engine_->run("Five", {{"n", 0}});
  ASSERT_EQ(every.status, RunStatus::kCompleted);
  const int uncoalesced = store_->commits.exchange(0);
  EXPECT_GE(uncoalesced, 5);  // one per step at least

  DurabilityOptions d;
  d.checkpoint_min_interval = 1h;  // the clock stands still: nothing is due mid-run
  open(d);
  RunResult coalesced = engine_->run("Five", {{"n", 0}});
  ASSERT_EQ(coalesced.status, RunStatus::kCompleted);
  EXPECT_LT(store_->commits.load(), uncoalesced);
  EXPECT_LE(store_->commits.load(), 2);  // at most the start and the terminal state
  RunResult stored;
  ASSERT_TRUE(engine_->find(coalesced.run_id, stored).ok());
  EXPECT_EQ(stored.status, RunStatus::kCompleted);
  EXPECT_EQ(stored.value, 5);
  EXPECT_EQ(stored.trace_summary(), "ran s1, s2, s3, s4, s5");
}

TEST_F(DurableRules, EveryWriteRestampsTheExpiryAndOnlyExpiredTerminalRunsArePurged) {
  DurabilityOptions d;
  d.context_ttl = 1h;
  open(d);
  const std::int64_t t0 = to_unix_ms(clock_->now());
  RunResult done = engine_->run("Five", {{"n", 0}});
  RunHeaderRow h;
  ASSERT_TRUE(store_->load_header(done.run_id, h).ok());
  EXPECT_EQ(h.expires_at_ms, t0 + 3'600'000);

  clock_->advance(30min);
  std::string waiting;  // enqueued, never served: not terminal, so never purged
  ASSERT_TRUE(engine_->run_in_background("Five", {{"n", 1}}, waiting).ok());
  ASSERT_TRUE(store_->load_header(waiting, h).ok());
  EXPECT_EQ(h.expires_at_ms, t0 + 5'400'000);  // stamped at its own write

  std::size_t requeued = 0, purged = 0;
  ASSERT_TRUE(engine_->sweep_once(requeued, purged).ok());
  EXPECT_EQ(purged, 0u);
  clock_->advance(31min);  // the completed run's expiry has passed
  ASSERT_TRUE(engine_->sweep_once(requeued, purged).ok());
  EXPECT_EQ(purged, 1u);
  EXPECT_EQ(store_->load_header(done.run_id, h).code(), StatusCode::kNotFound);
  clock_->advance(10h);  // long past the waiting run's expiry too
  ASSERT_TRUE(engine_->sweep_once(requeued, purged).ok());
  EXPECT_EQ(purged, 0u);
  EXPECT_TRUE(store_->load_header(waiting, h).ok());
}

TEST_F(DurableRules, AStepHungPastItsTimeoutStopsTheHeartbeatSoAnotherWriterCanTakeTheRun) {
  DurabilityOptions d;
  d.hung_step_grace = 5s;
  open(d);  // lease ttl 10 s, heartbeat every ~1 s
  std::atomic<bool> started{false}, release{false};
  engine_->registry().add(Builder("Hangs")
                              .step("stuck",
                                    [&](const Args&) {
                                      started = true;  // and ignores its cancellation token
                                      while (!release) std::this_thread::sleep_for(1ms);
                                      return Success(1);
                                    })
                              .timeout(1s)
                              .build());
  std::string id;
  ASSERT_TRUE(engine_->run_in_background("Hangs", Value::object(), id).ok());
  auto worker = start_worker();
  ASSERT_TRUE(eventually([&] { return started.load(); }));

  // Time passes: the timeout fires, the grace runs out, the heartbeat stops
  // and the lease lapses. Without that, the heartbeat would hold it forever.
  bool granted = false;
  Lease rescuer;
  for (int i = 0; i < 200 && !granted; ++i) {
    clock_->advance(1s);
    std::this_thread::sleep_for(5ms);
    ASSERT_TRUE(store_->acquire_lease(run_lease_key(id), "rescuer", 60s, granted, rescuer).ok());
  }
  release = true;
  ASSERT_TRUE(granted);
  // The hung step returns at last; its execution's write is fenced off.
  EXPECT_TRUE(eventually([&] { return worker->stats().lease_lost == 1; }));
  RunResult r;
  ASSERT_TRUE(engine_->find(id, r).ok());
  EXPECT_NE(r.status, RunStatus::kCompleted);
}

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
  ASSERT_TRUE(engine_->run_in_background("Branches", Value::object(), id).ok());
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
  ASSERT_TRUE(engine_->run_in_background("Branches", Value::object(), id).ok());
  auto worker = start_worker();
  // "slow" is done and "flaky" waits 30 s: the run goes back to the queue.
  ASSERT_TRUE(eventually([&] {
    bool free = false;
    Lease l;
    bool has_job = false;
    RunResult r;
    return engine_->find(id, r).ok() && r.step("slow") &&
           r.step("slow")->status == StepStatus::kCompleted && store_->has_job(id, has_job).ok() &&
           has_job && store_->acquire_lease(run_lease_key(id), "probe", 1ms, free, l).ok() && free;
  }));
  EXPECT_EQ(flaky.load(), 1);
  clock_->advance(31s);
  EXPECT_EQ(wait_for(id, RunStatus::kCompleted).status, RunStatus::kCompleted);
  EXPECT_EQ(flaky.load(), 2);
  EXPECT_TRUE(eventually([&] { return worker->stats().jobs == 2; })) << worker->stats().jobs;
}

class InlineJobs : public ::testing::Test {
 protected:
  void SetUp() override {
    std::unique_ptr<Backend> memory;
    ASSERT_TRUE(open_backend("memory:", clock_, memory).ok());
    EngineOptions options;
    options.clock = clock_;
    options.backend = std::move(memory);
    options.durability.inline_jobs = true;
    engine_ = std::make_unique<Engine>(std::move(options));
  }
  std::shared_ptr<ManualClock> clock_ = std::make_shared<ManualClock>();
  std::unique_ptr<Engine> engine_;
};

TEST_F(InlineJobs, ABackgroundRunHasRunThroughItsRetriesWhenTheCallReturns) {
  int attempts = 0;
  engine_->registry().add(Builder("Flaky")
                              .step("a", [](const Args&) { return Success(1); })
                              .step("b",
                                    [&attempts](const Args&) {
                                      if (++attempts < 3) return Failure("not yet");
                                      return Success(2);
                                    })
                              .retries(fixed_backoff(3, 30s))
                              .returns("b")
                              .build());
  std::string id;
  ASSERT_TRUE(engine_->run_in_background("Flaky", Value::object(), id).ok());
  RunResult r;
  ASSERT_TRUE(engine_->find(id, r).ok());
  EXPECT_EQ(r.status, RunStatus::kCompleted);
  EXPECT_EQ(r.value, 2);
  EXPECT_EQ(r.step("b")->attempts, 3);
  // The retry delays were waited out on the clock, not slept.
  EXPECT_EQ(clock_->sleeps(), (std::vector<Duration>{30s, 30s}));
  bool has_job = true;
  ASSERT_TRUE(engine_->backend()->has_job(id, has_job).ok());
  EXPECT_FALSE(has_job);
}

}  // namespace
