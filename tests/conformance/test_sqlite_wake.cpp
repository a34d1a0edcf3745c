// SQLite wake-ups (docs/storage.md "Wake-ups"): an idle worker's wait_for_jobs ends when a
// commit on any connection makes a job of its queues deliverable, when the next job falls due,
// or when interrupt_waits is called — not at its max_wait. Every wait here asks for 20 s and
// must end within 10: one that ends only at its max_wait fails the test.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <future>
#include <thread>

#include "reactor/backend.hpp"
#include "reactor/backend_wrapper.hpp"
#include "reactor/builder.hpp"
#include "reactor/engine.hpp"
#include "reactor/worker.hpp"
#include "support/result_testing.hpp"

namespace reactor {
namespace {

using namespace std::chrono_literals;

constexpr Duration kLongWait = 20s;
constexpr auto kEnds = 10s;       // a wait woken as it should ends well within this
constexpr auto kBlocked = 300ms;  // a wait nobody woke is still blocked after this

class SqliteWake : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/reactor-wake-XXXXXX";
    ASSERT_NE(::mkdtemp(tmpl), nullptr);
    dir_ = tmpl;
    url_ = "sqlite://" + dir_ + "/wake.db";
    waiter_ = open();
    other_ = open();  // another connection, as another process would have
  }
  void TearDown() override {
    waiter_.reset();
    other_.reset();
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }

  std::unique_ptr<Backend> open(std::shared_ptr<Clock> clock = nullptr) {
    std::unique_ptr<Backend> db;
    Status s = assign_or_status(db, open_backend(url_, std::move(clock)));
    EXPECT_TRUE(s.ok()) << s.to_string();
    return db;
  }

  // A root run with one job in `queue`, due `delay` from now.
  static CommitRequest create(const std::string& id, const std::string& queue,
                              std::chrono::milliseconds delay = 0ms) {
    CommitRequest c;
    RunHeaderRow h;
    h.id = h.root_id = id;
    h.reactor = "OrderSaga";
    h.status = RunStatus::kEnqueued;
    h.body = "{}";
    c.create = true;
    c.headers = {h};
    JobSpec job;
    job.queue = queue;
    job.run_id = id;
    job.reactor = "OrderSaga";
    job.run_at_ms = to_unix_ms(SystemClock::instance()->now()) + delay.count();
    c.enqueue = {job};
    return c;
  }

  // waiter_->wait_for_jobs(queues, kLongWait), on its own thread.
  std::future<Status> wait_async(std::vector<std::string> queues) {
    return std::async(std::launch::async,
                      [this, queues] { return waiter_->wait_for_jobs(queues, kLongWait); });
  }
  // The same, once it blocks: what ends it then is the wake-up, not its first read.
  std::future<Status> wait_on(std::vector<std::string> queues) {
    auto waiting = wait_async(std::move(queues));
    EXPECT_EQ(waiting.wait_for(kBlocked), std::future_status::timeout);
    return waiting;
  }

  // What `db` fetches from "q" for `owner` (nullopt: nothing, or an error, reported).
  static std::optional<Delivery> fetch_from(Backend& db, const std::string& owner,
                                            Duration visibility = 30s) {
    std::optional<Delivery> d;
    Status s = assign_or_status(d, db.fetch({{"q"}, owner, visibility, 10s}));
    EXPECT_TRUE(s.ok()) << s.to_string();
    return d;
  }

  static void expect_ends(std::future<Status>& waiting) {
    ASSERT_EQ(waiting.wait_for(kEnds), std::future_status::ready);
    Status s = waiting.get();
    EXPECT_TRUE(s.ok()) << s.to_string();
  }

  std::string dir_, url_;
  std::unique_ptr<Backend> waiter_, other_;
};

TEST_F(SqliteWake, OnlyTheSystemClockWakesWaiters) {
  EXPECT_TRUE(waiter_->wakes_waiters());
  // A test's clock is not the host's: due times read from it cannot be slept on.
  EXPECT_FALSE(open(std::make_shared<ManualClock>())->wakes_waiters());
}

TEST_F(SqliteWake, AnEnqueueOnAnotherConnectionEndsTheWait) {
  auto waiting = wait_on({"q"});
  ASSERT_TRUE(other_->commit(create("r1", "q")).ok());
  expect_ends(waiting);
  std::optional<Delivery> d = fetch_from(*waiter_, "w");
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(d->job.spec.run_id, "r1");
}

TEST_F(SqliteWake, AWaitForAQueueWithAJobDueReturnsAtOnce) {
  ASSERT_TRUE(other_->commit(create("r1", "q")).ok());
  auto waiting = wait_async({"q"});
  expect_ends(waiting);
}

TEST_F(SqliteWake, AnEnqueueForAnotherQueueLeavesTheWaitBlocked) {
  auto waiting = wait_on({"q"});
  ASSERT_TRUE(other_->commit(create("elsewhere", "other")).ok());
  EXPECT_EQ(waiting.wait_for(kBlocked), std::future_status::timeout);
  ASSERT_TRUE(other_->commit(create("r1", "q")).ok());
  expect_ends(waiting);
}

