// The Redis backend on a Redis Cluster: a one-node cluster of the test's own, holding every slot
// (tests/support/redis_server.sh start --cluster), and a store under a prefix with a hash tag,
// `{t}:`. On a cluster, Redis 7 refuses a script that touches a key of another slot than the
// keys it declared ("Script attempted to access keys that do not hash to the same slot") and a
// call whose declared keys are of several slots (CROSSSLOT): so every operation below passes
// only if each script declares its keys in KEYS and every key it derives shares their tag.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "conformance/conformance_support.hpp"
#include "conformance/redis_test_server.hpp"
#include "support/result_testing.hpp"

namespace reactor::conformance {
namespace {

class RedisClusterTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(server_.run("start", "--cluster")) << "could not start a cluster redis-server";
    RawRedis raw(server_.url());
    ASSERT_EQ(raw.error(), "");
    ASSERT_NE(reply_text(raw.command({"CLUSTER", "INFO"})).find("cluster_state:ok"),
              std::string::npos);
  }

  // A backend over the cluster whose keys all start with `prefix` (percent-encoded in the URL).
  std::unique_ptr<Backend> open(const std::string& encoded_prefix) {
    std::unique_ptr<Backend> db;
    Status s = assign_or_status(
        db, open_backend(with_url_option(server_.url(), "prefix", encoded_prefix), nullptr));
    EXPECT_TRUE(s.ok()) << s.to_string();
    return db;
  }

  PrivateRedis server_;
};

CommitRequest start(const std::vector<std::string>& ids) {
  CommitRequest c;
  c.create = true;
  for (const auto& id : ids) {
    c.headers.push_back(header(id, RunStatus::kEnqueued));
    c.inputs.push_back({id, R"({"order_id":1})"});
    c.enqueue.push_back(job("q", id, 0, JobKind::kStart));
  }
  return c;
}

