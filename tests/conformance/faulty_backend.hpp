// What the fan-out and async-unit scenarios share: a side-effect log keyed by idempotency key,
// a backend that injects the faults a test names (commits refused, deliveries lost or held by a
// worker that died) and checks back-pressure at every commit, and the engine and worker
// settings they run with.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "reactor/backend_wrapper.hpp"
#include "reactor/engine.hpp"
#include "reactor/worker.hpp"

namespace reactor::conformance {

// What element bodies and undos did: (kind, idempotency key), in order. 'S' a body that
// completed, 'F' one that failed, 'U' an undo.
class Effects {
 public:
  void add(char kind, std::string key) {
    std::lock_guard lock(mu_);
    log_.emplace_back(kind, std::move(key));
  }
  // How many entries of one kind have a key containing `part`.
  int count_containing(char kind, const std::string& part) const {
    std::lock_guard lock(mu_);
    return static_cast<int>(std::count_if(log_.begin(), log_.end(), [&](const auto& e) {
      return e.first == kind && e.second.find(part) != std::string::npos;
    }));
  }
  int count(char kind, const std::string& key) const {
    std::lock_guard lock(mu_);
    return static_cast<int>(std::count(log_.begin(), log_.end(), std::make_pair(kind, key)));
  }
  // The keys of one kind, in order, with `run_id` cut from their front.
  std::vector<std::string> keys(char kind, const std::string& run_id) const {
    std::lock_guard lock(mu_);
    std::vector<std::string> out;
    for (const auto& [k, key] : log_) {
      if (k == kind) out.push_back(key.rfind(run_id, 0) == 0 ? key.substr(run_id.size()) : key);
    }
    return out;
  }

 private:
  mutable std::mutex mu_;
  std::vector<std::pair<char, std::string>> log_;
};

// Refuses commits a test names (a process that died before its commit), and checks at every
// commit that no map has more than its batch_size elements released and unreported.
class FaultyBackend : public BackendWrapper {
 public:
  using BackendWrapper::BackendWrapper;

  // Called with every commit; true refuses it (Unavailable), once per call that says so.
  std::function<bool(const CommitRequest&)> refuse;
  // Called with every job delivered; true loses it: acknowledged, as by a worker that then died
  // without doing it, and not handed to the caller.
  std::function<bool(const Job&)> lose;
  // Called with every job delivered; true keeps it from the caller as if the worker that fetched
  // it died at once: its delivery and its run's lease stay held until they lapse.
  std::function<bool(const Job&)> die_with;
  std::atomic<int> refused{0};
  std::atomic<std::uint32_t> most_outstanding{0};
  // Sets `refuse` while workers may be committing (assigning it directly is for before they start).
  void set_refuse(std::function<bool(const CommitRequest&)> f) {
    std::lock_guard lock(mu_);
    refuse = std::move(f);
  }
  std::atomic<std::uint32_t> batch_size{0};
  // Reads of map slots, and deliveries handed over with a settled unit's slot (Delivery::
  // settled_slot): a resumed owner reads the slot its delivery brought from the delivery.
  std::atomic<int> slot_reads{0};
  std::atomic<int> slots_delivered{0};
  // Reads of presence leases ("serving:<queue>"): whether a worker serves a queue.
  std::atomic<int> presence_peeks{0};

  Result<Lease> peek_lease(const std::string& key) override {
    if (key.rfind("serving:", 0) == 0) ++presence_peeks;
    return BackendWrapper::peek_lease(key);
  }