TEST_F(SqliteWake, TheWaitEndsWhenTheNextJobFallsDue) {
  // Enqueued before the wait: no touch will come, only its run_at ends the wait.
  ASSERT_TRUE(other_->commit(create("later", "q", 600ms)).ok());
  auto waiting = wait_on({"q"});
  expect_ends(waiting);
  std::optional<Delivery> d = fetch_from(*waiter_, "w");
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(d->job.spec.run_id, "later");
}

TEST_F(SqliteWake, TheWaitEndsWhenADeliveryLapses) {
  ASSERT_TRUE(other_->commit(create("r1", "q")).ok());
  std::optional<Delivery> first = fetch_from(*other_, "dead", 600ms);
  ASSERT_TRUE(first.has_value());
  auto waiting = wait_on({"q"});
  expect_ends(waiting);
  std::optional<Delivery> again = fetch_from(*waiter_, "w");
  ASSERT_TRUE(again.has_value());
  EXPECT_EQ(again->job.id, first->job.id);
}

TEST_F(SqliteWake, AJobHandedBackEndsTheWait) {
  ASSERT_TRUE(other_->commit(create("r1", "q")).ok());
  std::optional<Delivery> d = fetch_from(*other_, "leaving");
  ASSERT_TRUE(d.has_value());
  auto waiting = wait_on({"q"});
  ASSERT_TRUE(other_->release_job(d->job.id, "leaving", Duration::zero()).ok());
  expect_ends(waiting);
}

TEST_F(SqliteWake, InterruptWaitsEndsTheWait) {
  auto waiting = wait_on({"q"});
  waiter_->interrupt_waits();
  expect_ends(waiting);
}

// A worker on SQLite blocks for its idle_wait in one call, picks a run up when it is started
// elsewhere, and a stop ends its wait instead of sitting it out.
TEST_F(SqliteWake, AnIdleWorkerIsWokenByAStartAndStopsWithoutSittingOutItsWait) {
  EngineOptions options;
  options.backend = std::move(waiter_);
  Engine engine(std::move(options));
  Builder b("Once");
  b.step("only", [](const Args&) { return Success(1); });
  engine.registry().add(b.build());
  WorkerOptions w;
  w.sweeper = false;
  w.idle_wait = kLongWait;
  Worker worker(engine, w);
  worker.start();
  std::this_thread::sleep_for(kBlocked);  // idle by now
  EngineOptions starter_options;
  starter_options.backend = std::move(other_);
  Engine starter(std::move(starter_options));
  starter.registry().add(b.build());
  std::string id;
  ASSERT_OK_AND_ASSIGN(id, starter.run_in_background("Once", Value::object()));
  RunHeaderRow h;
  const auto give_up = std::chrono::steady_clock::now() + kEnds;
  do {
    std::this_thread::sleep_for(10ms);
    ASSERT_OK_AND_ASSIGN(h, starter.backend()->load_header(id));
  } while (h.status != RunStatus::kCompleted && std::chrono::steady_clock::now() < give_up);
  EXPECT_EQ(h.status, RunStatus::kCompleted);
  auto stopped = std::async(std::launch::async, [&] {
    worker.stop();
    worker.wait();
  });
  EXPECT_EQ(stopped.wait_for(kEnds), std::future_status::ready);
}

// Counts the queue requests a worker makes: its fetches and its waits (each wait a request).
class QueueRequests : public BackendWrapper {
 public:
  using BackendWrapper::BackendWrapper;
  Result<std::optional<Delivery>> fetch(const FetchRequest& f) override {
    ++count;
    return BackendWrapper::fetch(f);
  }
  Result<std::optional<Delivery>> wait_then_fetch(const FetchRequest& f,
                                                  Duration max_wait) override {
    ++count;
    return BackendWrapper::wait_then_fetch(f, max_wait);
  }
  std::atomic<int> count{0};
};

// No busy polling: an idle worker on SQLite asks once and then blocks in one wait, where a
// polling one (1 ms doubling to 50 ms) would have asked about twenty-five times by now.
TEST_F(SqliteWake, AnIdleWorkerMakesOneWaitNotAStreamOfPolls) {
  auto counted = std::make_unique<QueueRequests>(std::move(waiter_));
  QueueRequests& requests = *counted;
  EngineOptions options;
  options.backend = std::move(counted);
  Engine engine(std::move(options));
  WorkerOptions w;
  w.sweeper = false;
  w.queues = {"q"};
  w.idle_wait = kLongWait;
  Worker worker(engine, w);
  worker.start();
  std::this_thread::sleep_for(1s);
  EXPECT_LE(requests.count.load(), 2);  // the first fetch, then one wait_then_fetch
  worker.stop();
  worker.wait();
}

}  // namespace
}  // namespace reactor
