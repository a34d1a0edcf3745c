// Commit and load: what one durable step writes, and how it reads back.
#include <algorithm>

#include "conformance/conformance_support.hpp"
#include "support/result_testing.hpp"

namespace reactor::conformance {
namespace {

template <typename Factory>
class CommitConformance : public BackendConformance<Factory> {};
TYPED_TEST_SUITE(CommitConformance, ConformanceBackends, BackendName);

TYPED_TEST(CommitConformance, RoundTripsHeadersInputsStepsAndTrace) {
  CommitRequest first;
  first.headers = {header("r1", RunStatus::kRunning), header("c1", RunStatus::kRunning, "r1")};
  first.inputs = {{"r1", R"({"order_id":1})"}, {"c1", R"({"child":true})"}};
  first.steps = {{"r1", 0, "s0"}, {"r1", 1, "s1"}, {"c1", 0, "c1-s0"}};
  first.trace = {{"r1", 0, "t0"}, {"r1", 1, "t1"}};
  this->commit_ok(first);

  // Another root's rows never show up in r1.
  CommitRequest other;
  other.headers = {header("r2", RunStatus::kRunning)};
  other.inputs = {{"r2", "{}"}};
  other.steps = {{"r2", 0, "r2-s0"}};
  other.trace = {{"r2", 0, "r2-t0"}};
  this->commit_ok(other);

  CommitRequest second;
  RunHeaderRow root = header("r1", RunStatus::kCompleted);
  root.body = R"({"value":42})";
  root.updated_at_ms = 7;
  root.expires_at_ms = 99;
  second.headers = {root, header("c0", RunStatus::kCompleted, "c1", "r1")};  // a grandchild
  second.inputs = {{"r1", R"({"order_id":"rewritten"})"}};      // inputs are written once
  second.steps = {{"r1", 1, "s1-updated"}, {"r1", 2, "s2"}};    // upserted
  second.trace = {{"r1", 1, "t1-duplicate"}, {"r1", 2, "t2"}};  // idempotent per seq
  this->commit_ok(second);

  StoredRun run = this->load("r1");
  // The root first, then its descendants (children and grandchildren) by id.
  EXPECT_EQ(dump(run), dump(root) + "\n" + dump(header("c0", RunStatus::kCompleted, "c1", "r1")) +
                           "\n" + dump(header("c1", RunStatus::kRunning, "r1")) + "\n" +
                           "inputs r1 {\"order_id\":1}\n"
                           "inputs c1 {\"child\":true}\n"
                           "step r1#0 s0\n"
                           "step r1#1 s1-updated\n"
                           "step r1#2 s2\n"
                           "step c1#0 c1-s0\n"
                           "trace r1@0 t0\n"
                           "trace r1@1 t1\n"
                           "trace r1@2 t2\n"
                           "token 0\n");

  StoredRun r2 = this->load("r2");
  ASSERT_EQ(r2.headers.size(), 1u);
  EXPECT_EQ(r2.steps.size(), 1u);
  EXPECT_EQ(r2.trace.size(), 1u);
}

TYPED_TEST(CommitConformance, LoadHeaderReadsRootsAndChildren) {
  this->create({header("r1", RunStatus::kRunning), header("c1", RunStatus::kHalted, "r1")});
  RunHeaderRow h;
  ASSERT_OK_AND_ASSIGN(h, this->db().load_header("c1"));
  EXPECT_EQ(dump(h), dump(header("c1", RunStatus::kHalted, "r1")));
  ASSERT_OK_AND_ASSIGN(h, this->db().load_header("r1"));
  EXPECT_EQ(dump(h), dump(header("r1", RunStatus::kRunning)));
}

TYPED_TEST(CommitConformance, UnknownRunsAreNotFound) {
  this->create({header("r1", RunStatus::kRunning), header("c1", RunStatus::kRunning, "r1")});
  StoredRun run;
  EXPECT_EQ(assign_or_status(run, this->db().load_run("nope")).code(), StatusCode::kNotFound);
  // load_run reads root runs; a child is read with its root.
  EXPECT_EQ(assign_or_status(run, this->db().load_run("c1")).code(), StatusCode::kNotFound);
  RunHeaderRow h;
  EXPECT_EQ(assign_or_status(h, this->db().load_header("nope")).code(), StatusCode::kNotFound);
}

TYPED_TEST(CommitConformance, StaleFencedCommitWritesNothing) {
  CommitRequest seed;
  seed.headers = {header("r1", RunStatus::kRunning)};
  seed.inputs = {{"r1", "{}"}};
  seed.steps = {{"r1", 0, "s0"}};
  seed.trace = {{"r1", 0, "t0"}};
  seed.enqueue = {job("q", "r1")};
  this->commit_ok(seed);

  // w1 takes the job and the run, then stalls past both timeouts; w2 takes over.
  auto d1 = this->fetch({"q"}, "w1", this->kShortTtl, this->kShortTtl);
  ASSERT_TRUE(d1 && d1->run_leased);
  this->advance_to(std::max(d1->job.lease_expires_ms, d1->run_lease.expires_at_ms));
  auto d2 = this->fetch({"q"}, "w2");
  ASSERT_TRUE(d2 && d2->run_leased);
  ASSERT_GT(d2->run_lease.token, d1->run_lease.token);
  const std::string before = dump(this->load("r1"));

  // The zombie's commit: every kind of write, fenced by its stale token.
  CommitRequest stale;
  stale.root_id = "r1";
  stale.fencing_token = d1->run_lease.token;
  stale.headers = {header("r1", RunStatus::kCompleted), header("r9", RunStatus::kRunning)};
  stale.inputs = {{"r9", "{}"}};
  stale.steps = {{"r1", 0, "zombie"}, {"r1", 5, "zombie"}};
  stale.trace = {{"r1", 1, "zombie"}};
  stale.enqueue = {job("q2", "r1")};
  stale.ack_job = d1->job.id;
  stale.ack_owner = "w1";
  stale.release_lease = true;
  stale.lease_owner = "w1";
  EXPECT_EQ(this->db().commit(stale).code(), StatusCode::kLeaseLost);

  EXPECT_EQ(dump(this->load("r1")), before);
  RunHeaderRow h;
  EXPECT_EQ(assign_or_status(h, this->db().load_header("r9")).code(), StatusCode::kNotFound);
  EXPECT_FALSE(this->fetch({"q2"}, "w3"));
  Lease holder = this->acquire(run_lease_key("r1"), "w3", false);
  EXPECT_EQ(holder.owner, "w2");
  EXPECT_EQ(holder.token, d2->run_lease.token);

  // The same commit fenced by the newest token goes through, all of it.
  stale.fencing_token = d2->run_lease.token;
  stale.ack_job = d2->job.id;
  stale.ack_owner = "w2";
  stale.lease_owner = "w2";
  this->commit_ok(stale);
  StoredRun after = this->load("r1");
  EXPECT_EQ(after.headers[0].status, RunStatus::kCompleted);
  EXPECT_EQ(after.steps.size(), 2u);
  EXPECT_EQ(after.trace.size(), 2u);
  ASSERT_OK_AND_ASSIGN(h, this->db().load_header("r9"));
  this->acquire(run_lease_key("r1"), "w3", true);  // released by the commit
  EXPECT_TRUE(this->fetch({"q2"}, "w4"));
}

TYPED_TEST(CommitConformance, FencedCommitWithoutLeaseIsRefused) {
  this->create({header("r1", RunStatus::kRunning)});
  CommitRequest c;
  c.root_id = "r1";
  c.fencing_token = 12345;
  c.headers = {header("r1", RunStatus::kCompleted)};
  EXPECT_EQ(this->db().commit(c).code(), StatusCode::kLeaseLost);
  EXPECT_EQ(this->load("r1").headers[0].status, RunStatus::kRunning);
}

TYPED_TEST(CommitConformance, NewestTokenFencesSuccessfully) {
  this->create({header("r1", RunStatus::kRunning)});
  Lease lease = this->acquire(run_lease_key("r1"), "w1", true, this->kShortTtl);
  EXPECT_EQ(this->load("r1").fencing_token, lease.token);

  CommitRequest c;
  c.root_id = "r1";
  c.fencing_token = lease.token;
  c.steps = {{"r1", 0, "done"}};
  this->commit_ok(c);

  // Expiry alone does not fence: until someone takes the lease over, the token is the newest.
  this->advance_to(lease.expires_at_ms);  // expired, and nobody took it over
  c.steps = {{"r1", 1, "late but unopposed"}};
  this->commit_ok(c);
  EXPECT_EQ(this->load("r1").steps.size(), 2u);

  Lease next = this->acquire(run_lease_key("r1"), "w2", true);
  c.steps = {{"r1", 2, "zombie"}};
  EXPECT_EQ(this->db().commit(c).code(), StatusCode::kLeaseLost);
  c.fencing_token = next.token;
  c.steps = {{"r1", 2, "successor"}};
  this->commit_ok(c);
  StoredRun run = this->load("r1");
  EXPECT_EQ(run.steps.back().body, "successor");
  EXPECT_EQ(run.fencing_token, next.token);
}

// The commit a running run makes for each step (its own header, step and
// trace rows, fenced): what most commits are, and what a backend may serve by
// a shorter path. It must still write every row, keep the first trace row of
// a seq, move the run in the listings, and fence.
TYPED_TEST(CommitConformance, AStepCommitWritesItsRowsMovesTheRunInListingsAndIsFenced) {
  this->create({header("r1", RunStatus::kRunning, "", "", 10),
                header("r2", RunStatus::kRunning, "", "", 20)});
  Lease lease = this->acquire(run_lease_key("r1"), "w1", true, this->kShortTtl);
  auto step_commit = [&](RunStatus status, std::int64_t updated_at, std::vector<StepRow> steps,
                         std::vector<TraceRow> trace) {
    CommitRequest c;
    c.root_id = "r1";
    c.fencing_token = lease.token;
    c.headers = {header("r1", status, "", "", updated_at)};
    c.steps = std::move(steps);
    c.trace = std::move(trace);
    return c;
  };
  auto listed = [&](std::optional<RunStatus> status, std::optional<std::string> reactor = {}) {
    RunFilter filter;
    filter.status = status;
    filter.reactor = reactor;
    std::vector<RunHeaderRow> out;
    EXPECT_OK_AND_ASSIGN(out, this->db().list_runs(filter));
    return this->ids(out);
  };
  using Ids = std::vector<std::string>;

  this->commit_ok(step_commit(RunStatus::kRunning, 30, {{"r1", 0, "s0"}}, {{"r1", 0, "t0"}}));
  EXPECT_EQ(listed(std::nullopt), (Ids{"r1", "r2"}));
  EXPECT_EQ(listed(RunStatus::kRunning), (Ids{"r1", "r2"}));
  this->commit_ok(step_commit(RunStatus::kRunning, 40, {{"r1", 0, "s0-again"}, {"r1", 1, "s1"}},
                              {{"r1", 0, "t0-duplicate"}, {"r1", 1, "t1"}}));
  StoredRun run = this->load("r1");
  EXPECT_EQ(dump(run), dump(header("r1", RunStatus::kRunning, "", "", 40)) + "\n" +
                           "step r1#0 s0-again\n"
                           "step r1#1 s1\n"
                           "trace r1@0 t0\n"
                           "trace r1@1 t1\n"
                           "token " +
                           std::to_string(lease.token) + "\n");

  // The same shape with a new status is filed under it.
  this->commit_ok(step_commit(RunStatus::kRollingBack, 50, {{"r1", 2, "s2"}}, {{"r1", 2, "t2"}}));
  EXPECT_EQ(listed(RunStatus::kRunning), (Ids{"r2"}));
  EXPECT_EQ(listed(RunStatus::kRollingBack), (Ids{"r1"}));

  // So is the same shape under another reactor: it leaves the old one's listings.
  CommitRequest moved = step_commit(RunStatus::kRollingBack, 55, {}, {});
  moved.headers.front().reactor = "Payments";
  this->commit_ok(moved);
  EXPECT_EQ(listed(std::nullopt, "Payments"), (Ids{"r1"}));
  EXPECT_EQ(listed(RunStatus::kRollingBack), (Ids{"r1"}));  // a listing of every reactor
  EXPECT_EQ(listed(RunStatus::kRollingBack, "OrderSaga"), (Ids{}));
  moved.headers.front().reactor = "OrderSaga";
  this->commit_ok(moved);
  EXPECT_EQ(listed(std::nullopt, "Payments"), (Ids{}));
  EXPECT_EQ(listed(RunStatus::kRollingBack, "OrderSaga"), (Ids{"r1"}));

  // A root whose first write is a step commit under its lease is filed by it.
  Lease fresh = this->acquire(run_lease_key("r3"), "w1", true);
  CommitRequest first = step_commit(RunStatus::kRunning, 58, {{"r3", 0, "s0"}}, {});
  first.root_id = "r3";
  first.fencing_token = fresh.token;
  first.headers = {header("r3", RunStatus::kRunning, "", "", 58)};
  this->commit_ok(first);
  EXPECT_EQ(listed(RunStatus::kRunning), (Ids{"r3", "r2"}));
  EXPECT_EQ(dump(this->load("r3")), dump(header("r3", RunStatus::kRunning, "", "", 58)) + "\n" +
                                        "step r3#0 s0\n"
                                        "token " +
                                        std::to_string(fresh.token) + "\n");

  // Once another worker holds the run, the old holder's step commit writes nothing.
  this->advance_to(lease.expires_at_ms);
  Lease next = this->acquire(run_lease_key("r1"), "w2", true);
  const std::string before = dump(this->load("r1"));
  EXPECT_EQ(this->db()
                .commit(step_commit(RunStatus::kRollingBack, 60, {{"r1", 3, "zombie"}},
                                    {{"r1", 3, "zombie"}}))
                .code(),
            StatusCode::kLeaseLost);
  EXPECT_EQ(dump(this->load("r1")), before);
  EXPECT_EQ(listed(RunStatus::kRollingBack), (Ids{"r1"}));
  EXPECT_EQ(listed(std::nullopt), (Ids{"r3", "r1", "r2"}));
  EXPECT_GT(next.token, lease.token);
}

// The commit that starts runs (one, or many in bulk): each a root with its
// header, its inputs and its one start job, unfenced. What a backend may
// serve by a shorter path must still file each run, queue its job in order
// and wake a worker; a root that is started again keeps its first inputs and
// leaves the filing it had.
TYPED_TEST(CommitConformance, StartingRunsFilesEachWithItsInputsAndOneJob) {
  const std::int64_t now = this->now_ms();
  RunHeaderRow done = header("r0", RunStatus::kCompleted, "", "", 5);
  done.expires_at_ms = now - 1;  // expired, and would be purged
  CommitRequest first;
  first.headers = {done};
  first.inputs = {{"r0", "first"}};
  this->commit_ok(first);

  auto start = [](RunHeaderRow h, const std::string& inputs) {
    CommitRequest c;
    JobSpec j = job("q", h.id, 0, JobKind::kStart);
    j.reactor = h.reactor;
    c.headers = {h};
    c.inputs = {{h.id, inputs}};
    c.enqueue = {j};
    return c;
  };
  CommitRequest bulk = start(header("r0", RunStatus::kEnqueued, "", "", 10), "again");
  for (const std::string id : {"r1", "r2"}) {
    RunHeaderRow h = header(id, RunStatus::kEnqueued, "", "", 20);
    if (id == "r2") h.reactor = "Payments";
    CommitRequest one = start(h, "in-" + id);
    bulk.headers.push_back(one.headers.front());
    bulk.inputs.push_back(one.inputs.front());
    bulk.enqueue.push_back(one.enqueue.front());
  }
  this->commit_ok(bulk);
  for (const std::string id : {"r0", "r1", "r2"}) EXPECT_TRUE(this->has_job(id)) << id;

  EXPECT_EQ(dump(this->load("r1")), dump(header("r1", RunStatus::kEnqueued, "", "", 20)) + "\n" +
                                        "inputs r1 in-r1\n"
                                        "token 0\n");
  EXPECT_EQ(dump(this->load("r0")), dump(header("r0", RunStatus::kEnqueued, "", "", 10)) + "\n" +
                                        "inputs r0 first\n"
                                        "token 0\n");
  RunFilter enqueued;
  enqueued.status = RunStatus::kEnqueued;
  std::vector<RunHeaderRow> out;
  ASSERT_OK_AND_ASSIGN(out, this->db().list_runs(enqueued));
  EXPECT_EQ(this->ids(out), (std::vector<std::string>{"r2", "r1", "r0"}));
  RunFilter completed;
  completed.status = RunStatus::kCompleted;
  ASSERT_OK_AND_ASSIGN(out, this->db().list_runs(completed));
  EXPECT_TRUE(out.empty());
  std::size_t purged = 0;
  ASSERT_OK_AND_ASSIGN(purged, this->db().purge_expired(10));
  EXPECT_EQ(purged, 0u);  // no longer a terminal root

  std::vector<std::string> fetched;
  while (auto d = this->fetch({"q"}, "w")) {
    EXPECT_EQ(d->job.spec.kind, JobKind::kStart);
    EXPECT_EQ(d->job.spec.reactor, d->job.spec.run_id == "r2" ? "Payments" : "OrderSaga");
    EXPECT_EQ(d->job.deliveries, 1);
    fetched.push_back(d->job.spec.run_id);
  }
  EXPECT_EQ(fetched, (std::vector<std::string>{"r0", "r1", "r2"}));
}

TYPED_TEST(CommitConformance, CommitReleasesTheRunLeaseOnlyForItsHolder) {
  this->create({header("r1", RunStatus::kRunning)});
  Lease lease = this->acquire(run_lease_key("r1"), "w1", true);

  CommitRequest c;
  c.root_id = "r1";
  c.fencing_token = lease.token;
  c.release_lease = true;
  c.lease_owner = "someone-else";
  this->commit_ok(c);  // written, but the lease is not theirs to release
  this->acquire(run_lease_key("r1"), "w2", false);

  c.lease_owner = "w1";
  c.headers = {header("r1", RunStatus::kCompleted)};
  this->commit_ok(c);
  Lease next = this->acquire(run_lease_key("r1"), "w2", true);
  EXPECT_GT(next.token, lease.token);
}

TYPED_TEST(CommitConformance, MalformedCommitIsRejectedWhole) {
  CommitRequest c;
  c.headers = {header("r1", RunStatus::kRunning), header("", RunStatus::kRunning)};
  c.enqueue = {job("q", "r1")};
  EXPECT_EQ(this->db().commit(c).code(), StatusCode::kInvalidArgument);
  RunHeaderRow h;
  EXPECT_EQ(assign_or_status(h, this->db().load_header("r1")).code(), StatusCode::kNotFound);
  EXPECT_FALSE(this->has_job("r1"));
}

}  // namespace
}  // namespace reactor::conformance

