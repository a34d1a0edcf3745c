// HoldStore (hold_store.hpp): locks, semaphores, rate windows, period marks and ordered chains,
// judged by the store — the same rules on every backend.
#include "conformance/conformance_support.hpp"
#include "support/result_testing.hpp"

namespace reactor::conformance {
namespace {

template <typename Factory>
class HoldConformance : public BackendConformance<Factory> {
 protected:
  // A root run `id`, filed `status`, holding its run lease (when `live`): a holder as a worker
  // executing it would be.
  Lease run(const std::string& id, RunStatus status = RunStatus::kRunning, bool live = true,
            Duration ttl = BackendConformance<Factory>::kLeaseTtl) {
    this->create({header(id, status, "", "", this->now_ms())});
    return live ? this->acquire(run_lease_key(id), "w-" + id, true, ttl) : Lease{};
  }

  static HoldClaim lock(const std::string& key, const std::string& claim) {
    return HoldClaim{HoldKind::kLock, key, 1, claim};
  }
  static HoldClaim sem(const std::string& key, int limit, const std::string& claim) {
    return HoldClaim{HoldKind::kSemaphore, key, limit, claim};
  }

  TakeResult take(TakeRequest r) {
    TakeResult out;
    Status s = assign_or_status(out, this->db().take_holds(r));
    EXPECT_TRUE(s.ok()) << s.to_string();
    return out;
  }
  TakeResult take_holds(const std::string& holder, std::vector<HoldClaim> holds) {
    TakeRequest r;
    r.holder = holder;
    r.holds = std::move(holds);
    return take(std::move(r));
  }

  CoordinationView view() {
    CoordinationView v;
    Status s = assign_or_status(v, this->db().coordination());
    EXPECT_TRUE(s.ok()) << s.to_string();
    return v;
  }
  std::vector<std::string> holders_of(const std::string& key) {
    for (const HoldRow& row : view().holds) {
      if (row.key == key) return row.holders;
    }
    return {};
  }

  // A fenced commit of `lease`'s run carrying only coordination.
  void commit_holds(const Lease& lease, CommitRequest c) {
    c.root_id = lease.key.substr(4);
    c.fencing_token = lease.token;
    this->commit_ok(c);
  }

