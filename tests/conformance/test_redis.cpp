// What only the Redis backend promises: one round trip per durable operation,
// a blocking wait for jobs, reconnecting after a lost connection or a server
// restart, its key layout (docs/redis.md) and its start-up errors. The
// Backend contract itself is the conformance suite's, run against Redis too.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>
#include <thread>

#include "conformance/backends.hpp"
#include "conformance/conformance_support.hpp"
#include "reactor/reactor.hpp"
#include "reactor/worker.hpp"
#include "support/result_testing.hpp"

namespace reactor::conformance {
namespace {

using SteadyClock = std::chrono::steady_clock;  // not reactor::Clock (one unity TU)

class RedisBackendTest : public ::testing::Test {
 protected:
  void SetUp() override {
    Status s = factory_.open(db_);
    ASSERT_TRUE(s.ok()) << s.to_string();
  }

  // Round trips `op` cost this backend.
  template <typename Op>
  std::uint64_t cost(Op&& op) {
    const std::uint64_t before = db_->round_trips();
    op();
    return db_->round_trips() - before;
  }

  RedisBackendFactory factory_;
  std::unique_ptr<Backend> db_;
};

CommitRequest create_with_job(const std::string& id, const std::string& queue,
                              std::int64_t run_at_ms = 0) {
  CommitRequest c;
  c.headers = {header(id, RunStatus::kEnqueued)};
  c.inputs = {{id, R"({"order_id":1})"}};
  c.enqueue = {job(queue, id, run_at_ms, JobKind::kStart)};
  return c;
}

TEST_F(RedisBackendTest, EveryOperationIsOneRoundTrip) {
  std::vector<std::string> lines;
  auto expect_one = [&](const char* what, std::uint64_t n) {
    EXPECT_EQ(n, 1u) << what;
    lines.push_back(std::string(what) + ": " + std::to_string(n));
  };

  expect_one("create run + enqueue (commit)",
             cost([&] { ASSERT_TRUE(db_->commit(create_with_job("r1", "q")).ok()); }));
  std::optional<Delivery> d;
  expect_one("fetch (job + run lease + the run)", cost([&] {
               ASSERT_OK_AND_ASSIGN(d, db_->fetch({{"q"}, "w1", 30s, 10s}));
             }));
  ASSERT_TRUE(d && d->run_leased);
  // The leased run comes with the delivery: a worker needs no load_run.
  ASSERT_TRUE(d->run);
  EXPECT_EQ(d->run->headers.size(), 1u);
  StoredRun run;
  expect_one("load_run",
             cost([&] { ASSERT_TRUE(assign_or_status(run, db_->load_run("r1")).ok()); }));

  // A step inside a running run: its record, the header and its trace, fenced.
  for (std::uint32_t i = 0; i < 3; ++i) {
    CommitRequest step;
    step.root_id = "r1";
    step.fencing_token = d->run_lease.token;
    step.headers = {header("r1", RunStatus::kRunning)};
    step.steps = {{"r1", i, "done"}};
    step.trace = {{"r1", i, "ran"}};
    expect_one("step commit", cost([&] { ASSERT_TRUE(db_->commit(step).ok()); }));
  }
  CommitRequest last;
  last.root_id = "r1";
  last.fencing_token = d->run_lease.token;
  last.headers = {header("r1", RunStatus::kCompleted)};
  last.steps = {{"r1", 3, "done"}};
  last.ack_job = d->job.id;
  last.ack_owner = "w1";
  last.release_lease = true;
  last.lease_owner = "w1";
  ASSERT_TRUE(db_->commit(create_with_job("r2", "q")).ok());
  std::optional<Delivery> next;
  expect_one("last step commit + ack + lease release + the next fetch", cost([&] {
               ASSERT_OK_AND_ASSIGN(next, db_->commit_then_fetch(last, {{"q"}, "w2", 30s, 10s}));
             }));
  ASSERT_TRUE(next && next->run_leased && next->run);
  EXPECT_EQ(next->job.spec.run_id, "r2");

  bool granted = false;
  Lease lease;
  expect_one(
      "acquire_lease", cost([&] {
        ASSERT_TRUE(
            assign_or_status(granted, lease, db_->acquire_lease("sweeper:1", "s", 10s)).ok());
      }));
  expect_one("extend_lease (heartbeat)", cost([&] {
               ASSERT_TRUE(db_->extend_lease("sweeper:1", "s", lease.token, 10s).ok());
             }));
  expect_one("release_lease",
             cost([&] { ASSERT_TRUE(db_->release_lease("sweeper:1", "s", lease.token).ok()); }));
  std::vector<RunHeaderRow> rows;
  expect_one("find_orphans",
             cost([&] { ASSERT_TRUE(assign_or_status(rows, db_->find_orphans(100)).ok()); }));
  std::size_t purged = 0;
  expect_one("purge_expired",
             cost([&] { ASSERT_TRUE(assign_or_status(purged, db_->purge_expired(100)).ok()); }));
  expect_one("list_runs",
             cost([&] { ASSERT_TRUE(assign_or_status(rows, db_->list_runs({})).ok()); }));
  std::size_t counted = 0;
  expect_one("count_runs",
             cost([&] { ASSERT_TRUE(assign_or_status(counted, db_->count_runs({})).ok()); }));
  bool has = true;
  expect_one("has_job", cost([&] { ASSERT_TRUE(assign_or_status(has, db_->has_job("r1")).ok()); }));
  MapRow map;
  expect_one("load_map", cost([&] {
               EXPECT_EQ(assign_or_status(map, db_->load_map("r1:sum")).code(),
                         StatusCode::kNotFound);
             }));
  std::vector<MapSlotRow> slots;
  expect_one("load_map_slots (a page)", cost([&] {
               ASSERT_TRUE(assign_or_status(slots, db_->load_map_slots("r1:sum", 0, 100)).ok());
             }));
  TakeRequest take;
  take.holder = "r2";
  take.charge_id = "r2";
  take.rates = {RateCharge{"bank", 60'000, 10}};
  take.holds = {HoldClaim{HoldKind::kLock, "acct", 1, "r2"}};
  TakeResult taken;
  expect_one("take_holds (a lock and a rate window)",
             cost([&] { ASSERT_OK_AND_ASSIGN(taken, db_->take_holds(take)); }));
  EXPECT_EQ(taken.outcome, TakeOutcome::kTaken);
  CoordinationView view;
  expect_one("coordination", cost([&] { ASSERT_OK_AND_ASSIGN(view, db_->coordination()); }));
  OrderedChainRow chain;
  expect_one("ordered_peek", cost([&] {
               EXPECT_EQ(assign_or_status(chain, db_->ordered_peek("cust")).code(),
                         StatusCode::kNotFound);
             }));
  expect_one("idle fetch", cost([&] {
               ASSERT_TRUE(assign_or_status(d, db_->fetch({{"q"}, "w2", 30s, 10s})).ok());
             }));
  EXPECT_FALSE(d);
  expect_one("wait_for_jobs (one BLPOP)",
             cost([&] { ASSERT_TRUE(db_->wait_for_jobs({"q"}, 50ms).ok()); }));
  expect_one("wait_then_fetch (BLPOP and the fetch, pipelined)", cost([&] {
               ASSERT_OK_AND_ASSIGN(d, db_->wait_then_fetch({{"q"}, "w2", 30s, 10s}, 50ms));
             }));
  EXPECT_FALSE(d);

  std::string report;
  for (const auto& l : lines) report += "  " + l + "\n";
  std::printf("round trips per operation:\n%s", report.c_str());
  RecordProperty("round_trips", report);
}

// After `delay`, from a connection of its own: run r1 and its job on queue q,
// which wakes whoever waits on q.
std::thread enqueue_r1_later(RedisBackendFactory& factory, Duration delay) {
  std::unique_ptr<Backend> opened;
  EXPECT_TRUE(factory.open(opened).ok());
  std::shared_ptr<Backend> producer = std::move(opened);
  return std::thread([producer, delay] {
    std::this_thread::sleep_for(delay);
    EXPECT_TRUE(producer && producer->commit(create_with_job("r1", "q")).ok());
  });
}

TEST_F(RedisBackendTest, WaitForJobsBlocksUntilAnEnqueueWakesIt) {
  std::optional<Delivery> d;
  ASSERT_OK_AND_ASSIGN(d, db_->fetch({{"q"}, "w1", 30s, 10s}));
  ASSERT_FALSE(d);
  const auto start = SteadyClock::now();
  std::thread enqueue = enqueue_r1_later(factory_, 300ms);
  const std::uint64_t before = db_->round_trips();
  Status s = db_->wait_for_jobs({"other", "q"}, 20s);
  const auto waited = SteadyClock::now() - start;
  enqueue.join();
  ASSERT_TRUE(s.ok()) << s.to_string();
  EXPECT_EQ(db_->round_trips() - before, 1u) << "one blocking request, no polling";
  EXPECT_GE(waited, 250ms) << "returned before anything was enqueued";
  EXPECT_LT(waited, 10s) << "the enqueue did not wake it";
  ASSERT_OK_AND_ASSIGN(d, db_->fetch({{"q"}, "w1", 30s, 10s}));
  EXPECT_TRUE(d);
}

// Every enqueue pushes a wake-up token; nobody serving the queue must not
// make its list grow without bound.
TEST_F(RedisBackendTest, TheWakeListOfAQueueNobodyServesStaysCapped) {
  const auto wake_tokens = [&] {
    RawReply r = factory_.raw().command({"LLEN", factory_.prefix() + "wake:q"});
    return r && r->type == REDIS_REPLY_INTEGER ? r->integer : -1;
  };
  for (int k = 0; k < 100; ++k) {
    ASSERT_TRUE(db_->commit(create_with_job("r" + std::to_string(k), "q")).ok());
    if (k == 9) {
      EXPECT_EQ(wake_tokens(), 10) << "one token per job below the cap";
    }
  }
  EXPECT_EQ(wake_tokens(), 64);
}

// A worker reports what it did against what it asked of the store: its
// durable steps and its requests (every one the backend counted since it
// started). Each step is one commit, one request; the fetch that brings the
// next run rides on the commit that ends the last one.
TEST_F(RedisBackendTest, AWorkerReportsItsDurableStepsAndItsRequestsToTheStore) {
  std::unique_ptr<Backend> store;
  ASSERT_TRUE(factory_.open(store).ok());
  EngineOptions options;
  options.backend = std::move(store);
  Engine engine(std::move(options));
  Builder b("Three");
  for (int i = 1; i <= 3; ++i) {
    b.step("s" + std::to_string(i), [i](const Args&) { return Success(i); });
  }
  engine.registry().add(b.build());
  std::vector<std::string> ids(10);
  for (auto& id : ids) {
    ASSERT_OK_AND_ASSIGN(id, engine.run_in_background("Three", Value::object()));
  }

  WorkerOptions w;
  w.sweeper = false;
  Worker worker(engine, w);
  worker.start();
  // Watched through another connection (db_), so the watching is not counted.
  const auto ended = [&] {
    return std::all_of(ids.begin(), ids.end(), [&](const std::string& id) {
      RunHeaderRow h;
      return assign_or_status(h, db_->load_header(id)).ok() && h.status == RunStatus::kCompleted;
    });
  };
  const auto deadline = SteadyClock::now() + 30s;
  while (!ended() && SteadyClock::now() < deadline) std::this_thread::sleep_for(5ms);
  ASSERT_TRUE(ended());
  // Idle now: it blocks for idle_wait (1 s) per request, so a 300 ms look
  // sees at most the wait it was in and the one after; polling would be many.
  const std::uint64_t idle_from = worker.stats().round_trips;
  std::this_thread::sleep_for(300ms);
  EXPECT_LE(worker.stats().round_trips - idle_from, 2u) << "an idle worker polled";
  worker.stop();
  worker.wait();

  const WorkerStats st = worker.stats();
  EXPECT_EQ(st.runs_finished, 10u);
  EXPECT_EQ(st.durable_steps, 30u);
  EXPECT_GE(st.round_trips, st.durable_steps) << "a durable step without its commit";
  // The issue's budget, with room for the idle waits (one per 50 ms) while
  // the test notices the end.
  EXPECT_LE(st.round_trips, 2 * st.durable_steps);
  std::printf("%llu durable steps, %llu requests to the store\n",
              static_cast<unsigned long long>(st.durable_steps),
              static_cast<unsigned long long>(st.round_trips));
}

// The wait and the fetch go in one pipeline: the job that ends the wait comes
// back from the same round trip, leased with its run.
TEST_F(RedisBackendTest, WaitThenFetchBringsTheJobThatEndedTheWait) {
  std::optional<Delivery> d;
  ASSERT_OK_AND_ASSIGN(d, db_->fetch({{"q"}, "w1", 30s, 10s}));
  ASSERT_FALSE(d);
  std::thread enqueue = enqueue_r1_later(factory_, 300ms);
  const std::uint64_t before = db_->round_trips();
  Status s = assign_or_status(d, db_->wait_then_fetch({{"other", "q"}, "w1", 30s, 10s}, 20s));
  enqueue.join();
  ASSERT_TRUE(s.ok()) << s.to_string();
  EXPECT_EQ(db_->round_trips() - before, 1u) << "the wait and the fetch were not one round trip";
  ASSERT_TRUE(d) << "the enqueue ended the wait but nothing was fetched";
  EXPECT_EQ(d->job.spec.run_id, "r1");
  EXPECT_TRUE(d->run_leased);
  EXPECT_TRUE(d->run_started);
}

TEST_F(RedisBackendTest, WaitForJobsReturnsWhenADelayedJobFallsDue) {
  const std::int64_t run_at = factory_.now_ms() + 400;
  ASSERT_TRUE(db_->commit(create_with_job("r1", "q", run_at)).ok());
  std::optional<Delivery> d;
  ASSERT_OK_AND_ASSIGN(d, db_->fetch({{"q"}, "w1", 30s, 10s}));
  ASSERT_FALSE(d);  // not due yet: the fetch learns when it will be

  const auto start = SteadyClock::now();
  ASSERT_TRUE(db_->wait_for_jobs({"q"}, 20s).ok());
  EXPECT_LT(SteadyClock::now() - start, 10s) << "slept through the job's run_at";
  ASSERT_OK_AND_ASSIGN(d, db_->fetch({{"q"}, "w1", 30s, 10s}));
  ASSERT_TRUE(d);
  EXPECT_GE(factory_.now_ms(), run_at);
}

TEST_F(RedisBackendTest, ReconnectsAfterLosingItsConnections) {
  ASSERT_TRUE(db_->commit(create_with_job("r1", "q")).ok());
  ASSERT_GE(factory_.raw().kill_backend_connections(), 1);
  // The pooled connection is dead; the next calls reconnect and carry on.
  StoredRun run;
  Status s = assign_or_status(run, db_->load_run("r1"));
  ASSERT_TRUE(s.ok()) << s.to_string();
  EXPECT_EQ(run.headers.size(), 1u);
  std::optional<Delivery> d;
  ASSERT_OK_AND_ASSIGN(d, db_->fetch({{"q"}, "w1", 30s, 10s}));
  EXPECT_TRUE(d);
}

TEST(RedisServerRestart, TheBackendReconnectsAndFindsItsDataAgain) {
  PrivateRedis server;
  ASSERT_TRUE(server.run("start"));
  std::unique_ptr<Backend> db;
  Status s = assign_or_status(db, open_backend(server.url(), nullptr));
  ASSERT_TRUE(s.ok()) << s.to_string();
  ASSERT_TRUE(db->commit(create_with_job("r1", "q")).ok());

  // Same port, same data (AOF); the scripts are gone from the server's cache.
  ASSERT_TRUE(server.run("restart"));
  StoredRun run;
  s = assign_or_status(run, db->load_run("r1"));
  ASSERT_TRUE(s.ok()) << s.to_string();
  EXPECT_EQ(run.inputs.size(), 1u);
  std::optional<Delivery> d;
  s = assign_or_status(d, db->fetch({{"q"}, "w1", 30s, 10s}));
  ASSERT_TRUE(s.ok()) << s.to_string();
  ASSERT_TRUE(d);
  EXPECT_EQ(d->job.spec.run_id, "r1");
}

TEST(RedisServerRestart, OpeningWhileTheServerLoadsItsDataWaitsUntilItIsLoaded) {
  PrivateRedis server;
  ASSERT_TRUE(server.run("start"));
  {
    std::unique_ptr<Backend> db;
    ASSERT_OK_AND_ASSIGN(db, open_backend(server.url(), nullptr));
    ASSERT_TRUE(db->commit(create_with_job("r1", "q")).ok());
    // Enough keys, each loaded 100 us late (key-load-delay: a setting for tests), to keep the
    // restarted server loading for about a second.
    RawRedis raw(server.url());
    raw.command({"EVAL", "for i = 1, 10000 do redis.call('SET', 'filler:' .. i, i) end", "0"});
  }
  ASSERT_TRUE(server.configure("key-load-delay 100"));
  ASSERT_TRUE(server.run("restart"));  // back once it answers, which it does while loading
  RawRedis raw(server.url());
  ASSERT_NE(reply_text(raw.command({"INFO", "persistence"})).find("loading:1"), std::string::npos)
      << "the server had loaded its data already: this test would prove nothing";

  // The server answers "LOADING" to everything but a few commands: open waits it out.
  std::unique_ptr<Backend> db;
  Status s = assign_or_status(
      db, open_backend(with_url_option(server.url(), "reconnect_ms", "30000"), nullptr));
  ASSERT_TRUE(s.ok()) << s.to_string();
  StoredRun run;
  s = assign_or_status(run, db->load_run("r1"));
  ASSERT_TRUE(s.ok()) << s.to_string();
  EXPECT_EQ(run.inputs.size(), 1u);
}

TEST(RedisServerRestart, AServerThatStaysDownIsUnavailableAfterTheReconnectBudget) {
  PrivateRedis server;
  ASSERT_TRUE(server.run("start"));
  std::unique_ptr<Backend> db;
  ASSERT_OK_AND_ASSIGN(db,
                       open_backend(with_url_option(server.url(), "reconnect_ms", "300"), nullptr));
  ASSERT_TRUE(server.run("stop"));
  StoredRun run;
  Status s = assign_or_status(run, db->load_run("r1"));
  EXPECT_EQ(s.code(), StatusCode::kUnavailable) << s.to_string();
  EXPECT_NE(s.message().find("redis://***@127.0.0.1:"), std::string::npos) << s.to_string();
}

// Keeps the server busy for ARGV[1] ms: every other client waits meanwhile.
constexpr const char* kStallScript = R"lua(
local start = redis.call('TIME')
repeat
  local t = redis.call('TIME')
until (t[1] - start[1]) * 1000 + (t[2] - start[2]) / 1000 >= tonumber(ARGV[1])
return 1
)lua";

std::int64_t evalsha_calls(RawRedis& raw) {
  const std::string stats = reply_text(raw.command({"INFO", "commandstats"}));
  const auto at = stats.find("cmdstat_evalsha:calls=");
  return at == std::string::npos ? 0 : std::atoll(stats.c_str() + at + 22);
}

TEST(RedisServerStall, ACommitResentAfterItsReplyTimedOutIsAppliedOnce) {
  PrivateRedis server;
  ASSERT_TRUE(server.run("start"));
  std::unique_ptr<Backend> db;
  Status s = assign_or_status(
      db, open_backend(with_url_option(server.url(), "timeout_ms", "100"), nullptr));
  ASSERT_TRUE(s.ok()) << s.to_string();
  RawRedis raw(server.url());
  ASSERT_EQ(raw.error(), "");
  const std::int64_t calls_before = evalsha_calls(raw);

  std::thread stall([&] {
    RawRedis busy(server.url());
    busy.command({"EVAL", kStallScript, "0", "800"});
  });
  std::this_thread::sleep_for(200ms);  // the server is busy now
  const std::uint64_t before = db->round_trips();
  // Sent, not answered within 100 ms: the client gives up on the connection and sends it
  // again (reconnecting until the server answers); the server runs both.
  s = db->commit(create_with_job("r1", "q"));
  stall.join();
  ASSERT_TRUE(s.ok()) << s.to_string();
  EXPECT_GE(db->round_trips() - before, 2u) << "the commit was not resent";
  EXPECT_GE(evalsha_calls(raw) - calls_before, 2) << "the server ran the commit once only";

  RawReply ready = raw.command({"ZCARD", "reactor:ready:q"});
  ASSERT_TRUE(ready && ready->type == REDIS_REPLY_INTEGER);
  EXPECT_EQ(ready->integer, 1) << "the resent commit enqueued its job again";
  EXPECT_EQ(reply_text(raw.command({"GET", "reactor:job_ids"})), "1");
}

TEST_F(RedisBackendTest, AHeaderThatDoesNotParseHidesNoOtherRunFromListingsOrSweeps) {
  // Two orphans (running, no lease): one of them garbled by something other than Reactor.
  for (const char* id : {"garbled", "healthy"}) {
    CommitRequest c;
    c.headers = {header(id, RunStatus::kRunning)};
    ASSERT_TRUE(db_->commit(c).ok());
  }
  factory_.raw().command({"HSET", factory_.prefix() + "{garbled}:rows", "h:garbled", "{not json"});

  std::vector<RunHeaderRow> orphans;
  ASSERT_OK_AND_ASSIGN(orphans, db_->find_orphans(10));
  ASSERT_EQ(orphans.size(), 1u);
  EXPECT_EQ(orphans.front().id, "healthy");
  std::vector<RunHeaderRow> listed;
  ASSERT_OK_AND_ASSIGN(listed, db_->list_runs(RunFilter{}));
  ASSERT_EQ(listed.size(), 1u);
  EXPECT_EQ(listed.front().id, "healthy");
  RunHeaderRow h;
  EXPECT_EQ(assign_or_status(h, db_->load_header("garbled")).code(), StatusCode::kCorruption);
}

// A field of a run's rows hash that no build writes (issue 16, item 19) is a corrupt record of
// that run, which the worker fails at once; as an internal error it was redelivered for ever.
TEST_F(RedisBackendTest, ARowsFieldNoBuildWritesIsCorruptionOfItsRun) {
  for (const std::string field : {"s:bad#x", "s:bad", "s", "", "x:bad", "t:nine"}) {
    CommitRequest c;
    c.headers = {header("bad", RunStatus::kRunning)};
    ASSERT_TRUE(db_->commit(c).ok());
    factory_.raw().command({"HSET", factory_.prefix() + "{bad}:rows", field, "{}"});
    StoredRun stored;
    const Status s = assign_or_status(stored, db_->load_run("bad"));
    EXPECT_EQ(s.code(), StatusCode::kCorruption) << field << ": " << s.to_string();
    factory_.raw().command({"HDEL", factory_.prefix() + "{bad}:rows", field});
    ASSERT_TRUE(assign_or_status(stored, db_->load_run("bad")).ok()) << field;
  }
}

TEST_F(RedisBackendTest, AWrongPasswordIsUnavailableAndNotRepeated) {
  std::string url = factory_.url();
  const auto at = url.find('@');
  ASSERT_NE(at, std::string::npos) << "the test server has a password";
  url = "redis://:not-the-password" + url.substr(at);
  std::unique_ptr<Backend> b;
  Status s = assign_or_status(b, open_backend(url, nullptr));
  EXPECT_EQ(s.code(), StatusCode::kUnavailable);
  EXPECT_EQ(s.message().find("not-the-password"), std::string::npos) << s.to_string();
  EXPECT_NE(s.message().find("refused"), std::string::npos) << s.to_string();
}

TEST_F(RedisBackendTest, AnotherKeyLayoutIsRefused) {
  for (const char* version : {"99", "2", "1"}) {
    factory_.raw().command({"SET", factory_.prefix() + "layout_version", version});
    std::unique_ptr<Backend> b;
    Status s = assign_or_status(b, open_backend(factory_.url(), nullptr));
    EXPECT_EQ(s.code(), StatusCode::kUnavailable);
    EXPECT_NE(s.message().find(std::string("layout version ") + version), std::string::npos)
        << s.to_string();
  }
}

// Layouts 3 to 6 differ from 7 only in what builds before 7 could read: a store of any is read
// as it is and recorded as 7, which those builds then refuse. (Stores those builds wrote
// themselves are read by tests/conformance/test_stored_corpus.cpp.)
TEST_F(RedisBackendTest, AStoreOfTheLayoutBeforeIsReadAndRecordedAsThisOne) {
  ASSERT_TRUE(db_->commit(create_with_job("r1", "q")).ok());
  factory_.raw().command({"SET", factory_.prefix() + "layout_version", "3"});
  std::unique_ptr<Backend> b;
  Status s = assign_or_status(b, open_backend(factory_.url(), nullptr));
  ASSERT_TRUE(s.ok()) << s.to_string();
  RunHeaderRow h;
  EXPECT_OK_AND_ASSIGN(h, b->load_header("r1"));
  EXPECT_EQ(reply_text(factory_.raw().command({"GET", factory_.prefix() + "layout_version"})), "7");
}

// The keys docs/redis.md lists, and nothing else; every key of a run carries its hash tag.
TEST_F(RedisBackendTest, KeyLayoutIsTheDocumentedOne) {
  CommitRequest c = create_with_job("r1", "q");
  c.headers.push_back(header("c1", RunStatus::kRunning, "r1"));
  c.steps = {{"r1", 0, "s"}, {"c1", 0, "s"}};
  c.trace = {{"r1", 0, "t"}};
  ASSERT_TRUE(db_->commit(c).ok());
  bool granted = false;
  Lease lease;
  ASSERT_TRUE(
      assign_or_status(granted, lease, db_->acquire_lease(run_lease_key("r1"), "w", 10s)).ok());
  ASSERT_TRUE(assign_or_status(granted, lease, db_->acquire_lease("sweeper:7", "w", 10s)).ok());
  RunHeaderRow done = header("r2", RunStatus::kCompleted);
  done.expires_at_ms = factory_.now_ms() + 60'000;
  CommitRequest finished;
  finished.headers = {done};
  ASSERT_TRUE(db_->commit(finished).ok());
  CommitRequest in_flight;
  in_flight.enqueue = {job("q2", "r3")};
  ASSERT_TRUE(db_->commit(in_flight).ok());
  std::optional<Delivery> d;
  ASSERT_OK_AND_ASSIGN(d, db_->fetch({{"q2"}, "w", 30s, 10s}));
  ASSERT_TRUE(d);
  // A fan-out map of r1 with two element runs, the first released; its report releases the
  // second.
  RunHeaderRow released = header("r1:sum[0]", RunStatus::kEnqueued, "r1", "r1:sum[0]");
  RunHeaderRow pending = header("r1:sum[1]", RunStatus::kPending, "r1", "r1:sum[1]");
  released.reactor = pending.reactor = "Element";
  CommitRequest dispatch;
  dispatch.headers = {released, pending};
  dispatch.enqueue = {job("q", "r1:sum[0]", 0, JobKind::kStart)};
  MapRow map;
  map.map_id = "r1:sum";
  map.owner_id = "r1";
  map.owner_reactor = "OrderSaga";
  map.queue = "q";
  map.element_reactor = "Element";
  map.total = 2;
  map.released = 1;
  dispatch.maps = {map};
  ASSERT_TRUE(db_->commit(dispatch).ok());
  CommitRequest report;
  report.headers = {header("r1:sum[0]", RunStatus::kCompleted, "r1", "r1:sum[0]")};
  report.headers.back().reactor = "Element";
  report.settle = MapSettle{MapSlotRow{"r1:sum", 0, SlotState::kCompleted, "1"}};
  ASSERT_TRUE(db_->commit(report).ok());

  std::set<std::string> keys;
  for (std::string key : factory_.raw().keys(factory_.prefix())) {
    key = key.substr(factory_.prefix().size());
    if (key.rfind("commit:", 0) == 0) key = "commit:<nonce>";
    keys.insert(key);
  }
  // clang-format off
  const std::set<std::string> expected = {
      // the store
      "layout_version", "fencing_token", "job_ids", "commit:<nonce>",
      // indexes of the root runs
      "runs", "reactors", "expiring", "index:enqueued:OrderSaga", "index:completed:OrderSaga",
      // each run under its hash tag
      "{r1}:rows", "{r1}:meta", "{r1}:jobs", "{r2}:rows", "{r2}:meta", "{r3}:jobs", "{r3}:meta",
      // fan-out maps: the element runs' indexes, each element run under its own hash tag, and
      // the map's row, its slots and what the root's tree holds under the root's tag
      "ereactors", "eindex:completed:Element", "eindex:enqueued:Element",
      "{r1:sum[0]}:rows", "{r1:sum[0]}:meta", "{r1:sum[0]}:jobs",
      "{r1:sum[1]}:rows", "{r1:sum[1]}:meta", "{r1:sum[1]}:jobs",
      "{r1}:maps", "{r1}:elements", "{r1}:map:r1:sum", "{r1}:slots:r1:sum",
      // queues and jobs
      "job:1", "job:2", "job:3", "job:4", "ready:q", "wake:q", "inflight:q2", "wake:q2",
      // leases on other keys
      "lease:sweeper:7", "leases"};
  // clang-format on
  EXPECT_EQ(keys, expected);
}

// What coordination keeps (docs/redis.md, "Key layout"): holds and who holds them, rate
// buckets, period marks and ordered chains, each with the index that lists them.
TEST_F(RedisBackendTest, CoordinationKeysAreTheDocumentedOnes) {
  CommitRequest start = create_with_job("r1", "q");
  start.ordered_joins = {{"cust", "r1"}};
  ASSERT_TRUE(db_->commit(start).ok());
  TakeRequest take;
  take.holder = "r1";
  take.charge_id = "r1";
  take.rates = {RateCharge{"bank", 60'000, 10}};
  take.holds = {HoldClaim{HoldKind::kLock, "acct", 1, "r1"}};
  TakeResult taken;
  ASSERT_OK_AND_ASSIGN(taken, db_->take_holds(take));
  ASSERT_EQ(taken.outcome, TakeOutcome::kTaken);
  CommitRequest done;
  done.period_marks = {PeriodMark{"Report@1", "r1"}};
  ASSERT_TRUE(db_->commit(done).ok());

  std::set<std::string> keys;
  for (std::string key : factory_.raw().keys(factory_.prefix())) {
    key = key.substr(factory_.prefix().size());
    if (key.rfind("rate:bank:60000:", 0) == 0) key = "rate:bank:60000:<bucket>";
    if (key.rfind("commit:", 0) == 0) key = "commit:<nonce>";
    keys.insert(key);
  }
  // clang-format off
  const std::set<std::string> expected = {
      // the store, the run and its job
      "layout_version", "job_ids", "commit:<nonce>", "reactors",
      "index:enqueued:OrderSaga", "{r1}:rows", "{r1}:meta", "{r1}:jobs", "job:1", "ready:q",
      "wake:q",
      // a hold, its holders and the keys each holder holds
      "holds", "hold:acct", "holder:r1",
      // a rate window's bucket: the charges counted in it, and the buckets by their end
      "rates", "rate:bank:60000:<bucket>",
      // period marks, and ordered chains with their members
      "periods", "chains", "ordered:cust", "ordered_members:cust"};
  // clang-format on
  EXPECT_EQ(keys, expected);
}

// Map `map_id` of `total` elements, none released, owned by `owner`: its row, and its element
// runs pending.
CommitRequest dispatch_map(const std::string& owner, const std::string& map_id,
                           std::uint32_t total) {
  CommitRequest c;
  MapRow map;
  map.map_id = map_id;
  map.owner_id = owner;
  map.owner_reactor = "OrderSaga";
  map.queue = "q";
  map.element_reactor = "Element";
  map.total = total;
  c.maps = {map};
  for (std::uint32_t i = 0; i < total; ++i) {
    const std::string id = element_run_id(map_id, i);
    c.headers.push_back(header(id, RunStatus::kPending, owner, id));
    c.headers.back().reactor = "Element";
  }
  return c;
}

// Owner `owner`'s commit, fenced by `token`, that dispatches map `map_id` of `total` elements and
// releases the first, its own header filed `status`.
CommitRequest dispatch_first(const std::string& owner, const std::string& map_id,
                             std::uint32_t total, std::uint64_t token, RunStatus status) {
  CommitRequest c = dispatch_map(owner, map_id, total);
  c.root_id = owner;
  c.fencing_token = token;
  c.headers.push_back(header(owner, status));
  c.headers[0].status = RunStatus::kEnqueued;
  c.maps[0].released = 1;
  c.enqueue = {job("q", element_run_id(map_id, 0), 0, JobKind::kStart)};
  c.enqueue.back().reactor = "Element";
  return c;
}

// The commits step_commit and finish_commit would take, and the last commits that fetch too,
// go through the general commit when they carry map records: nothing of them is lost.
TEST_F(RedisBackendTest, CommitsWithMapRecordsTakeTheScriptThatWritesThem) {
  const FetchRequest fetch{{"q"}, "w", 30s, 10s};
  ASSERT_TRUE(db_->commit(create_with_job("r1", "q")).ok());
  std::optional<Delivery> d;
  ASSERT_OK_AND_ASSIGN(d, db_->fetch(fetch));
  ASSERT_TRUE(d && d->run_leased);

  // A step of the running root that dispatches a map, releasing its first element.
  CommitRequest step = dispatch_first("r1", "r1:sum", 1, d->run_lease.token, RunStatus::kRunning);
  ASSERT_TRUE(db_->commit(step).ok());
  // The shape of a step_commit: the root's own header, and a map row.
  CommitRequest own;
  own.root_id = "r1";
  own.fencing_token = d->run_lease.token;
  own.headers = {header("r1", RunStatus::kWaiting)};
  own.maps = {step.maps[0]};
  own.maps[0].map_id = "r1:other";
  ASSERT_TRUE(db_->commit(own).ok());
  MapRow back;
  EXPECT_OK_AND_ASSIGN(back, db_->load_map("r1:other"));

  // The element is delivered, filed running apart from the roots.
  std::optional<Delivery> e;
  ASSERT_OK_AND_ASSIGN(e, db_->fetch(fetch));
  ASSERT_TRUE(e && e->run_leased && e->run_started);
  EXPECT_EQ(e->job.spec.run_id, "r1:sum[0]");
  RunFilter running;
  running.status = RunStatus::kRunning;
  std::vector<RunHeaderRow> listed;
  ASSERT_OK_AND_ASSIGN(listed, db_->list_runs(running));
  EXPECT_TRUE(listed.empty());
  running.elements = true;
  ASSERT_OK_AND_ASSIGN(listed, db_->list_runs(running));
  ASSERT_EQ(listed.size(), 1u);
  EXPECT_EQ(listed[0].id, "r1:sum[0]");

  // Its last commit, acking its job and releasing its lease, settles the map: the fetch that
  // rides on it brings the owner's resume.
  CommitRequest last;
  last.root_id = "r1:sum[0]";
  last.fencing_token = e->run_lease.token;
  last.headers = {header("r1:sum[0]", RunStatus::kCompleted, "r1", "r1:sum[0]")};
  last.ack_job = e->job.id;
  last.ack_owner = "w";
  last.release_lease = true;
  last.lease_owner = "w";
  last.settle = MapSettle{MapSlotRow{"r1:sum", 0, SlotState::kCompleted, "10"}};
  std::optional<Delivery> next;
  ASSERT_OK_AND_ASSIGN(next, db_->commit_then_fetch(last, fetch));
  ASSERT_TRUE(next);
  EXPECT_EQ(next->job.spec.run_id, "r1");
  EXPECT_EQ(next->job.spec.kind, JobKind::kResume);
  ASSERT_OK_AND_ASSIGN(back, db_->load_map("r1:sum"));
  EXPECT_EQ(back.state, MapState::kSettled);

  // The shape of a finish_commit (then a fetch): the root ends, with a map row.
  CommitRequest finish;
  finish.root_id = "r1";
  finish.fencing_token = d->run_lease.token;
  finish.headers = {header("r1", RunStatus::kCompleted)};
  finish.maps = {own.maps[0]};
  finish.maps[0].map_id = "r1:last";
  finish.ack_job = d->job.id;
  finish.ack_owner = "w";
  finish.release_lease = true;
  finish.lease_owner = "w";
  ASSERT_OK_AND_ASSIGN(next, db_->commit_then_fetch(finish, fetch));
  EXPECT_OK_AND_ASSIGN(back, db_->load_map("r1:last"));
}

// Owner r1 parks on a map of `total` elements, its first released; that element's last commit
// settles the map when it is the only one, and the fetch that rides on it brings what comes next.
std::optional<Delivery> park_then_settle_first(Backend& db, std::uint32_t total) {
  const FetchRequest fetch{{"q"}, "w", 30s, 10s};
  // A fetch that fails counts as a failure of the test and fetches nothing.
  const auto fetched = [&]() -> std::optional<Delivery> {
    Result<std::optional<Delivery>> r = db.fetch(fetch);
    EXPECT_TRUE(r.ok()) << r.status().to_string();
    return r.ok() ? *r : std::nullopt;
  };
  EXPECT_TRUE(db.commit(create_with_job("r1", "q")).ok());
  std::optional<Delivery> d = fetched();
  EXPECT_TRUE(d && d->run_leased);
  if (!d) return std::nullopt;
  CommitRequest park =
      dispatch_first("r1", "r1:unit", total, d->run_lease.token, RunStatus::kWaiting);
  park.ack_job = d->job.id;
  park.ack_owner = park.lease_owner = "w";
  park.release_lease = true;
  EXPECT_TRUE(db.commit(park).ok());
  std::optional<Delivery> e = fetched();
  EXPECT_TRUE(e && e->job.spec.run_id == "r1:unit[0]" && !e->settled_slot);
  if (!e) return std::nullopt;
  CommitRequest last;
  last.root_id = "r1:unit[0]";
  last.fencing_token = e->run_lease.token;
  last.headers = {header("r1:unit[0]", RunStatus::kCompleted, "r1", "r1:unit[0]")};
  last.ack_job = e->job.id;
  last.ack_owner = last.lease_owner = "w";
  last.release_lease = true;
  last.settle = MapSettle{MapSlotRow{"r1:unit", 0, SlotState::kCompleted, "10"}};
  Result<std::optional<Delivery>> next = db.commit_then_fetch(last, fetch);
  EXPECT_TRUE(next.ok());
  return next.ok() ? *next : std::nullopt;
}

// The resume an async unit's settle queues (a one-element map) comes with the unit's slot, so the
// owner does not ask for it; a larger map's does not (its owner reads the map and pages of slots).
TEST_F(RedisBackendTest, AUnitsResumeComesWithItsSlot) {
  std::optional<Delivery> resume = park_then_settle_first(*db_, 1);
  ASSERT_TRUE(resume && resume->run_leased && resume->run);
  EXPECT_EQ(resume->job.spec.run_id, "r1");
  EXPECT_EQ(resume->job.spec.kind, JobKind::kResume);
  ASSERT_TRUE(resume->settled_slot);
  EXPECT_EQ(resume->settled_slot->map_id, "r1:unit");
  EXPECT_EQ(resume->settled_slot->index, 0u);
  EXPECT_EQ(resume->settled_slot->state, SlotState::kCompleted);
  EXPECT_EQ(resume->settled_slot->body, "10");
  // Delivered again (its delivery handed back), it brings the slot again.
  ASSERT_TRUE(db_->release_job(resume->job.id, "w", 0ms).ok());
  ASSERT_TRUE(db_->release_lease(resume->run_lease.key, "w", resume->run_lease.token).ok());
  std::optional<Delivery> again;
  ASSERT_OK_AND_ASSIGN(again, db_->fetch({{"q"}, "w", 30s, 10s}));
  ASSERT_TRUE(again && again->settled_slot);
  EXPECT_EQ(again->settled_slot->body, "10");
}

TEST_F(RedisBackendTest, AMapsResumeComesWithoutASlot) {
  std::optional<Delivery> next = park_then_settle_first(*db_, 2);
  // The element's commit released the second element, whose start job is next.
  ASSERT_TRUE(next);
  EXPECT_EQ(next->job.spec.run_id, "r1:unit[1]");
  EXPECT_FALSE(next->settled_slot);
}

// A purged root takes its whole tree: maps at any depth, their element runs and every key of
// theirs; nothing under its id is left.
TEST_F(RedisBackendTest, APurgedRootLeavesNoKeyOfItsTree) {
  CommitRequest c = dispatch_map("r1", "r1:sum", 2);
  CommitRequest inner = dispatch_map("r1:sum[1]", "r1:sum[1]/inner", 2);
  c.headers.insert(c.headers.end(), inner.headers.begin(), inner.headers.end());
  c.maps.push_back(inner.maps[0]);
  c.headers.push_back(header("r1:sum[1]/inner[0]/child", RunStatus::kPending, "r1:sum[1]/inner[0]",
                             "r1:sum[1]/inner[0]"));
  c.enqueue = {job("q", "r1:sum[1]/inner[0]", 0, JobKind::kStart)};
  ASSERT_TRUE(db_->commit(c).ok());
  for (const auto& [map, i] : {std::pair{"r1:sum", 0}, std::pair{"r1:sum[1]/inner", 1}}) {
    CommitRequest report;
    report.settle =
        MapSettle{MapSlotRow{map, static_cast<std::uint32_t>(i), SlotState::kCompleted, "1"}};
    ASSERT_TRUE(db_->commit(report).ok());
  }
  bool granted = false;
  Lease lease;
  ASSERT_TRUE(
      assign_or_status(granted, lease, db_->acquire_lease(run_lease_key("r1:sum[0]"), "w", 10s))
          .ok());
  ASSERT_TRUE(db_->release_lease(lease.key, "w", lease.token).ok());
  RunHeaderRow done = header("r1", RunStatus::kCompleted);
  done.expires_at_ms = factory_.now_ms();
  CommitRequest end;
  end.headers = {done};
  ASSERT_TRUE(db_->commit(end).ok());
  std::size_t purged = 0;
  ASSERT_OK_AND_ASSIGN(purged, db_->purge_expired(10));
  EXPECT_EQ(purged, 1u);

  std::set<std::string> left;
  for (std::string key : factory_.raw().keys(factory_.prefix())) {
    key = key.substr(factory_.prefix().size());
    if (key.rfind("commit:", 0) != 0 && key.rfind("wake:", 0) != 0) left.insert(key);
  }
  // What the store keeps of every run ever filed: its counters and the reactors seen.
  EXPECT_EQ(left, (std::set<std::string>{"layout_version", "fencing_token", "job_ids", "reactors",
                                         "ereactors"}));
}

}  // namespace
}  // namespace reactor::conformance
