// The job queue: FIFO among due jobs, delays, visibility timeouts, routing,
// acks, release, and the run lease taken with a delivery.
#include <algorithm>
#include <mutex>
#include <set>
#include <thread>

#include "conformance/conformance_support.hpp"
#include "support/result_testing.hpp"

namespace reactor::conformance {
namespace {

// The commit that ends the run `d` delivered: completed, fenced by its
// lease, acking its job and releasing the lease.
CommitRequest ending(const Delivery& d) {
  CommitRequest c;
  c.root_id = d.job.spec.run_id;
  c.fencing_token = d.run_lease.token;
  c.headers = {header(d.job.spec.run_id, RunStatus::kCompleted)};
  c.ack_job = d.job.id;
  c.ack_owner = d.job.lease_owner;
  c.release_lease = true;
  c.lease_owner = d.run_lease.owner;
  return c;
}

template <typename Factory>
class QueueConformance : public BackendConformance<Factory> {};
TYPED_TEST_SUITE(QueueConformance, ConformanceBackends, BackendName);

TYPED_TEST(QueueConformance, FetchIsFifoAmongDueJobs) {
  const std::int64_t now = this->now_ms();
  JobSpec start = job("q", "r-b", now - 20, JobKind::kStart);
  start.snoozes = 3;
  const std::int64_t later = now + this->ms(this->kShortTtl);
  this->enqueue({job("q", "r-a", now - 10), start, job("q", "r-c", now), job("q", "r-d", later)});
  this->enqueue({job("q", "r-e", now - 20)});  // same run_at as r-b, enqueued later

  std::vector<std::string> order;
  while (auto d = this->fetch({"q"}, "w")) order.push_back(d->job.spec.run_id);
  EXPECT_EQ(order, (std::vector<std::string>{"r-b", "r-e", "r-a", "r-c"}));

  // Not before run_at.
  this->advance_to(later - this->ms(this->kMargin));
  EXPECT_FALSE(this->fetch({"q"}, "w"));
  this->advance_to(later);
  auto d = this->fetch({"q"}, "w");
  ASSERT_TRUE(d);
  EXPECT_EQ(d->job.spec.run_id, "r-d");
}

TYPED_TEST(QueueConformance, DeliveryCarriesTheJobAndItsLease) {
  const std::int64_t now = this->now_ms();
  JobSpec spec = job("q", "r1", now - 1, JobKind::kStart);
  spec.snoozes = 2;
  this->enqueue({spec});
  auto d = this->fetch({"q"}, "w1");
  const std::int64_t fetched_by = this->now_ms();
  ASSERT_TRUE(d);
  EXPECT_GT(d->job.id, 0);
  EXPECT_EQ(d->job.spec.queue, "q");
  EXPECT_EQ(d->job.spec.kind, JobKind::kStart);
  EXPECT_EQ(d->job.spec.run_id, "r1");
  EXPECT_EQ(d->job.spec.reactor, "OrderSaga");
  EXPECT_EQ(d->job.spec.run_at_ms, now - 1);
  EXPECT_EQ(d->job.spec.snoozes, 2);
  EXPECT_EQ(d->job.deliveries, 1);
  EXPECT_EQ(d->job.lease_owner, "w1");
  // Invisible until now + visibility, by the store's clock at the fetch.
  EXPECT_GE(d->job.lease_expires_ms, now + 30'000);
  EXPECT_LE(d->job.lease_expires_ms, fetched_by + 30'000);
}

TYPED_TEST(QueueConformance, FetchedJobIsInvisibleUntilItsVisibilityTimeout) {
  this->enqueue({job("q", "r1")});
  auto first = this->fetch({"q"}, "w1", this->kShortTtl);
  ASSERT_TRUE(first);
  EXPECT_EQ(first->job.deliveries, 1);
  EXPECT_FALSE(this->fetch({"q"}, "w2"));
  this->advance_to(first->job.lease_expires_ms - this->ms(this->kMargin));
  EXPECT_FALSE(this->fetch({"q"}, "w2"));
  this->advance_to(first->job.lease_expires_ms);
  auto again = this->fetch({"q"}, "w2");
  ASSERT_TRUE(again);
  EXPECT_EQ(again->job.id, first->job.id);
  EXPECT_EQ(again->job.deliveries, 2);
  EXPECT_EQ(again->job.lease_owner, "w2");
}

TYPED_TEST(QueueConformance, FetchTakesTheRunLeaseWhenFree) {
  this->create({header("r1", RunStatus::kEnqueued)}, {job("q", "r1"), job("q", "r1")});
  const std::int64_t now = this->now_ms();
  auto d1 = this->fetch({"q"}, "w1", this->kVisibility, 20s);
  const std::int64_t fetched_by = this->now_ms();
  ASSERT_TRUE(d1);
  EXPECT_TRUE(d1->run_leased);
  EXPECT_EQ(d1->run_lease.key, run_lease_key("r1"));
  EXPECT_EQ(d1->run_lease.owner, "w1");
  EXPECT_GT(d1->run_lease.token, 0u);
  EXPECT_GE(d1->run_lease.expires_at_ms, now + 20'000);
  EXPECT_LE(d1->run_lease.expires_at_ms, fetched_by + 20'000);
  EXPECT_EQ(this->load("r1").fencing_token, d1->run_lease.token);

  // A duplicate delivery of the same run: the job is delivered, the run is reported busy.
  auto d2 = this->fetch({"q"}, "w2");
  ASSERT_TRUE(d2);
  EXPECT_NE(d2->job.id, d1->job.id);
  EXPECT_FALSE(d2->run_leased);
  EXPECT_EQ(d2->run_lease.owner, "w1");
  EXPECT_EQ(d2->run_lease.token, d1->run_lease.token);
  EXPECT_EQ(d2->job.lease_owner, "w2");

  // A lease taken by acquire_lease counts the same.
  this->enqueue({job("q", "r2")});
  Lease held = this->acquire(run_lease_key("r2"), "sweeper", true);
  auto d3 = this->fetch({"q"}, "w3");
  ASSERT_TRUE(d3);
  EXPECT_FALSE(d3->run_leased);
  EXPECT_EQ(d3->run_lease.owner, "sweeper");
  EXPECT_EQ(d3->run_lease.token, held.token);
}

// A backend may bring the leased run with the delivery (Delivery::run); when
// it does, the rows are exactly what load_run returns, token included. A
// delivery that did not get the lease never carries the run.
TYPED_TEST(QueueConformance, ARunThatComesWithItsDeliveryIsTheStoredRun) {
  CommitRequest c;
  c.headers = {header("r1", RunStatus::kEnqueued)};
  c.inputs = {{"r1", R"({"order_id":7})"}};
  c.steps = {{"r1", 0, R"({"s":0})"}, {"r1", 1, R"({"s":1})"}};
  c.trace = {{"r1", 0, "t0"}};
  c.enqueue = {job("q", "r1"), job("q", "r1")};
  ASSERT_TRUE(this->db().commit(c).ok());
  auto d = this->fetch({"q"}, "w1");
  ASSERT_TRUE(d && d->run_leased);
  if (d->run) {
    const StoredRun loaded = this->load("r1");
    ASSERT_EQ(d->run->headers.size(), 1u);
    EXPECT_EQ(d->run->headers[0].id, "r1");
    EXPECT_EQ(d->run->headers[0].body, loaded.headers[0].body);
    ASSERT_EQ(d->run->inputs.size(), 1u);
    EXPECT_EQ(d->run->inputs[0].inputs, loaded.inputs[0].inputs);
    ASSERT_EQ(d->run->steps.size(), 2u);
    EXPECT_EQ(d->run->steps[1].body, R"({"s":1})");
    ASSERT_EQ(d->run->trace.size(), 1u);
    EXPECT_EQ(d->run->trace[0].body, "t0");
    EXPECT_EQ(d->run->fencing_token, d->run_lease.token);
    EXPECT_EQ(loaded.fencing_token, d->run_lease.token);
  }
  auto busy = this->fetch({"q"}, "w2");
  ASSERT_TRUE(busy);
  EXPECT_FALSE(busy->run_leased);
  EXPECT_FALSE(busy->run);
}

// The delivery that takes an enqueued root run files it as running, so the
// worker need not commit that before the first step (Delivery::run_started);
// the run it carries is still the run as it was. A run in any other status,
// or a delivery without the run's lease, changes nothing.
TYPED_TEST(QueueConformance, ADeliveryFilesAnEnqueuedRunAsRunning) {
  this->create({header("r1", RunStatus::kEnqueued)}, {job("q", "r1"), job("q", "r1")});
  const std::int64_t before = this->now_ms();
  auto d = this->fetch({"q"}, "w1");
  ASSERT_TRUE(d && d->run_leased && d->run);
  EXPECT_TRUE(d->run_started);
  EXPECT_EQ(d->run->headers.at(0).status, RunStatus::kEnqueued);
  RunHeaderRow h;
  ASSERT_OK_AND_ASSIGN(h, this->db().load_header("r1"));
  EXPECT_EQ(h.status, RunStatus::kRunning);
  EXPECT_GE(h.updated_at_ms, before);
  EXPECT_EQ(h.body, d->run->headers.at(0).body);
  std::vector<RunHeaderRow> rows;
  RunFilter running, enqueued;
  running.status = RunStatus::kRunning;
  enqueued.status = RunStatus::kEnqueued;
  ASSERT_OK_AND_ASSIGN(rows, this->db().list_runs(running));
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].id, "r1");
  ASSERT_OK_AND_ASSIGN(rows, this->db().list_runs(enqueued));
  EXPECT_TRUE(rows.empty());

  auto busy = this->fetch({"q"}, "w2");
  ASSERT_TRUE(busy && !busy->run_leased);
  EXPECT_FALSE(busy->run_started);

  this->create({header("r2", RunStatus::kHalted)}, {job("q2", "r2")});
  auto resumed = this->fetch({"q2"}, "w1");
  ASSERT_TRUE(resumed && resumed->run_leased);
  EXPECT_FALSE(resumed->run_started);
  ASSERT_OK_AND_ASSIGN(h, this->db().load_header("r2"));
  EXPECT_EQ(h.status, RunStatus::kHalted);
  EXPECT_EQ(h.updated_at_ms, 1);
}

// A large run (Redis reads one of over 5,000 rows apart from its fetch, not through Lua) comes
// with its delivery as it was before the fetch, all its rows, or not at all.
TYPED_TEST(QueueConformance, ALargeRunComesWithItsDeliveryAsItWas) {
  CommitRequest c;
  c.headers = {header("r1", RunStatus::kEnqueued)};
  for (std::uint32_t i = 0; i < 6000; ++i) {
    c.steps.push_back({"r1", i, R"({"s":)" + std::to_string(i) + "}"});
  }
  c.enqueue = {job("q", "r1")};
  ASSERT_TRUE(this->db().commit(c).ok());
  auto d = this->fetch({"q"}, "w1");
  ASSERT_TRUE(d && d->run_leased);
  EXPECT_TRUE(d->run_started);
  if (d->run) {
    EXPECT_EQ(d->run->headers.at(0).status, RunStatus::kEnqueued);
    ASSERT_EQ(d->run->steps.size(), 6000u);
    EXPECT_EQ(d->run->steps[5999].body, R"({"s":5999})");
    EXPECT_EQ(d->run->fencing_token, d->run_lease.token);
  }
  RunHeaderRow h;
  ASSERT_OK_AND_ASSIGN(h, this->db().load_header("r1"));
  EXPECT_EQ(h.status, RunStatus::kRunning);
}

// A crash loop is visible to the store alone (Delivery::run_deliveries): each fetch that leases
// a run counts one more delivery since the run's last progress, in the fetch's own write. A
// fenced commit that records a step, acks a job or releases the lease is progress and clears
// the count; a header alone is not, nor is a delivery that dies (its job and lease lapse).
TYPED_TEST(QueueConformance, FetchCountsARunsDeliveriesUntilItsProgress) {
  this->create({header("r1", RunStatus::kRunning)}, {job("q", "r1")});
  std::optional<Delivery> d;
  // The delivery in `d` dies: its job and the run's lease go back as if they had lapsed.
  const auto dies = [&] {
    ASSERT_TRUE(this->db().release_job(d->job.id, d->job.lease_owner, 0s).ok());
    ASSERT_TRUE(
        this->db().release_lease(d->run_lease.key, d->run_lease.owner, d->run_lease.token).ok());
  };
  const auto fenced = [&] {
    CommitRequest c;
    c.root_id = "r1";
    c.fencing_token = d->run_lease.token;
    c.lease_owner = d->run_lease.owner;
    c.headers = {header("r1", RunStatus::kRunning)};
    return c;
  };
  for (int n = 1; n <= 3; ++n) {
    d = this->fetch({"q"}, "w" + std::to_string(n));
    ASSERT_TRUE(d && d->run_leased);
    EXPECT_EQ(d->run_deliveries, n);
    dies();
  }
  d = this->fetch({"q"}, "w4");
  ASSERT_TRUE(d && d->run_leased);
  EXPECT_EQ(d->run_deliveries, 4);
  this->commit_ok(fenced());  // a header alone
  dies();
  d = this->fetch({"q"}, "w5");
  ASSERT_TRUE(d && d->run_leased);
  EXPECT_EQ(d->run_deliveries, 5);
  CommitRequest step = fenced();
  step.steps = {{"r1", 0, R"({"s":0})"}};
  this->commit_ok(step);
  dies();
  d = this->fetch({"q"}, "w6");
  ASSERT_TRUE(d && d->run_leased);
  EXPECT_EQ(d->run_deliveries, 1);

  // A fetch that finds the run leased counts nothing.
  this->enqueue({job("q", "r1")});
  auto busy = this->fetch({"q"}, "w7");
  ASSERT_TRUE(busy && !busy->run_leased);
  EXPECT_EQ(busy->run_deliveries, 0);
  CommitRequest release = fenced();
  release.release_lease = true;  // handed back: progress too
  this->commit_ok(release);
  ASSERT_TRUE(this->db().release_job(d->job.id, d->job.lease_owner, 0s).ok());
  d = this->fetch({"q"}, "w8");
  ASSERT_TRUE(d && d->run_leased);
  EXPECT_EQ(d->run_deliveries, 1);
}

// A run's last commit can fetch the worker's next job (commit_then_fetch):
// the commit is applied as commit applies it, then the fetch is what fetch
// gives. A fenced-out commit changes nothing and fetches nothing.
TYPED_TEST(QueueConformance, CommitThenFetchAppliesTheCommitThenFetches) {
  this->create({header("r1", RunStatus::kEnqueued)}, {job("q", "r1")});
  auto d = this->fetch({"q"}, "w1");
  ASSERT_TRUE(d && d->run_leased);
  this->create({header("r2", RunStatus::kEnqueued)}, {job("q", "r2")});

  CommitRequest stale = ending(*d);
  stale.fencing_token += 1000;
  std::optional<Delivery> next;
  const FetchRequest f{{"q"}, "w2", this->kVisibility, 10s};
  EXPECT_EQ(assign_or_status(next, this->db().commit_then_fetch(stale, f)).code(),
            StatusCode::kLeaseLost);
  EXPECT_FALSE(next);

  ASSERT_OK_AND_ASSIGN(next, this->db().commit_then_fetch(ending(*d), f));
  ASSERT_TRUE(next && next->run_leased && next->run);
  EXPECT_EQ(next->job.spec.run_id, "r2");
  EXPECT_EQ(next->job.lease_owner, "w2");
  EXPECT_EQ(next->run_lease.owner, "w2");
  EXPECT_TRUE(next->run_started);
  RunHeaderRow h;
  ASSERT_OK_AND_ASSIGN(h, this->db().load_header("r1"));
  EXPECT_EQ(h.status, RunStatus::kCompleted);
  bool has_job = true;
  ASSERT_OK_AND_ASSIGN(has_job, this->db().has_job("r1"));
  EXPECT_FALSE(has_job);

  // Nothing due: applied, nothing fetched.
  const Delivery second = *next;
  ASSERT_OK_AND_ASSIGN(next, this->db().commit_then_fetch(ending(second), f));
  EXPECT_FALSE(next);
  ASSERT_OK_AND_ASSIGN(h, this->db().load_header("r2"));
  EXPECT_EQ(h.status, RunStatus::kCompleted);
}

TYPED_TEST(QueueConformance, QueuesAreRoutedApart) {
  this->enqueue({job("a", "a1"), job("b", "b1"), job("a", "a2"), job("b", "b2")});
  EXPECT_FALSE(this->fetch({}, "w"));
  EXPECT_FALSE(this->fetch({"c"}, "w"));
  std::vector<std::string> from_a;
  while (auto d = this->fetch({"a"}, "w")) {
    EXPECT_EQ(d->job.spec.queue, "a");
    from_a.push_back(d->job.spec.run_id);
  }
  EXPECT_EQ(from_a, (std::vector<std::string>{"a1", "a2"}));

  this->enqueue({job("a", "a3")});
  std::vector<std::string> from_both;
  while (auto d = this->fetch({"b", "a"}, "w")) from_both.push_back(d->job.spec.run_id);
  EXPECT_EQ(from_both, (std::vector<std::string>{"b1", "b2", "a3"}));
}

TYPED_TEST(QueueConformance, AckInCommitDeletesTheJob) {
  this->create({header("r1", RunStatus::kEnqueued)}, {job("q", "r1")});
  auto d = this->fetch({"q"}, "w1", this->kShortTtl);
  ASSERT_TRUE(d && d->run_leased);

  CommitRequest c;
  c.root_id = "r1";
  c.fencing_token = d->run_lease.token;
  c.headers = {header("r1", RunStatus::kCompleted)};
  c.ack_job = d->job.id;
  c.ack_owner = "w1";
  c.release_lease = true;
  c.lease_owner = "w1";
  this->commit_ok(c);
  EXPECT_FALSE(this->has_job("r1"));
  this->advance_to(d->job.lease_expires_ms);  // an acked job is not redelivered
  EXPECT_FALSE(this->fetch({"q"}, "w2"));
}

// The commit that ends a run (its own terminal header, step and trace rows,
// the ack of its job, the release of its lease): what a worker's last commit
// of a run is, and what a backend may serve by a shorter path. It must still
// write every row, keep the first trace row of a seq, file the run as ended
// (listings, expiry), ack only its own delivery, release only its own lease,
// and fence.
TYPED_TEST(QueueConformance, AFinishCommitEndsTheRunAcksReleasesAndIsFenced) {
  this->create({header("r1", RunStatus::kEnqueued), header("r2", RunStatus::kEnqueued)},
               {job("q", "r1"), job("q", "r2")});
  auto d = this->fetch({"q"}, "w1", this->kShortTtl, this->kShortTtl);
  ASSERT_TRUE(d && d->run_leased);
  ASSERT_EQ(d->job.spec.run_id, "r1");
  CommitRequest step;
  step.root_id = "r1";
  step.fencing_token = d->run_lease.token;
  step.headers = {header("r1", RunStatus::kRunning)};
  step.trace = {{"r1", 0, "t0"}};
  this->commit_ok(step);
  auto finish = [&](const Delivery& by, RunStatus status, std::int64_t expires_at) {
    CommitRequest c = ending(by);
    RunHeaderRow h = header("r1", status, "", "", 70);
    h.expires_at_ms = expires_at;
    c.headers = {h};
    c.steps = {{"r1", 0, "s0"}, {"r1", 1, "s1"}};
    c.trace = {{"r1", 0, "t0-duplicate"}, {"r1", 1, "t1"}};
    return c;
  };
  auto listed = [&](RunStatus status) {
    RunFilter filter;
    filter.status = status;
    std::vector<RunHeaderRow> out;
    EXPECT_OK_AND_ASSIGN(out, this->db().list_runs(filter));
    return this->ids(out);
  };
  using Ids = std::vector<std::string>;

  // A late finish by a delivery and a lease that lapsed and went to w2: fenced, nothing written.
  this->advance_to(std::max(d->job.lease_expires_ms, d->run_lease.expires_at_ms));
  auto again = this->fetch({"q"}, "w2");
  ASSERT_TRUE(again && again->run_leased);
  ASSERT_EQ(again->job.id, d->job.id);
  const std::string before = dump(this->load("r1"));
  EXPECT_EQ(this->db().commit(finish(*d, RunStatus::kCompleted, 0)).code(), StatusCode::kLeaseLost);
  EXPECT_EQ(dump(this->load("r1")), before);
  EXPECT_TRUE(this->has_job("r1"));

  // With w2's token but w1's names: written (under another reactor, which a listing of
  // every reactor finds), but the job and the lease stay w2's.
  CommitRequest borrowed = finish(*again, RunStatus::kFailed, 0);
  borrowed.headers.front().reactor = "Payments";
  borrowed.ack_owner = "w1";
  borrowed.lease_owner = "w1";
  this->commit_ok(borrowed);
  EXPECT_TRUE(this->has_job("r1"));
  EXPECT_EQ(listed(RunStatus::kFailed), (Ids{"r1"}));
  this->acquire(run_lease_key("r1"), "w3", false);

  // w2's own finish: acked, released, filed as completed and as expiring.
  const std::int64_t expires_at = this->now_ms() + 500;
  this->commit_ok(finish(*again, RunStatus::kCompleted, expires_at));
  EXPECT_FALSE(this->has_job("r1"));
  EXPECT_TRUE(this->has_job("r2"));
  RunHeaderRow ended = header("r1", RunStatus::kCompleted, "", "", 70);
  ended.expires_at_ms = expires_at;
  Lease next = this->acquire(run_lease_key("r1"), "w3", true);
  EXPECT_EQ(dump(this->load("r1")), dump(ended) + "\n" +
                                        "step r1#0 s0\n"
                                        "step r1#1 s1\n"
                                        "trace r1@0 t0\n"
                                        "trace r1@1 t1\n"
                                        "token " +
                                        std::to_string(next.token) + "\n");
  EXPECT_EQ(listed(RunStatus::kFailed), (Ids{}));
  EXPECT_EQ(listed(RunStatus::kCompleted), (Ids{"r1"}));
  EXPECT_EQ(listed(RunStatus::kEnqueued), (Ids{"r2"}));
  ASSERT_TRUE(this->db().release_lease(next.key, "w3", next.token).ok());
  this->advance_to(expires_at);
  std::size_t purged = 0;
  ASSERT_OK_AND_ASSIGN(purged, this->db().purge_expired(10));
  EXPECT_EQ(purged, 1u);
  RunHeaderRow gone;
  EXPECT_EQ(assign_or_status(gone, this->db().load_header("r1")).code(), StatusCode::kNotFound);
}

TYPED_TEST(QueueConformance, AckByAFormerDeliveryKeepsTheJob) {
  this->enqueue({job("q", "r1"), job("q", "r2")});
  auto first = this->fetch({"q"}, "w1", this->kShortTtl);
  ASSERT_TRUE(first);
  this->advance_to(first->job.lease_expires_ms);
  auto again = this->fetch({"q"}, "w2");
  ASSERT_TRUE(again);
  ASSERT_EQ(again->job.id, first->job.id);

  CommitRequest late;
  late.ack_job = first->job.id;
  late.ack_owner = "w1";  // its delivery is now w2's
  this->commit_ok(late);
  EXPECT_TRUE(this->has_job("r1"));

  // An unleased job (never fetched, or released) may be acked by anyone.
  auto pending = this->fetch({"q"}, "peek");  // r2: learn its id ...
  ASSERT_TRUE(pending);
  ASSERT_TRUE(this->db().release_job(pending->job.id, "peek", 0ms).ok());  // ... and put it back
  CommitRequest unleased;
  unleased.ack_job = pending->job.id;
  unleased.ack_owner = "anyone";
  this->commit_ok(unleased);
  EXPECT_FALSE(this->has_job("r2"));
}

TYPED_TEST(QueueConformance, ReleaseJobPutsItBackAfterTheDelay) {
  this->enqueue({job("q", "r1")});
  auto d = this->fetch({"q"}, "w1");
  ASSERT_TRUE(d);
  ASSERT_TRUE(this->db().release_job(d->job.id, "w2", 0ms).ok());  // not w2's: no-op
  EXPECT_FALSE(this->fetch({"q"}, "w2"));

  const std::int64_t delay = this->ms(this->kShortTtl);
  const std::int64_t before = this->now_ms();
  ASSERT_TRUE(this->db().release_job(d->job.id, "w1", this->kShortTtl).ok());
  const std::int64_t after = this->now_ms();
  EXPECT_TRUE(this->has_job("r1"));
  this->advance_to(before + delay - this->ms(this->kMargin));
  EXPECT_FALSE(this->fetch({"q"}, "w2"));
  this->advance_to(after + delay);
  auto again = this->fetch({"q"}, "w2");
  ASSERT_TRUE(again);
  EXPECT_EQ(again->job.id, d->job.id);
  EXPECT_EQ(again->job.deliveries, 2);
  // Due at now + delay, by the store's clock at the release.
  EXPECT_GE(again->job.spec.run_at_ms, before + delay);
  EXPECT_LE(again->job.spec.run_at_ms, after + delay);
}

TYPED_TEST(QueueConformance, HasJobWhileQueuedOrInDelivery) {
  EXPECT_FALSE(this->has_job("r1"));
  const std::int64_t run_at = this->now_ms() + this->ms(this->kShortTtl);
  this->enqueue({job("q", "r1", run_at)});
  EXPECT_TRUE(this->has_job("r1"));
  EXPECT_FALSE(this->has_job("r2"));
  this->advance_to(run_at);
  auto d = this->fetch({"q"}, "w1");
  ASSERT_TRUE(d);
  EXPECT_TRUE(this->has_job("r1"));
  CommitRequest ack;
  ack.ack_job = d->job.id;
  ack.ack_owner = "w1";
  this->commit_ok(ack);
  EXPECT_FALSE(this->has_job("r1"));
}

TYPED_TEST(QueueConformance, ConcurrentFetchersGetEachJobOnce) {
  constexpr int kJobs = 120;
  constexpr int kWorkers = 4;
  for (int i = 0; i < kJobs; i += 10) {
    std::vector<JobSpec> batch;
    std::vector<RunHeaderRow> runs;
    for (int j = i; j < i + 10; ++j) {
      runs.push_back(header("run-" + std::to_string(j), RunStatus::kEnqueued));
      batch.push_back(job("q", "run-" + std::to_string(j)));
    }
    this->create(runs, batch);
  }

  std::mutex mu;
  std::vector<std::int64_t> seen;
  std::vector<std::string> errors;
  std::vector<std::thread> workers;
  for (int w = 0; w < kWorkers; ++w) {
    workers.emplace_back([&, w] {
      for (int n = 0;; ++n) {
        const std::string owner = "w" + std::to_string(w) + "-" + std::to_string(n);
        std::optional<Delivery> d;
        Status s = assign_or_status(
            d, this->db().fetch({{"q"}, owner, this->kVisibility, this->kLeaseTtl}));
        if (s.ok() && !d) return;
        if (s.ok() && !d->run_leased) s = Status::Internal("run lease busy for a fresh run");
        if (s.ok()) {
          CommitRequest c;
          c.root_id = d->job.spec.run_id;
          c.fencing_token = d->run_lease.token;
          c.headers = {header(d->job.spec.run_id, RunStatus::kCompleted)};
          c.ack_job = d->job.id;
          c.ack_owner = owner;
          c.release_lease = true;
          c.lease_owner = owner;
          s = this->db().commit(c);
        }
        std::lock_guard lock(mu);
        if (!s.ok()) {
          errors.push_back(s.to_string());
          return;
        }
        seen.push_back(d->job.id);
      }
    });
  }
  for (auto& t : workers) t.join();
  EXPECT_TRUE(errors.empty()) << errors.front();
  std::set<std::int64_t> unique(seen.begin(), seen.end());
  EXPECT_EQ(seen.size(), static_cast<std::size_t>(kJobs));
  EXPECT_EQ(unique.size(), static_cast<std::size_t>(kJobs));
  std::vector<RunHeaderRow> rows;
  RunFilter done;
  done.status = RunStatus::kCompleted;
  done.limit = 1000;
  ASSERT_OK_AND_ASSIGN(rows, this->db().list_runs(done));
  EXPECT_EQ(rows.size(), static_cast<std::size_t>(kJobs));
}

// Commits from several threads at once — a worker's threads ending their runs — are each applied
// or refused alone (SQLite writes those that wait for one another in one transaction), and the
// fetch asked for with each applied one takes a job no other fetch took.
TYPED_TEST(QueueConformance, ConcurrentCommitsAreEachAppliedOrRefusedAlone) {
  constexpr int kThreads = 4;
  constexpr int kCommits = 30;  // a thread's; every third re-creates the run before it: refused
  std::mutex mu;
  std::vector<std::string> errors;
  std::vector<std::int64_t> fetched;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kCommits; ++i) {
        const bool again = i % 3 == 2;
        const std::string id = "t" + std::to_string(t) + "-" + std::to_string(again ? i - 1 : i);
        CommitRequest c;
        c.create = true;
        c.headers = {header(id, RunStatus::kEnqueued)};
        c.inputs = {{id, "{}"}};
        c.enqueue = {job(again ? "refused" : "q", id)};
        FetchRequest f{{"q"}, "w" + std::to_string(t), this->kVisibility, this->kLeaseTtl};
        Result<std::optional<Delivery>> r = this->db().commit_then_fetch(c, f);
        std::lock_guard lock(mu);
        if (again && r.status().code() != StatusCode::kAlreadyExists) {
          errors.push_back(id + " created twice: " + r.status().to_string());
        } else if (!again && !r.ok()) {
          errors.push_back(id + ": " + r.status().to_string());
        } else if (r.ok() && *r) {
          fetched.push_back((*r)->job.id);
        }
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_TRUE(errors.empty()) << errors.front();
  for (;;) {  // the jobs no commit fetched
    std::optional<Delivery> d;
    ASSERT_OK_AND_ASSIGN(d, this->db().fetch({{"q"}, "rest", this->kVisibility, this->kLeaseTtl}));
    if (!d) break;
    fetched.push_back(d->job.id);
  }
  const std::size_t created = kThreads * (kCommits - kCommits / 3);
  EXPECT_EQ(fetched.size(), created);
  EXPECT_EQ(std::set<std::int64_t>(fetched.begin(), fetched.end()).size(), created);
  std::optional<Delivery> refused;
  ASSERT_OK_AND_ASSIGN(refused,
                       this->db().fetch({{"refused"}, "w", this->kVisibility, this->kLeaseTtl}));
  EXPECT_FALSE(refused) << "a refused commit enqueued its job";
  for (int t = 0; t < kThreads; ++t) {
    for (int i = 0; i < kCommits; ++i) {
      const std::string id = "t" + std::to_string(t) + "-" + std::to_string(i);
      EXPECT_EQ(this->db().load_header(id).ok(), i % 3 != 2) << id;
    }
  }
}

}  // namespace
}  // namespace reactor::conformance