namespace reactor::conformance {
namespace {

template <typename Factory>
class CreateConformance : public BackendConformance<Factory> {};
TYPED_TEST_SUITE(CreateConformance, ConformanceBackends, BackendName);

// A start never overwrites a run: a create commit naming a run that exists writes nothing, not
// even its jobs, and says which run exists; one or in bulk, fenced or not.
TYPED_TEST(CreateConformance, ACreateCommitNamingARunThatExistsWritesNothing) {
  auto start = [](std::vector<std::string> ids, std::string body) {
    CommitRequest c;
    c.create = true;
    for (const auto& id : ids) {
      RunHeaderRow h = header(id, RunStatus::kEnqueued);
      h.body = body;
      c.headers.push_back(h);
      c.inputs.push_back({id, R"({"n":1})"});
      c.enqueue.push_back(job("q", id, 0, JobKind::kStart));
    }
    return c;
  };
  this->commit_ok(start({"TRIP-1001"}, R"({"first":true})"));
  Status s = this->db().commit(start({"TRIP-1001"}, R"({"second":true})"));
  EXPECT_EQ(s.code(), StatusCode::kAlreadyExists) << s.to_string();
  EXPECT_NE(s.message().find("TRIP-1001"), std::string::npos) << s.message();
  // In bulk: one existing run refuses the whole commit.
  s = this->db().commit(start({"TRIP-2002", "TRIP-1001", "TRIP-3003"}, R"({"bulk":true})"));
  EXPECT_EQ(s.code(), StatusCode::kAlreadyExists) << s.to_string();
  RunHeaderRow h;
  ASSERT_OK_AND_ASSIGN(h, this->db().load_header("TRIP-1001"));
  EXPECT_EQ(h.body, R"({"first":true})");
  EXPECT_EQ(assign_or_status(h, this->db().load_header("TRIP-2002")).code(), StatusCode::kNotFound);
  // The first start's job and nothing else.
  ASSERT_TRUE(this->fetch({"q"}, "w").has_value());
  EXPECT_FALSE(this->fetch({"q"}, "w2").has_value());
  // A commit that is no start rewrites the run as before.
  CommitRequest update = start({"TRIP-1001"}, R"({"update":true})");
  update.create = false;
  update.enqueue.clear();
  this->commit_ok(update);
  ASSERT_OK_AND_ASSIGN(h, this->db().load_header("TRIP-1001"));
  EXPECT_EQ(h.body, R"({"update":true})");
}

// A synchronous start is fenced by the lease it took first; it is refused the same way.
TYPED_TEST(CreateConformance, AFencedCreateCommitIsRefusedTooWhenTheRunExists) {
  CommitRequest first;
  first.create = true;
  first.headers = {header("r-sync", RunStatus::kCompleted)};
  first.inputs = {{"r-sync", "{}"}};
  this->commit_ok(first);
  Lease l = this->acquire(run_lease_key("r-sync"), "again", true, 60s);
  CommitRequest again;
  again.create = true;
  again.root_id = "r-sync";
  again.fencing_token = l.token;
  again.lease_owner = "again";
  again.headers = {header("r-sync", RunStatus::kRunning)};
  again.inputs = {{"r-sync", "{}"}};
  again.steps = {{"r-sync", 0, "{}"}};
  EXPECT_EQ(this->db().commit(again).code(), StatusCode::kAlreadyExists);
  RunHeaderRow h;
  ASSERT_OK_AND_ASSIGN(h, this->db().load_header("r-sync"));
  EXPECT_EQ(h.status, RunStatus::kCompleted);
}

}  // namespace
}  // namespace reactor::conformance