// Every script of the backend, each at least once, on one store under `{t}:`.
TEST_F(RedisClusterTest, EveryOperationRunsUnderAPrefixWithAHashTag) {
  std::unique_ptr<Backend> db = open("%7Bt%7D:");  // {t}:, through init
  ASSERT_TRUE(db);
  ASSERT_TRUE(db->commit(start({"r1", "r2", "r3"})).ok());  // create_runs, several roots
  std::optional<Delivery> d;
  ASSERT_TRUE(assign_or_status(d, db->fetch({{"q"}, "w1", 30s, 10s})).ok());  // fetch
  ASSERT_TRUE(d && d->run_leased && d->run);
  const std::string root = d->job.spec.run_id;

  CommitRequest step;  // step_commit
  step.root_id = root;
  step.fencing_token = d->run_lease.token;
  step.headers = {header(root, RunStatus::kRunning)};
  step.steps = {{root, 0, "done"}};
  step.trace = {{root, 0, "ran"}};
  Status s = db->commit(step);
  ASSERT_TRUE(s.ok()) << s.to_string();

  // commit (the general one): a child run, a follow-up job, a fan-out map and its elements.
  CommitRequest general;
  general.root_id = root;
  general.fencing_token = d->run_lease.token;
  general.headers = {header(root, RunStatus::kWaiting),
                     header(root + "/c", RunStatus::kRunning, root)};
  general.inputs = {{root + "/c", "{}"}};
  general.enqueue = {job("q2", root, 0)};
  MapRow map;
  map.map_id = root + ":m";
  map.owner_id = root;
  map.owner_reactor = "OrderSaga";
  map.queue = "q3";
  map.element_reactor = "Element";
  map.total = 1;
  map.batch_size = 1;
  map.released = 1;
  general.maps = {map};
  const std::string element = element_run_id(map.map_id, 0);
  general.headers.push_back(header(element, RunStatus::kEnqueued, root, element));
  general.enqueue.push_back(job("q3", element, 0, JobKind::kStart));
  s = db->commit(general);
  ASSERT_TRUE(s.ok()) << s.to_string();

  // The element's report settles the map: the settle in commit_then_fetch, then a fetch.
  std::optional<Delivery> e;
  ASSERT_TRUE(assign_or_status(e, db->fetch({{"q3"}, "w2", 30s, 10s})).ok());
  ASSERT_TRUE(e && e->run_leased);
  CommitRequest report;
  report.root_id = element;
  report.fencing_token = e->run_lease.token;
  report.headers = {header(element, RunStatus::kCompleted, root, element)};
  report.settle = MapSettle{MapSlotRow{map.map_id, 0, SlotState::kCompleted, "1"}};
  report.ack_job = e->job.id;
  report.ack_owner = "w2";
  std::optional<Delivery> next;
  s = assign_or_status(next, db->commit_then_fetch(report, {{"q3"}, "w2", 30s, 10s}));
  ASSERT_TRUE(s.ok()) << s.to_string();
  MapRow loaded;
  ASSERT_TRUE(assign_or_status(loaded, db->load_map(map.map_id)).ok());
  EXPECT_EQ(loaded.state, MapState::kSettled);
  std::vector<MapSlotRow> slots;
  ASSERT_TRUE(assign_or_status(slots, db->load_map_slots(map.map_id, 0, 10)).ok());
  EXPECT_EQ(slots.size(), 1u);
  bool settled = false;
  ASSERT_TRUE(assign_or_status(settled, db->wait_for_settle(map.map_id, 10ms)).ok());
  EXPECT_TRUE(settled);

  // The root ends: finish_commit_then_fetch (the ack, the release, the next fetch).
  CommitRequest last;
  last.root_id = root;
  last.fencing_token = d->run_lease.token;
  last.headers = {header(root, RunStatus::kCompleted, "", "", 1, 1)};
  last.steps = {{root, 1, "done"}};
  last.ack_job = d->job.id;
  last.ack_owner = "w1";
  last.release_lease = true;
  last.lease_owner = "w1";
  s = assign_or_status(next, db->commit_then_fetch(last, {{"q"}, "w1", 30s, 10s}));
  ASSERT_TRUE(s.ok()) << s.to_string();
  ASSERT_TRUE(next && next->run_leased);

  // finish_commit alone, of that next run.
  CommitRequest finish = last;
  finish.root_id = next->job.spec.run_id;
  finish.fencing_token = next->run_lease.token;
  finish.headers = {header(finish.root_id, RunStatus::kCompleted)};
  finish.steps = {{finish.root_id, 0, "done"}};
  finish.ack_job = next->job.id;
  s = db->commit(finish);
  ASSERT_TRUE(s.ok()) << s.to_string();

  // release_job, and the leases, a run's and another's.
  ASSERT_TRUE(assign_or_status(d, db->fetch({{"q"}, "w3", 30s, 10s})).ok());
  ASSERT_TRUE(d);
  ASSERT_TRUE(db->release_job(d->job.id, "w3", 0ms).ok());
  bool has = false;
  ASSERT_TRUE(assign_or_status(has, db->has_job(d->job.spec.run_id)).ok());
  EXPECT_TRUE(has);
  for (const std::string& key : std::vector<std::string>{"sweeper:1", "run:" + root}) {
    bool granted = false;
    Lease lease;
    ASSERT_TRUE(assign_or_status(granted, lease, db->acquire_lease(key, "s", 10s)).ok()) << key;
    EXPECT_TRUE(granted) << key;
    ASSERT_TRUE(db->extend_lease(key, "s", lease.token, 10s).ok()) << key;
    Lease peeked;
    ASSERT_TRUE(assign_or_status(peeked, db->peek_lease(key)).ok()) << key;
    EXPECT_EQ(peeked.owner, "s") << key;
    ASSERT_TRUE(db->release_lease(key, "s", lease.token).ok()) << key;
  }

  // The reads, the sweep and the purge.
  StoredRun run;
  ASSERT_TRUE(assign_or_status(run, db->load_run(root)).ok());
  EXPECT_EQ(run.headers.size(), 2u);  // the root and its child
  RunHeaderRow h;
  ASSERT_TRUE(assign_or_status(h, db->load_header(root + "/c")).ok());
  std::vector<RunHeaderRow> rows;
  ASSERT_TRUE(assign_or_status(rows, db->list_runs({})).ok());
  EXPECT_EQ(rows.size(), 3u);
  std::size_t counted = 0;
  ASSERT_TRUE(assign_or_status(counted, db->count_runs({})).ok());
  EXPECT_EQ(counted, 3u);
  ASSERT_TRUE(assign_or_status(rows, db->find_orphans(100)).ok());
  std::size_t purged = 0;
  ASSERT_TRUE(assign_or_status(purged, db->purge_expired(100)).ok());
  EXPECT_EQ(purged, 1u);  // the root with a retention, and its tree
  EXPECT_EQ(assign_or_status(loaded, db->load_map(map.map_id)).code(), StatusCode::kNotFound);
  ASSERT_TRUE(assign_or_status(d, db->wait_then_fetch({{"q9"}, "w4", 30s, 10s}, 20ms)).ok());
  EXPECT_FALSE(d);
}

