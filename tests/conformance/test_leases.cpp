// Leases: acquire, contend, expire, extend, release; tokens only grow.
#include "conformance/conformance_support.hpp"
#include "durability/presence.hpp"
#include "support/result_testing.hpp"

namespace reactor::conformance {
namespace {

template <typename Factory>
class LeaseConformance : public BackendConformance<Factory> {};
TYPED_TEST_SUITE(LeaseConformance, ConformanceBackends, BackendName);

TYPED_TEST(LeaseConformance, AcquireContendExpireReacquire) {
  const std::int64_t ttl = this->ms(this->kShortTtl);
  const std::int64_t before = this->now_ms();
  Lease a = this->acquire("k", "A", true, this->kShortTtl);
  const std::int64_t after = this->now_ms();
  EXPECT_EQ(a.key, "k");
  EXPECT_EQ(a.owner, "A");
  EXPECT_GT(a.token, 0u);
  // now + ttl, by the store's clock at the grant.
  EXPECT_GE(a.expires_at_ms, before + ttl);
  EXPECT_LE(a.expires_at_ms, after + ttl);

  // Held: not granted, and the answer names the holder.
  Lease seen = this->acquire("k", "B", false);
  EXPECT_EQ(seen.owner, "A");
  EXPECT_EQ(seen.token, a.token);
  EXPECT_EQ(seen.expires_at_ms, a.expires_at_ms);
  // A live lease is not re-granted, not even to its holder (owners are per execution).
  EXPECT_EQ(this->acquire("k", "A", false).token, a.token);

  this->advance_to(a.expires_at_ms - this->ms(this->kMargin));
  this->acquire("k", "B", false);
  this->advance_to(a.expires_at_ms);  // expires_at is the first instant the lease is free
  Lease b = this->acquire("k", "B", true);
  EXPECT_GT(b.token, a.token);
  EXPECT_EQ(b.owner, "B");

  // One counter for every key: a token is never handed out twice.
  Lease other = this->acquire("other", "A", true);
  EXPECT_GT(other.token, b.token);
}

TYPED_TEST(LeaseConformance, ExtendByHolderOnly) {
  const std::int64_t ttl = this->ms(this->kShortTtl);
  Lease a = this->acquire("k", "A", true, this->kShortTtl);
  this->advance_to(a.expires_at_ms - this->ms(this->kMargin));  // late in the lease
  const std::int64_t before = this->now_ms();
  ASSERT_TRUE(this->db().extend_lease("k", "A", a.token, this->kShortTtl).ok());
  const std::int64_t after = this->now_ms();
  // Past the original expiry, inside the extended one (which is now + ttl at the extension).
  this->advance_to(a.expires_at_ms + this->ms(this->kMargin));
  Lease seen = this->acquire("k", "B", false);
  EXPECT_GE(seen.expires_at_ms, before + ttl);
  EXPECT_LE(seen.expires_at_ms, after + ttl);

  EXPECT_EQ(this->db().extend_lease("k", "B", a.token, 10s).code(), StatusCode::kLeaseLost);
  EXPECT_EQ(this->db().extend_lease("k", "A", a.token + 1, 10s).code(), StatusCode::kLeaseLost);
  EXPECT_EQ(this->db().extend_lease("nope", "A", a.token, 10s).code(), StatusCode::kLeaseLost);

  this->advance_to(seen.expires_at_ms);
  Lease b = this->acquire("k", "B", true);
  EXPECT_EQ(this->db().extend_lease("k", "A", a.token, 10s).code(), StatusCode::kLeaseLost);
  EXPECT_TRUE(this->db().extend_lease("k", "B", b.token, 10s).ok());
}

TYPED_TEST(LeaseConformance, ReleaseByHolderFreesTheKey) {
  this->create({header("r1", RunStatus::kRunning)});
  const std::string key = run_lease_key("r1");
  Lease a = this->acquire(key, "A", true);

  ASSERT_TRUE(this->db().release_lease(key, "B", a.token).ok());  // not B's: no-op
  this->acquire(key, "C", false);
  ASSERT_TRUE(this->db().release_lease(key, "A", a.token + 1).ok());  // stale token: no-op
  this->acquire(key, "C", false);

  ASSERT_TRUE(this->db().release_lease(key, "A", a.token).ok());
  EXPECT_EQ(this->load("r1").fencing_token, a.token);  // the newest token survives release
  EXPECT_EQ(this->db().extend_lease(key, "A", a.token, 10s).code(), StatusCode::kLeaseLost);
  Lease c = this->acquire(key, "C", true);
  EXPECT_GT(c.token, a.token);

  // A late release by the previous holder does not touch the new one.
  ASSERT_TRUE(this->db().release_lease(key, "A", a.token).ok());
  EXPECT_EQ(this->acquire(key, "D", false).owner, "C");
  EXPECT_EQ(this->load("r1").fencing_token, c.token);
}

// peek_lease shows a live lease as it stands and takes nothing; a free, released or expired
// one shows no owner (by the store's clock), and a run's lease is peeked like any other.
TYPED_TEST(LeaseConformance, PeekShowsTheLiveHolderAndTakesNothing) {
  Lease seen;
  ASSERT_OK_AND_ASSIGN(seen, this->db().peek_lease("k"));
  EXPECT_EQ(seen.owner, "");
  Lease a = this->acquire("k", "A", true, this->kShortTtl);
  ASSERT_OK_AND_ASSIGN(seen, this->db().peek_lease("k"));
  EXPECT_EQ(seen.owner, "A");
  EXPECT_EQ(seen.token, a.token);
  EXPECT_EQ(seen.expires_at_ms, a.expires_at_ms);
  this->acquire("k", "B", false);  // peeking took nothing from its holder
  this->advance_to(a.expires_at_ms);
  ASSERT_OK_AND_ASSIGN(seen, this->db().peek_lease("k"));
  EXPECT_EQ(seen.owner, "");
  Lease b = this->acquire("k", "B", true);
  ASSERT_TRUE(this->db().release_lease("k", "B", b.token).ok());
  ASSERT_OK_AND_ASSIGN(seen, this->db().peek_lease("k"));
  EXPECT_EQ(seen.owner, "");

  this->create({header("r1", RunStatus::kRunning)});
  Lease run = this->acquire(run_lease_key("r1"), "W", true);
  ASSERT_OK_AND_ASSIGN(seen, this->db().peek_lease(run_lease_key("r1")));
  EXPECT_EQ(seen.owner, "W");
  EXPECT_EQ(seen.token, run.token);
}

// Presence (durability/presence.hpp): the workers serving a queue keep one lease on it between
// them; a caller sees the queue served while one does, and not once the last lets go.
TYPED_TEST(LeaseConformance, APresenceLeaseShowsWhetherAWorkerServesAQueue) {
  EXPECT_FALSE(queue_is_served(this->db(), "q"));
  PresenceKeeper first(this->db(), {"q", "r"}, "w1", this->kLeaseTtl);
  PresenceKeeper second(this->db(), {"q"}, "w2", this->kLeaseTtl);
  first.renew();
  second.renew();  // finds it held: leaves it to the first
  EXPECT_TRUE(queue_is_served(this->db(), "q"));
  EXPECT_TRUE(queue_is_served(this->db(), "r"));
  EXPECT_FALSE(queue_is_served(this->db(), "s"));
  first.renew();  // extends its own
  first.release();
  EXPECT_FALSE(queue_is_served(this->db(), "q"));
  second.renew();  // takes it over
  EXPECT_TRUE(queue_is_served(this->db(), "q"));
  EXPECT_FALSE(queue_is_served(this->db(), "r"));
  second.release();
  EXPECT_FALSE(queue_is_served(this->db(), "q"));
}

// seize_lease (an operator's cancel) takes a lease whoever holds it, with a new token: the
// holder's fenced commits and extensions are refused from then on, and the seizer's go through.
TYPED_TEST(LeaseConformance, SeizeTakesAHeldLeaseWithANewToken) {
  this->create({header("r1", RunStatus::kRunning)});
  const std::string key = run_lease_key("r1");
  Lease held = this->acquire(key, "W", true);
  Lease seized;
  ASSERT_OK_AND_ASSIGN(seized, this->db().seize_lease(key, "op", this->kLeaseTtl));
  EXPECT_EQ(seized.key, key);
  EXPECT_EQ(seized.owner, "op");
  EXPECT_GT(seized.token, held.token);
  EXPECT_GT(seized.expires_at_ms, this->now_ms());
  Lease seen;
  ASSERT_OK_AND_ASSIGN(seen, this->db().peek_lease(key));
  EXPECT_EQ(seen.owner, "op");
  EXPECT_EQ(seen.token, seized.token);
  this->acquire(key, "X", false);  // live: nobody else acquires it

  CommitRequest c;
  c.root_id = "r1";
  c.fencing_token = held.token;
  c.lease_owner = "W";
  c.steps = {{"r1", 0, "zombie"}};
  EXPECT_EQ(this->db().commit(c).code(), StatusCode::kLeaseLost);
  EXPECT_EQ(this->db().extend_lease(key, "W", held.token, 10s).code(), StatusCode::kLeaseLost);
  EXPECT_TRUE(this->load("r1").steps.empty());

  c.fencing_token = seized.token;
  c.lease_owner = "op";
  c.steps = {{"r1", 0, "the seizer's"}};
  c.release_lease = true;
  this->commit_ok(c);
  EXPECT_EQ(this->load("r1").steps.size(), 1u);
  EXPECT_EQ(this->load("r1").fencing_token, seized.token);
  // Released: free for the next taker, with a newer token still.
  EXPECT_GT(this->acquire(key, "X", true).token, seized.token);

  // A free key (never taken) is seized like a held one; tokens share the one counter.
  Lease fresh;
  ASSERT_OK_AND_ASSIGN(fresh, this->db().seize_lease("free", "op", this->kLeaseTtl));
  EXPECT_GT(fresh.token, seized.token);
  Lease out;
  EXPECT_EQ(assign_or_status(out, this->db().seize_lease("", "op", 1s)).code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(assign_or_status(out, this->db().seize_lease("k", "", 1s)).code(),
            StatusCode::kInvalidArgument);
}

TYPED_TEST(LeaseConformance, EmptyKeyOrOwnerIsInvalid) {
  bool granted = true;
  Lease out;
  EXPECT_EQ(assign_or_status(granted, out, this->db().acquire_lease("", "A", 1s)).code(),
            StatusCode::kInvalidArgument);
  EXPECT_EQ(assign_or_status(granted, out, this->db().acquire_lease("k", "", 1s)).code(),
            StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace reactor::conformance