  OrderedChainRow chain(Result<OrderedChainRow> r) {
    EXPECT_TRUE(r.ok()) << r.status().to_string();
    return r.ok() ? *r : OrderedChainRow{};
  }
};
TYPED_TEST_SUITE(HoldConformance, ConformanceBackends, BackendName);

TYPED_TEST(HoldConformance, ALockIsTheRootsReenteredByItAndRefusedToOthers) {
  this->run("A");
  this->run("B");
  EXPECT_EQ(this->take_holds("A", {this->lock("acct-1", "A")}).outcome, TakeOutcome::kTaken);
  // Its composed child (claim under the same root) re-enters it.
  EXPECT_EQ(this->take_holds("A", {this->lock("acct-1", "A/child/debit")}).outcome,
            TakeOutcome::kTaken);
  TakeResult b = this->take_holds("B", {this->lock("acct-1", "B")});
  EXPECT_EQ(b.outcome, TakeOutcome::kHeld);
  EXPECT_EQ(b.key, "acct-1");
  EXPECT_EQ(b.holder, "A");
  EXPECT_EQ(this->holders_of("acct-1"), std::vector<std::string>{"A"});
}

TYPED_TEST(HoldConformance, ATakeIsAllOrNothing) {
  this->run("A");
  this->run("B");
  this->run("C");
  ASSERT_EQ(this->take_holds("A", {this->lock("k1", "A")}).outcome, TakeOutcome::kTaken);
  EXPECT_EQ(this->take_holds("B", {this->lock("k0", "B"), this->lock("k1", "B")}).outcome,
            TakeOutcome::kHeld);
  // B took nothing: k0 is free for C.
  EXPECT_EQ(this->take_holds("C", {this->lock("k0", "C")}).outcome, TakeOutcome::kTaken);
}

TYPED_TEST(HoldConformance, ACommitReleasesTheClaimsUnderItsName) {
  Lease a = this->run("A");
  this->run("B");
  ASSERT_EQ(this->take_holds("A", {this->lock("outer", "A")}).outcome, TakeOutcome::kTaken);
  ASSERT_EQ(this->take_holds("A", {this->lock("inner", "A/debit")}).outcome, TakeOutcome::kTaken);
  CommitRequest step_done;
  step_done.release_holds.push_back(HoldRelease{"A", "A/debit"});
  this->commit_holds(a, step_done);
  EXPECT_EQ(this->take_holds("B", {this->lock("inner", "B")}).outcome, TakeOutcome::kTaken);
  EXPECT_EQ(this->take_holds("B", {this->lock("outer", "B")}).outcome, TakeOutcome::kHeld);
  CommitRequest run_done;
  run_done.release_holds.push_back(HoldRelease{"A", "A"});
  this->commit_holds(a, run_done);
  EXPECT_EQ(this->take_holds("B", {this->lock("outer", "B")}).outcome, TakeOutcome::kTaken);
}

TYPED_TEST(HoldConformance, AZombieTakesNothing) {
  Lease a = this->run("A", RunStatus::kRunning, true, this->kShortTtl);
  this->advance_to(a.expires_at_ms);
  Lease taken_over = this->acquire(run_lease_key("A"), "w2", true);
  TakeRequest r;
  r.holder = "A";
  r.fence_run = "A";
  r.fencing_token = a.token;
  r.holds = {this->lock("k", "A")};
  EXPECT_EQ(this->db().take_holds(r).status().code(), StatusCode::kLeaseLost);
  r.fencing_token = taken_over.token;
  EXPECT_EQ(this->take(r).outcome, TakeOutcome::kTaken);
}

TYPED_TEST(HoldConformance, AHolderWhoseLeaseLapsesGivesItsHoldsBack) {
  Lease a = this->run("A", RunStatus::kRunning, true, this->kShortTtl);
  this->run("B");
  ASSERT_EQ(this->take_holds("A", {this->lock("k", "A")}).outcome, TakeOutcome::kTaken);
  EXPECT_EQ(this->take_holds("B", {this->lock("k", "B")}).outcome, TakeOutcome::kHeld);
  this->advance_to(a.expires_at_ms);
  EXPECT_TRUE(this->holders_of("k").empty());
  EXPECT_EQ(this->take_holds("B", {this->lock("k", "B")}).outcome, TakeOutcome::kTaken);
}

TYPED_TEST(HoldConformance, AHolderWaitingWithoutALeaseKeepsItsHolds) {
  this->run("P", RunStatus::kWaiting, /*live=*/false);  // parked on an async unit
  this->run("B");
  ASSERT_EQ(this->take_holds("P", {this->lock("k", "P")}).outcome, TakeOutcome::kTaken);
  EXPECT_EQ(this->take_holds("B", {this->lock("k", "B")}).outcome, TakeOutcome::kHeld);
  // Paused at an interrupt, it holds nothing.
  this->create({header("P", RunStatus::kPaused)});
  EXPECT_EQ(this->take_holds("B", {this->lock("k", "B")}).outcome, TakeOutcome::kTaken);
}

TYPED_TEST(HoldConformance, ASemaphoreNeverGoesAboveItsLimitNorLosesAToken) {
  Lease a = this->run("A", RunStatus::kRunning, true, this->kShortTtl);
  this->run("B");
  this->run("C");
  EXPECT_EQ(this->take_holds("A", {this->sem("api", 2, "A")}).outcome, TakeOutcome::kTaken);
  EXPECT_EQ(this->take_holds("B", {this->sem("api", 2, "B")}).outcome, TakeOutcome::kTaken);
  EXPECT_EQ(this->take_holds("A", {this->sem("api", 2, "A/again")}).outcome, TakeOutcome::kTaken);
  EXPECT_EQ(this->take_holds("C", {this->sem("api", 2, "C")}).outcome, TakeOutcome::kHeld);
  this->advance_to(a.expires_at_ms);  // A died: its token comes back
  EXPECT_EQ(this->take_holds("C", {this->sem("api", 2, "C")}).outcome, TakeOutcome::kTaken);
  std::vector<std::string> held = this->holders_of("api");
  std::sort(held.begin(), held.end());
  EXPECT_EQ(held, (std::vector<std::string>{"B", "C"}));
}

TYPED_TEST(HoldConformance, RateWindowsAreAllCheckedThenAllCounted) {
  this->run("A");
  auto charge = [&](const std::string& id, int day_limit) {
    TakeRequest r;
    r.holder = "A";
    r.charge_id = id;
    r.rates = {RateCharge{"bank", 3'600'000, 2}, RateCharge{"bank", 86'400'000, day_limit}};
    return this->take(r);
  };
  EXPECT_EQ(charge("c1", 10).outcome, TakeOutcome::kTaken);
  EXPECT_EQ(charge("c1", 10).outcome, TakeOutcome::kTaken);  // the same execution: counted once
  EXPECT_EQ(charge("c2", 10).outcome, TakeOutcome::kTaken);
  TakeResult refused = charge("c3", 10);
  EXPECT_EQ(refused.outcome, TakeOutcome::kRateLimited);
  EXPECT_EQ(refused.key, "bank");
  EXPECT_GT(refused.retry_after_ms, 0);
  EXPECT_LE(refused.retry_after_ms, 3'600'000);
  // The refused charge counted in neither window.
  for (const RateWindowRow& w : this->view().rate_windows) {
    EXPECT_EQ(w.count, 2) << w.key << " " << w.window_ms;
  }
  EXPECT_EQ(this->view().rate_windows.size(), 2u);
}

TYPED_TEST(HoldConformance, AFullWindowOpensWhenItsBucketEnds) {
  this->run("A");
  auto charge = [&](const std::string& id) {
    TakeRequest r;
    r.holder = "A";
    r.charge_id = id;
    r.rates = {RateCharge{"tick", 1000, 1}};
    return this->take(r);
  };
  ASSERT_EQ(charge("c1").outcome, TakeOutcome::kTaken);
  TakeResult refused = charge("c2");
  ASSERT_EQ(refused.outcome, TakeOutcome::kRateLimited);
  this->advance(std::chrono::milliseconds(refused.retry_after_ms));
  EXPECT_EQ(charge("c2").outcome, TakeOutcome::kTaken);
}

TYPED_TEST(HoldConformance, APeriodMarkedByTheCompletingCommitStopsOtherRuns) {
  Lease a = this->run("A");
  this->run("B");
  TakeRequest r;
  r.holder = "B";
  r.periods = {"Report@2026-12-04"};
  EXPECT_EQ(this->take(r).outcome, TakeOutcome::kTaken);  // nobody completed it yet
  CommitRequest done;
  done.period_marks.push_back(PeriodMark{"Report@2026-12-04", "A"});
  this->commit_holds(a, done);
  TakeResult b = this->take(r);
  EXPECT_EQ(b.outcome, TakeOutcome::kPeriodDone);
  EXPECT_EQ(b.key, "Report@2026-12-04");
  EXPECT_EQ(b.holder, "A");
  r.holder = "A";  // its own mark does not stop the run that set it
  EXPECT_EQ(this->take(r).outcome, TakeOutcome::kTaken);
  ASSERT_EQ(this->view().periods.size(), 1u);
  EXPECT_EQ(this->view().periods[0].run_id, "A");
}

TYPED_TEST(HoldConformance, AnOrderedChainLetsRunsGoInTheOrderTheyJoined) {
  CommitRequest start;
  for (const char* id : {"r1", "r2", "r3"}) {
    start.headers.push_back(header(id, RunStatus::kEnqueued, "", "", this->now_ms()));
    start.ordered_joins.push_back(OrderedJoin{"cust-7", id});
  }
  start.ordered_joins.push_back(OrderedJoin{"cust-7", "r1"});  // joins once
  this->commit_ok(start);
  auto gate = [&](const std::string& id) {
    TakeRequest r;
    r.holder = id;
    r.ordered = {OrderedGate{"cust-7", id, 600'000, true}};
    return this->take(r);
  };
  TakeResult r2 = gate("r2");
  EXPECT_EQ(r2.outcome, TakeOutcome::kOrderedWait);
  EXPECT_EQ(r2.holder, "r1");
  EXPECT_EQ(gate("r1").outcome, TakeOutcome::kTaken);
  this->create({header("r1", RunStatus::kCompleted)});
  EXPECT_EQ(gate("r2").outcome, TakeOutcome::kTaken);
  EXPECT_EQ(gate("r3").outcome, TakeOutcome::kOrderedWait);
  // Strict: r2 failed, so r3 halts until the chain is reset.
  this->create({header("r2", RunStatus::kFailed)});
  TakeResult r3 = gate("r3");
  EXPECT_EQ(r3.outcome, TakeOutcome::kOrderedChainFailed);
  EXPECT_EQ(r3.holder, "r2");
  OrderedChainRow peek = this->chain(this->db().ordered_peek("cust-7"));
  EXPECT_TRUE(peek.failed);
  EXPECT_EQ(peek.next_seq, 4);
  ASSERT_EQ(peek.members.size(), 1u);
  EXPECT_EQ(peek.members[0].run_id, "r3");
  OrderedChainRow reset = this->chain(this->db().ordered_reset("cust-7"));
  EXPECT_FALSE(reset.failed);
  EXPECT_TRUE(reset.members.empty());
  EXPECT_EQ(gate("r3").outcome, TakeOutcome::kTaken);
  EXPECT_EQ(this->db().ordered_peek("nope").status().code(), StatusCode::kNotFound);
}

TYPED_TEST(HoldConformance, AStaleHeadIsSkippedAfterThePoisonPillTimeout) {
  CommitRequest start;
  for (const char* id : {"r1", "r2"}) {
    start.headers.push_back(header(id, RunStatus::kRunning, "", "", this->now_ms()));
    start.ordered_joins.push_back(OrderedJoin{"k", id});
  }
  this->commit_ok(start);
  auto gate = [&] {
    TakeRequest r;
    r.holder = "r2";
    r.ordered = {OrderedGate{"k", "r2", 1000, true}};
    return this->take(r);
  };
  EXPECT_EQ(gate().outcome, TakeOutcome::kOrderedWait);
  this->advance(std::chrono::milliseconds(1200));  // r1: no lease, not seen for 1.2 s
  TakeResult r = gate();
  EXPECT_EQ(r.outcome, TakeOutcome::kTaken);
  EXPECT_EQ(r.skipped, std::vector<std::string>{"r1"});
}

TYPED_TEST(HoldConformance, AnOperatorSkipsAChainsHead) {
  CommitRequest start;
  for (const char* id : {"r1", "r2"}) {
    start.headers.push_back(header(id, RunStatus::kRunning, "", "", this->now_ms()));
    start.ordered_joins.push_back(OrderedJoin{"k", id});
  }
  this->commit_ok(start);
  OrderedChainRow after = this->chain(this->db().ordered_skip("k"));
  ASSERT_EQ(after.members.size(), 1u);
  EXPECT_EQ(after.members[0].run_id, "r2");
  TakeRequest r;
  r.holder = "r2";
  r.ordered = {OrderedGate{"k", "r2", 600'000, true}};
  EXPECT_EQ(this->take(r).outcome, TakeOutcome::kTaken);
  ASSERT_EQ(this->view().ordered.size(), 1u);
  EXPECT_EQ(this->view().ordered[0].key, "k");
}

}  // namespace
}  // namespace reactor::conformance