// The scripts of coordination (hold_store.hpp), each at least once, on one store under `{t}:`:
// a take that names every kind of thing, the commits that release, mark and join (the general
// commit, and commit_then_fetch), the view and an operator's calls on a chain.
TEST_F(RedisClusterTest, CoordinationRunsUnderAPrefixWithAHashTag) {
  std::unique_ptr<Backend> db = open("%7Bt%7D:");
  ASSERT_TRUE(db);
  CommitRequest begin = start({"r1", "r2"});
  begin.ordered_joins = {{"cust", "r1"}, {"cust", "r2"}};
  ASSERT_TRUE(db->commit(begin).ok());  // the general commit: a start that joins a chain
  std::optional<Delivery> d;
  ASSERT_TRUE(assign_or_status(d, db->fetch({{"q"}, "w1", 30s, 10s})).ok());
  ASSERT_TRUE(d && d->run_leased);
  const std::string root = d->job.spec.run_id;
  ASSERT_EQ(root, "r1");

  TakeRequest take;  // take_holds
  take.holder = root;
  take.fence_run = root;
  take.fencing_token = d->run_lease.token;
  take.ordered = {OrderedGate{"cust", root, 60'000, true}};
  take.periods = {"Report@1"};
  take.charge_id = root;
  take.rates = {RateCharge{"bank", 60'000, 5}};
  take.holds = {HoldClaim{HoldKind::kLock, "acct", 1, root},
                HoldClaim{HoldKind::kSemaphore, "api", 2, root + "/call"}};
  TakeResult taken;
  Status s = assign_or_status(taken, db->take_holds(take));
  ASSERT_TRUE(s.ok()) << s.to_string();
  EXPECT_EQ(taken.outcome, TakeOutcome::kTaken);

  CommitRequest step;  // a step's commit that releases its claim: the general commit
  step.root_id = root;
  step.fencing_token = d->run_lease.token;
  step.headers = {header(root, RunStatus::kRunning)};
  step.steps = {{root, 0, "done"}};
  step.release_holds = {HoldRelease{root, root + "/call"}};
  s = db->commit(step);
  ASSERT_TRUE(s.ok()) << s.to_string();

  CoordinationView view;  // coordination
  s = assign_or_status(view, db->coordination());
  ASSERT_TRUE(s.ok()) << s.to_string();
  ASSERT_EQ(view.holds.size(), 1u);
  EXPECT_EQ(view.holds[0].key, "acct");
  EXPECT_EQ(view.rate_windows.size(), 1u);
  ASSERT_EQ(view.ordered.size(), 1u);
  EXPECT_EQ(view.ordered[0].members.size(), 2u);  // a member leaves once a gate sees it ended

  CommitRequest last;  // the run ends: releases, marks its period, and fetches (commit_then_fetch)
  last.root_id = root;
  last.fencing_token = d->run_lease.token;
  last.headers = {header(root, RunStatus::kCompleted)};
  last.ack_job = d->job.id;
  last.ack_owner = "w1";
  last.release_lease = true;
  last.lease_owner = "w1";
  last.release_holds = {HoldRelease{root, root}};
  last.period_marks = {PeriodMark{"Report@1", root}};
  std::optional<Delivery> next;
  s = assign_or_status(next, db->commit_then_fetch(last, {{"q"}, "w1", 30s, 10s}));
  ASSERT_TRUE(s.ok()) << s.to_string();
  ASSERT_TRUE(next && next->job.spec.run_id == "r2");

  s = assign_or_status(view, db->coordination());
  ASSERT_TRUE(s.ok()) << s.to_string();
  EXPECT_TRUE(view.holds.empty());
  ASSERT_EQ(view.periods.size(), 1u);
  OrderedChainRow chain;  // ordered_chain
  ASSERT_TRUE(assign_or_status(chain, db->ordered_peek("cust")).ok());
  EXPECT_EQ(chain.next_seq, 3);
  ASSERT_TRUE(assign_or_status(chain, db->ordered_skip("cust")).ok());
  ASSERT_TRUE(assign_or_status(chain, db->ordered_reset("cust")).ok());
  EXPECT_TRUE(chain.members.empty());
}

// The proof has teeth: the cluster refuses a script whose declared keys are of several slots
// (an untagged prefix: `plain:` and `plain:layout_version` are), and one that touches a key of
// another slot than its declared ones, as a script deriving a key under another tag would —
// when the script has a shebang, as each of the backend's has: one without runs in Redis's
// compatibility mode, which lets it.
TEST_F(RedisClusterTest, TheClusterRefusesKeysOfAnotherSlot) {
  std::unique_ptr<Backend> db;
  Status s = assign_or_status(
      db, open_backend(with_url_option(server_.url(), "prefix", "plain:"), nullptr));
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("CROSSSLOT"), std::string::npos) << s.to_string();

  RawRedis raw(server_.url());
  ASSERT_EQ(raw.error(), "");
  const std::string touches_another_slot =
      "#!lua\nredis.call('GET', KEYS[1]); return redis.call('GET', '{u}:x')";
  RawReply r = raw.command({"EVAL", touches_another_slot, "1", "{t}:x"});
  ASSERT_TRUE(r);
  EXPECT_EQ(r->type, REDIS_REPLY_ERROR);
  EXPECT_NE(reply_text(r).find("same slot"), std::string::npos) << reply_text(r);
  r = raw.command({"EVAL", touches_another_slot, "1", "{u}:y"});
  ASSERT_TRUE(r);
  EXPECT_NE(r->type, REDIS_REPLY_ERROR) << reply_text(r);
}

}  // namespace
}  // namespace reactor::conformance