  Result<std::vector<MapSlotRow>> load_map_slots(const std::string& map_id, std::uint32_t first,
                                                 std::uint32_t limit) override {
    ++slot_reads;
    return BackendWrapper::load_map_slots(map_id, first, limit);
  }
  Status commit(const CommitRequest& c) override {
    if (should_refuse(c)) return Status::Unavailable("commit refused (injected)");
    Status s = BackendWrapper::commit(c);
    check_window(c);
    return s;
  }
  Result<std::optional<Delivery>> commit_then_fetch(const CommitRequest& c,
                                                    const FetchRequest& f) override {
    if (should_refuse(c)) return Status::Unavailable("commit refused (injected)");
    Result<std::optional<Delivery>> next = BackendWrapper::commit_then_fetch(c, f);
    check_window(c);
    if (next.ok()) lose_if_asked(*next, f.owner);
    return next;
  }
  Result<std::optional<Delivery>> fetch(const FetchRequest& f) override {
    Result<std::optional<Delivery>> out = BackendWrapper::fetch(f);
    if (out.ok()) lose_if_asked(*out, f.owner);
    return out;
  }
  Result<std::optional<Delivery>> wait_then_fetch(const FetchRequest& f,
                                                  Duration max_wait) override {
    Result<std::optional<Delivery>> out = BackendWrapper::wait_then_fetch(f, max_wait);
    if (out.ok()) lose_if_asked(*out, f.owner);
    return out;
  }

 private:
  void lose_if_asked(std::optional<Delivery>& d, const std::string& owner) {
    std::function<bool(const Job&)> f, dies;
    {
      std::lock_guard lock(mu_);
      f = lose;
      dies = die_with;
    }
    if (d && dies && dies(d->job)) {
      d.reset();
      return;
    }
    if (!d) return;
    if (!f || !f(d->job)) {  // handed to the caller
      if (d->settled_slot) ++slots_delivered;
      return;
    }
    CommitRequest ack;
    ack.ack_job = d->job.id;
    ack.ack_owner = owner;
    (void)BackendWrapper::commit(ack);
    if (d->run_leased) {
      (void)BackendWrapper::release_lease(d->run_lease.key, d->run_lease.owner, d->run_lease.token);
    }
    d.reset();
  }
  bool should_refuse(const CommitRequest& c) {
    std::function<bool(const CommitRequest&)> f;
    {
      std::lock_guard lock(mu_);
      f = refuse;
    }
    if (!f || !f(c)) return false;
    ++refused;
    return true;
  }
  void check_window(const CommitRequest& c) {
    std::string map_id;
    if (c.settle) map_id = c.settle->slots.front().map_id;
    if (!c.maps.empty()) map_id = c.maps.front().map_id;
    if (map_id.empty()) return;
    Result<MapRow> loaded = BackendWrapper::load_map(map_id);
    if (!loaded.ok()) return;
    const MapRow& m = *loaded;
    const std::uint32_t out = m.released - std::min(m.released, m.done);
    std::uint32_t seen = most_outstanding.load();
    while (out > seen && !most_outstanding.compare_exchange_weak(seen, out)) {
    }
    batch_size = m.batch_size;
  }
  std::mutex mu_;
};

// The engine settings of the scenarios: a lease of `lease_ttl`, and a duplicate delivery put
// off 50 ms, no jitter.
inline EngineOptions scenario_options(std::shared_ptr<Clock> clock, std::shared_ptr<Backend> store,
                                      Duration lease_ttl) {
  EngineOptions options;
  options.clock = std::move(clock);
  options.backend = std::move(store);
  options.durability.lease_ttl = lease_ttl;
  options.durability.lock_snooze_base_delay = std::chrono::milliseconds(50);
  options.durability.lock_snooze_jitter = Duration::zero();
  return options;
}

// A started worker of `threads` threads that polls fast, without a sweeper of its own: the
// scenarios sweep when they mean to.
inline std::unique_ptr<Worker> scenario_worker(Engine& engine, int threads) {
  WorkerOptions w;
  w.threads = threads;
  w.sweeper = false;
  w.poll_interval = std::chrono::milliseconds(2);
  w.idle_wait = std::chrono::milliseconds(20);
  auto worker = std::make_unique<Worker>(engine, w);
  worker->start();
  return worker;
}

// A run started in the background; its id.
inline std::string start_in_background(Engine& engine, const std::string& reactor, Value inputs) {
  Result<std::string> id = engine.run_in_background(reactor, std::move(inputs));
  EXPECT_TRUE(id.ok()) << id.status().to_string();
  return std::move(id).value_or("");
}

}  // namespace reactor::conformance
