// The commit contract's checks in their order (docs/durability.md, "The commit contract"), on
// every backend: a malformed request is refused before the fence, the fence before a start's
// collision, and a refused commit writes nothing — no row, no job, no ack, no lease release. The
// refusals say what storage/commit_refusals.hpp says. (The Redis nonce, the one check memory and
// SQLite have no use for, is RedisServerStall.ACommitResentAfterItsReplyTimedOutIsAppliedOnce.)
#include "conformance/conformance_support.hpp"
#include "storage/commit_refusals.hpp"

namespace reactor::conformance {
namespace {

template <typename Factory>
class CommitContract : public BackendConformance<Factory> {
 protected:
  // Run r1, delivered to w1 (its job leased, its run lease taken with a short TTL), then its run
  // lease taken over by w2: w1 is a zombie whose token is stale.
  struct Zombie {
    Delivery delivery;
    Lease successor;
  };
  Zombie zombie_and_successor() {
    this->create({header("r1", RunStatus::kEnqueued)}, {job("q", "r1", 0, JobKind::kStart)});
    std::optional<Delivery> d = this->fetch({"q"}, "w1", this->kVisibility, this->kShortTtl);
    EXPECT_TRUE(d && d->run_leased);
    this->advance_to(d->run_lease.expires_at_ms);
    Lease next = this->acquire(run_lease_key("r1"), "w2", true);
    return {*d, next};
  }
};
TYPED_TEST_SUITE(CommitContract, ConformanceBackends, BackendName);

// 1. The shape check comes first: a malformed request is InvalidArgument even when its token
// would be fenced out.
TYPED_TEST(CommitContract, AMalformedRequestIsRefusedBeforeTheFence) {
  this->create({header("r1", RunStatus::kRunning)});
  CommitRequest c;
  c.root_id = "r1";
  c.fencing_token = 424242;  // no lease carries it
  c.headers = {header("r1", RunStatus::kCompleted)};
  c.steps = {{"", 0, "a step of no run"}};
  Status s = this->db().commit(c);
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument) << s.to_string();
  EXPECT_EQ(this->load("r1").headers[0].status, RunStatus::kRunning);
}

// A step or a trace event past what a stored run may hold (reactor/limits.hpp) is refused with
// the rest of its commit, which a read would otherwise find corrupt.
TYPED_TEST(CommitContract, ARowPastTheLimitsOfAStoredRunIsRefused) {
  this->create({header("r1", RunStatus::kRunning)});
  for (int past : {0, 1}) {
    CommitRequest c;
    c.root_id = "r1";
    c.headers = {header("r1", RunStatus::kCompleted)};
    if (past == 0) c.steps = {{"r1", static_cast<std::uint32_t>(kMaxRunSteps), "{}"}};
    if (past == 1) c.trace = {{"r1", kMaxTraceEvents, "{}"}};
    Status s = this->db().commit(c);
    EXPECT_EQ(s.code(), StatusCode::kInvalidArgument) << s.to_string();
    EXPECT_NE(s.message().find(past == 0 ? "10000 steps" : "1000000 events"), std::string::npos)
        << s.to_string();
    StoredRun run = this->load("r1");
    EXPECT_EQ(run.headers[0].status, RunStatus::kRunning);
    EXPECT_TRUE(run.steps.empty());
    EXPECT_TRUE(run.trace.empty());
  }
  CommitRequest last;
  last.root_id = "r1";
  last.steps = {{"r1", static_cast<std::uint32_t>(kMaxRunSteps - 1), "{}"}};
  last.trace = {{"r1", kMaxTraceEvents - 1, "{}"}};
  ASSERT_TRUE(this->db().commit(last).ok());
  StoredRun run = this->load("r1");
  ASSERT_EQ(run.steps.size(), 1u);
  EXPECT_EQ(run.steps[0].index, kMaxRunSteps - 1);
  ASSERT_EQ(run.trace.size(), 1u);
  EXPECT_EQ(run.trace[0].seq, kMaxTraceEvents - 1);
}

// 2. The fence comes before a start's collision: a stale writer learns it lost the run, not
// that the run exists.
TYPED_TEST(CommitContract, TheFenceIsCheckedBeforeAStartsCollision) {
  this->create({header("r1", RunStatus::kRunning)});
  CommitRequest c;
  c.create = true;
  c.root_id = "r1";
  c.fencing_token = 424242;
  c.headers = {header("r1", RunStatus::kRunning)};
  c.inputs = {{"r1", "{}"}};
  Status s = this->db().commit(c);
  EXPECT_EQ(s.code(), StatusCode::kLeaseLost) << s.to_string();
  EXPECT_EQ(s.message(), storage::fenced_out("r1", 424242).message());
}

// 3. Fenced out: no ack (even by the delivery's owner) and no lease release, as no row.
TYPED_TEST(CommitContract, AFencedOutCommitNeitherAcksNorReleases) {
  auto [d, successor] = this->zombie_and_successor();
  CommitRequest c;
  c.root_id = "r1";
  c.fencing_token = d.run_lease.token;
  c.headers = {header("r1", RunStatus::kCompleted)};
  c.ack_job = d.job.id;
  c.ack_owner = "w1";  // the delivery is still w1's: only the fence keeps the job
  c.release_lease = true;
  c.lease_owner = "w1";
  Status s = this->db().commit(c);
  EXPECT_EQ(s.code(), StatusCode::kLeaseLost) << s.to_string();
  EXPECT_EQ(s.message(), storage::fenced_out("r1", d.run_lease.token).message());
  EXPECT_TRUE(this->has_job("r1"));
  Lease holder = this->acquire(run_lease_key("r1"), "w3", false);
  EXPECT_EQ(holder.owner, "w2");
  EXPECT_EQ(holder.token, successor.token);
  EXPECT_EQ(this->load("r1").headers[0].status, RunStatus::kRunning);
}

// 4. A start that collides writes nothing either: its fence was good, yet it releases nothing
// and queues nothing.
TYPED_TEST(CommitContract, AStartThatCollidesNeitherQueuesNorReleases) {
  this->create({header("r1", RunStatus::kCompleted)});
  Lease l = this->acquire(run_lease_key("r1"), "w1", true);
  CommitRequest c;
  c.create = true;
  c.root_id = "r1";
  c.fencing_token = l.token;
  c.headers = {header("r1", RunStatus::kEnqueued)};
  c.inputs = {{"r1", "{}"}};
  c.enqueue = {job("q", "r1", 0, JobKind::kStart)};
  c.release_lease = true;
  c.lease_owner = "w1";
  Status s = this->db().commit(c);
  EXPECT_EQ(s.code(), StatusCode::kAlreadyExists) << s.to_string();
  EXPECT_EQ(s.message(), storage::run_exists("r1").message());
  EXPECT_FALSE(this->has_job("r1"));
  EXPECT_EQ(this->acquire(run_lease_key("r1"), "w2", false).owner, "w1");
  EXPECT_EQ(this->load("r1").headers[0].status, RunStatus::kCompleted);
}

// 5. Past the checks, an ack by another than the delivery's owner leaves the job and the commit
// is applied; the lease is released only for its holder (and the commit applied either way).
TYPED_TEST(CommitContract, PastTheChecksTheAckAndTheReleaseAreTheirOwnersOnly) {
  this->create({header("r1", RunStatus::kEnqueued)}, {job("q", "r1", 0, JobKind::kStart)});
  std::optional<Delivery> d = this->fetch({"q"}, "w1");
  ASSERT_TRUE(d && d->run_leased);
  CommitRequest c;
  c.root_id = "r1";
  c.fencing_token = d->run_lease.token;
  c.headers = {header("r1", RunStatus::kRunning)};
  c.steps = {{"r1", 0, "done"}};
  c.ack_job = d->job.id;
  c.ack_owner = "not-w1";
  c.release_lease = true;
  c.lease_owner = "not-w1";
  this->commit_ok(c);
  EXPECT_EQ(this->load("r1").steps.size(), 1u);
  EXPECT_TRUE(this->has_job("r1"));
  this->acquire(run_lease_key("r1"), "w2", false);
  c.ack_owner = "w1";
  c.lease_owner = "w1";
  this->commit_ok(c);
  EXPECT_FALSE(this->has_job("r1"));
  this->acquire(run_lease_key("r1"), "w2", true);
}

// The lease call's refusal is the table's too.
TYPED_TEST(CommitContract, ALeaseNoLongerHeldIsRefusedWithTheTablesText) {
  Lease l = this->acquire("sweeper:1", "s1", true);
  ASSERT_TRUE(this->db().release_lease("sweeper:1", "s1", l.token).ok());
  Status s = this->db().extend_lease("sweeper:1", "s1", l.token, 10s);
  EXPECT_EQ(s.code(), StatusCode::kLeaseLost) << s.to_string();
  EXPECT_EQ(s.message(), storage::lease_not_held("sweeper:1", "s1", l.token).message());
}

}  // namespace
}  // namespace reactor::conformance
