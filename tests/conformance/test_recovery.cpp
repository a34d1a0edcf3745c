// What sweepers and operators read: orphans, expired runs, run listings.
#include <algorithm>

#include "conformance/conformance_support.hpp"
#include "support/result_testing.hpp"

namespace reactor::conformance {
namespace {

template <typename Factory>
class RecoveryConformance : public BackendConformance<Factory> {};
TYPED_TEST_SUITE(RecoveryConformance, ConformanceBackends, BackendName);

TYPED_TEST(RecoveryConformance, FindOrphansListsOnlyRootsNobodyIsServing) {
  int t = 0;
  auto root = [&](const std::string& id, RunStatus s) {
    return header(id, s, "", "", ++t);  // updated_at gives the expected order
  };
  // Orphans of every reactor, in one order.
  // A waiting root with a wake time is an orphan when no job will wake it; one waiting for an
  // event (no wake time) has no job on purpose.
  auto waiting = [](RunHeaderRow h, std::int64_t wake_at_ms) {
    h.wake_at_ms = wake_at_ms;
    return h;
  };
  auto of_payments = [](RunHeaderRow h) {
    h.reactor = "Payments";
    return h;
  };
  this->create(
      {root("running-no-lease", RunStatus::kRunning), root("running-live", RunStatus::kRunning),
       of_payments(root("running-expired", RunStatus::kRunning)),
       root("running-released", RunStatus::kRunning),
       root("rolling-back-no-lease", RunStatus::kRollingBack),
       root("completed", RunStatus::kCompleted), root("failed", RunStatus::kFailed),
       root("halted", RunStatus::kHalted), root("halted2", RunStatus::kHalted),
       root("pending", RunStatus::kPending), root("enqueued-with-job", RunStatus::kEnqueued),
       root("enqueued-without-job", RunStatus::kEnqueued),
       waiting(root("waiting-until-no-job", RunStatus::kWaiting), 5),
       waiting(root("waiting-until-with-job", RunStatus::kWaiting), 5),
       waiting(root("waiting-for-event", RunStatus::kWaiting), 0),
       // A paused run (an interrupt) is woken only by an active timeout's job.
       waiting(root("paused-deadline-no-job", RunStatus::kPaused), 6),
       waiting(root("paused-deadline-with-job", RunStatus::kPaused), 6),
       waiting(root("paused-for-payload", RunStatus::kPaused), 0),
       header("child-running", RunStatus::kRunning, "running-live"),
       header("child-enqueued", RunStatus::kEnqueued, "running-no-lease")},
      {job("q", "enqueued-with-job"), job("q", "waiting-until-with-job", 5),
       job("q", "paused-deadline-with-job", 6)});

  Lease lapsing = this->acquire(run_lease_key("running-expired"), "w", true, this->kShortTtl);
  this->acquire(run_lease_key("running-live"), "w", true, 60s);
  Lease released = this->acquire(run_lease_key("running-released"), "w", true, 60s);
  ASSERT_TRUE(this->db().release_lease(released.key, "w", released.token).ok());
  // Terminal: never an orphan, live lease or not.
  Lease done = this->acquire(run_lease_key("completed"), "w", true, this->kShortTtl);
  this->advance_to(std::max(lapsing.expires_at_ms, done.expires_at_ms));

  std::vector<RunHeaderRow> out;
  ASSERT_OK_AND_ASSIGN(out, this->db().find_orphans(100));
  EXPECT_EQ(this->ids(out),
            (std::vector<std::string>{"running-no-lease", "running-expired", "running-released",
                                      "rolling-back-no-lease", "enqueued-without-job",
                                      "waiting-until-no-job", "paused-deadline-no-job"}));
  EXPECT_EQ(out.back().wake_at_ms, 6);

  ASSERT_OK_AND_ASSIGN(out, this->db().find_orphans(2));
  EXPECT_EQ(this->ids(out), (std::vector<std::string>{"running-no-lease", "running-expired"}));

  // A job in delivery still counts as a job.
  ASSERT_TRUE(this->fetch({"q"}, "w2").has_value());
  ASSERT_OK_AND_ASSIGN(out, this->db().find_orphans(100));
  EXPECT_EQ(out.size(), 7u);
}

TYPED_TEST(RecoveryConformance, PurgeExpiredDeletesExpiredTerminalRunsWithAllTheirRows) {
  const std::int64_t now = this->now_ms();
  auto run_with_rows = [&](const std::string& id, RunStatus s, std::int64_t expires_at) {
    CommitRequest c;
    RunHeaderRow root = header(id, s);
    root.expires_at_ms = expires_at;
    RunHeaderRow child = header(id + "-child", s, id);
    child.expires_at_ms = expires_at;
    c.headers = {root, child};
    c.inputs = {{id, "{}"}, {id + "-child", "{}"}};
    c.steps = {{id, 0, "s"}, {id + "-child", 0, "s"}};
    c.trace = {{id, 0, "t"}};
    this->commit_ok(c);
  };
  run_with_rows("done-old", RunStatus::kCompleted, now - 1);
  run_with_rows("failed-old", RunStatus::kFailed, now);  // expires_at <= now
  run_with_rows("running-old", RunStatus::kRunning, now - 1);
  run_with_rows("rolling-back-old", RunStatus::kRollingBack, now - 1);
  run_with_rows("done-future", RunStatus::kCompleted, now + 1);
  run_with_rows("done-no-expiry", RunStatus::kCompleted, 0);  // 0: kept forever
  // A root that left its terminal status (a step commit under its lease) is kept.
  RunHeaderRow reopened = header("reopened", RunStatus::kCompleted);
  reopened.expires_at_ms = now - 1;
  this->create({reopened});
  Lease reopen = this->acquire(run_lease_key("reopened"), "w", true);
  CommitRequest step;
  step.root_id = "reopened";
  step.fencing_token = reopen.token;
  step.headers = {header("reopened", RunStatus::kRunning)};
  step.steps = {{"reopened", 0, "s"}};
  this->commit_ok(step);
  // A stale job and a released run lease of a purged run go with it.
  this->enqueue({job("q", "done-old")});
  Lease old = this->acquire(run_lease_key("done-old"), "w", true);
  ASSERT_TRUE(this->db().release_lease(old.key, "w", old.token).ok());
  // Dead leases on other keys are swept too; tokens keep growing afterwards.
  Lease window = this->acquire("sweeper:window", "w", true, 1ms);

  this->advance(1ms);  // "done-future" expires now too; purge it in a second pass
  std::size_t purged = 0;
  ASSERT_OK_AND_ASSIGN(purged, this->db().purge_expired(2));
  EXPECT_EQ(purged, 2u);

  StoredRun run;
  RunHeaderRow h;
  for (const std::string id : {"done-old", "failed-old"}) {
    EXPECT_EQ(assign_or_status(run, this->db().load_run(id)).code(), StatusCode::kNotFound) << id;
    EXPECT_EQ(assign_or_status(h, this->db().load_header(id + "-child")).code(),
              StatusCode::kNotFound)
        << id;
  }
  EXPECT_FALSE(this->has_job("done-old"));
  EXPECT_FALSE(this->fetch({"q"}, "w"));
  // Recreating a purged id starts clean: no rows of the old run come back.
  this->create({header("done-old", RunStatus::kRunning)});
  StoredRun reborn = this->load("done-old");
  EXPECT_EQ(reborn.headers.size(), 1u);
  EXPECT_TRUE(reborn.inputs.empty());
  EXPECT_TRUE(reborn.steps.empty());
  EXPECT_TRUE(reborn.trace.empty());

  ASSERT_OK_AND_ASSIGN(purged, this->db().purge_expired(100));
  EXPECT_EQ(purged, 1u);  // done-future
  ASSERT_OK_AND_ASSIGN(purged, this->db().purge_expired(100));
  EXPECT_EQ(purged, 0u);

  for (const std::string id : {"running-old", "rolling-back-old", "done-no-expiry"}) {
    StoredRun kept = this->load(id);
    EXPECT_EQ(kept.headers.size(), 2u) << id;
    EXPECT_EQ(kept.steps.size(), 2u) << id;
    EXPECT_EQ(kept.inputs.size(), 2u) << id;
    EXPECT_EQ(kept.trace.size(), 1u) << id;
  }
  EXPECT_EQ(this->load("reopened").steps.size(), 1u);
  EXPECT_GT(this->acquire("sweeper:window", "w2", true).token, window.token);
}

// What the listing and counting cases read: roots a (completed, 10), b (running, 30), c
// (completed, 20, Payments), d (completed, 40) and e (failed, 20, Payments: as new as c, filed
// under another status, so ties go by id, descending, across statuses too), and a child of a.
std::vector<RunHeaderRow> listed_runs() {
  std::vector<RunHeaderRow> runs = {header("a", RunStatus::kCompleted, "", "", 10),
                                    header("b", RunStatus::kRunning, "", "", 30),
                                    header("c", RunStatus::kCompleted, "", "", 20),
                                    header("d", RunStatus::kCompleted, "", "", 40),
                                    header("e", RunStatus::kFailed, "", "", 20),
                                    header("a-child", RunStatus::kCompleted, "a", "", 50)};
  runs[2].reactor = runs[4].reactor = "Payments";
  return runs;
}

TYPED_TEST(RecoveryConformance, ListRunsFiltersNewestFirstWithLimit) {
  const std::vector<RunHeaderRow> runs = listed_runs();
  this->create(runs);

  std::vector<RunHeaderRow> out;
  RunFilter all;
  ASSERT_OK_AND_ASSIGN(out, this->db().list_runs(all));
  EXPECT_EQ(this->ids(out), (std::vector<std::string>{"d", "b", "e", "c", "a"}));
  EXPECT_EQ(dump(out[0]), dump(runs[3]));
  all.limit = 3;
  ASSERT_OK_AND_ASSIGN(out, this->db().list_runs(all));
  EXPECT_EQ(this->ids(out), (std::vector<std::string>{"d", "b", "e"}));

  RunFilter completed;
  completed.status = RunStatus::kCompleted;
  ASSERT_OK_AND_ASSIGN(out, this->db().list_runs(completed));
  EXPECT_EQ(this->ids(out), (std::vector<std::string>{"d", "c", "a"}));

  RunFilter payments;
  payments.reactor = "Payments";
  ASSERT_OK_AND_ASSIGN(out, this->db().list_runs(payments));
  EXPECT_EQ(this->ids(out), (std::vector<std::string>{"e", "c"}));

  RunFilter both;
  both.status = RunStatus::kCompleted;
  both.reactor = "OrderSaga";
  both.limit = 1;
  ASSERT_OK_AND_ASSIGN(out, this->db().list_runs(both));
  EXPECT_EQ(this->ids(out), (std::vector<std::string>{"d"}));

  RunFilter none;
  none.status = RunStatus::kWaiting;
  ASSERT_OK_AND_ASSIGN(out, this->db().list_runs(none));
  EXPECT_TRUE(out.empty());
}

TYPED_TEST(RecoveryConformance, CountRunsCountsTheRootsAFilterMatchesWhateverItsLimit) {
  const std::vector<RunHeaderRow> runs = listed_runs();
  this->create(runs);

  const auto count = [this](RunFilter filter) {
    std::size_t n = 12345;
    EXPECT_OK_AND_ASSIGN(n, this->db().count_runs(filter));
    return n;
  };
  RunFilter all;
  all.limit = 2;              // ignored: the count is of every match
  EXPECT_EQ(count(all), 5u);  // roots only: the child is not counted
  RunFilter completed;
  completed.status = RunStatus::kCompleted;
  completed.limit = 1;
  EXPECT_EQ(count(completed), 3u);
  RunFilter payments;
  payments.reactor = "Payments";
  EXPECT_EQ(count(payments), 2u);
  RunFilter both;
  both.status = RunStatus::kCompleted;
  both.reactor = "OrderSaga";
  EXPECT_EQ(count(both), 2u);
  RunFilter none;
  none.status = RunStatus::kWaiting;
  EXPECT_EQ(count(none), 0u);
  RunFilter unknown;
  unknown.reactor = "NoSuchReactor";
  EXPECT_EQ(count(unknown), 0u);

  // A run that changes status moves between the counts.
  RunHeaderRow b_done = runs[1];
  b_done.status = RunStatus::kCompleted;
  b_done.updated_at_ms = 60;
  CommitRequest c2;
  c2.headers.push_back(b_done);
  ASSERT_TRUE(this->db().commit(c2).ok());
  EXPECT_EQ(count(completed), 4u);
  RunFilter running;
  running.status = RunStatus::kRunning;
  EXPECT_EQ(count(running), 0u);
  EXPECT_EQ(count(all), 5u);
}

}  // namespace
}  // namespace reactor::conformance

