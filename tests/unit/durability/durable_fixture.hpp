// The durable-engine fixture of tests/unit/durability: an engine on the memory
// backend behind a wrapper that counts commits, logs the worker's calls and can
// refuse loads; time is a ManualClock.
#pragma once

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
#include "support/result_testing.hpp"

namespace reactor::durable_test {

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
  Result<StoredRun> load_run(const std::string& id) override {
    if (refuse_loads) return Status::Unavailable("store busy (injected)");
    if (Status s = check_readable(id); !s.ok()) return s;
    return BackendWrapper::load_run(id);
  }
  Result<RunHeaderRow> load_header(const std::string& id) override {
    if (Status s = check_readable(id); !s.ok()) return s;
    return BackendWrapper::load_header(id);
  }
  Result<std::optional<Delivery>> fetch(const FetchRequest& f) override {
    Result<std::optional<Delivery>> fetched = BackendWrapper::fetch(f);
    std::optional<Delivery> none;
    std::optional<Delivery>& out = fetched.ok() ? *fetched : none;
    if (out && (refuse_loads || !check_readable(out->job.spec.run_id).ok())) out->run.reset();
    if (out && hide_started) out->run_started = false;
    log(out ? "fetch:job" : "fetch:none");
    return fetched;
  }
  Status wait_for_jobs(const std::vector<std::string>& queues, Duration max_wait) override {
    log("wait");
    return BackendWrapper::wait_for_jobs(queues, max_wait);
  }
  // The combined calls as their two parts, so the overrides above see them.
  Result<std::optional<Delivery>> commit_then_fetch(const CommitRequest& c,
                                                    const FetchRequest& f) override {
    return Backend::commit_then_fetch(c, f);
  }
  Result<std::optional<Delivery>> wait_then_fetch(const FetchRequest& f,
                                                  Duration max_wait) override {
    return JobQueue::wait_then_fetch(f, max_wait);
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
    ASSERT_OK_AND_ASSIGN(memory, open_backend("memory:", clock_));
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
      if (assign_or_status(h, store_->load_header(id)).ok() && h.status == status) return h;
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
    EXPECT_OK_AND_ASSIGN(id, engine_->run_in_background("Five", {{"n", 0}}));
    store_->refuse_loads = true;
    return id;
  }

  std::shared_ptr<ManualClock> clock_ = std::make_shared<ManualClock>();
  WatchedBackend* store_ = nullptr;
  std::unique_ptr<Engine> engine_;
};

}  // namespace reactor::durable_test