namespace reactor::conformance {
namespace {

template <typename Factory>
class RedeliverConformance : public BackendConformance<Factory> {};
TYPED_TEST_SUITE(RedeliverConformance, ConformanceBackends, BackendName);

// The sweeper's recovery: a job its dead worker held in delivery is deliverable again at once,
// whatever its visibility timeout; a run with no job gets one; a job waiting in the queue stays
// as it is (no duplicate).
TYPED_TEST(RedeliverConformance, ADeadWorkersJobIsDeliverableAtOnceAndAJoblessRunGetsOne) {
  this->create({header("held", RunStatus::kRunning), header("queued", RunStatus::kRunning),
                header("jobless", RunStatus::kRunning)},
               {job("q", "held"), job("q", "queued", this->now_ms() + 3'600'000)});
  std::optional<Delivery> dead = this->fetch({"q"}, "dead-worker", std::chrono::hours(1));
  ASSERT_TRUE(dead.has_value());
  ASSERT_EQ(dead->job.spec.run_id, "held");
  EXPECT_FALSE(this->fetch({"q"}, "w").has_value());  // in delivery for an hour

  CommitRequest c;
  for (const char* id : {"held", "queued", "jobless"}) c.redeliver.push_back(job("q", id));
  this->commit_ok(c);

  std::optional<Delivery> again = this->fetch({"q"}, "w");
  ASSERT_TRUE(again.has_value());
  EXPECT_EQ(again->job.id, dead->job.id);  // the same job, not a duplicate
  EXPECT_EQ(again->job.deliveries, 2);
  std::optional<Delivery> fresh = this->fetch({"q"}, "w");
  ASSERT_TRUE(fresh.has_value());
  EXPECT_EQ(fresh->job.spec.run_id, "jobless");
  EXPECT_FALSE(this->fetch({"q"}, "w").has_value());  // "queued" is still due in an hour
  bool has_job = false;
  ASSERT_OK_AND_ASSIGN(has_job, this->db().has_job("queued"));
  EXPECT_TRUE(has_job);
}

}  // namespace
}  // namespace reactor::conformance
