#include "durability/lease_keeper.hpp"

#include <algorithm>
#include <vector>

namespace reactor {

LeaseKeeper::LeaseKeeper(Leases& leases, Clock& clock) : leases_(leases), clock_(clock) {}

LeaseKeeper::~LeaseKeeper() {
  if (!thread_.joinable()) return;
  thread_.request_stop();
  thread_.join();
}

std::shared_ptr<LeaseKeeper::Entry> LeaseKeeper::keep(const Lease& lease, Duration ttl,
                                                      TimePoint granted_from) {
  auto e = std::make_shared<Entry>();
  e->lease = lease;
  e->ttl = ttl;
  e->valid_until = (granted_from + ttl).time_since_epoch().count();
  std::lock_guard lock(mu_);
  entries_[e.get()] = e;
  // Started by the first lease, not with the engine: commands that only
  // read runs (show, runs) never start a heartbeat thread.
  if (!thread_.joinable()) thread_ = std::jthread([this](std::stop_token s) { loop(s); });
  return e;
}

void LeaseKeeper::drop(const std::shared_ptr<Entry>& entry) {
  std::lock_guard lock(mu_);
  entries_.erase(entry.get());
}

void LeaseKeeper::beat() {
  std::vector<std::shared_ptr<Entry>> due;
  {
    std::lock_guard lock(mu_);
    for (auto& [_, e] : entries_) due.push_back(e);
  }
  for (auto& e : due) {
    if (e->lost || e->abandoned) continue;
    // Unavailable: keep trying; the lease may still be ours when the store
    // comes back. LeaseLost: someone newer holds it; extend() marks it lost.
    (void)extend(*e);
  }
}

Status LeaseKeeper::extend(Entry& e) {
  const TimePoint asked = clock_.now();
  Status s = leases_.extend_lease(e.lease.key, e.lease.owner, e.lease.token, e.ttl);
  if (s.ok()) {
    // Never backwards: a slow heartbeat reply must not shorten a newer extension.
    const Duration::rep until = (asked + e.ttl).time_since_epoch().count();
    Duration::rep seen = e.valid_until.load();
    while (seen < until && !e.valid_until.compare_exchange_weak(seen, until)) {
    }
  } else if (s.code() == StatusCode::kLeaseLost) {
    e.lost = true;
  }
  return s;
}

Status LeaseKeeper::ensure(Entry& e, Duration margin) {
  if (e.lost) return Status::LeaseLost("lease " + e.lease.key + " was taken over");
  const Duration left = Duration(e.valid_until.load()) - clock_.now().time_since_epoch();
  if (left >= margin) return Status::Ok();
  Status s = extend(e);
  if (s.code() == StatusCode::kLeaseLost || s.ok()) return s;
  return Status::Unavailable("cannot prove lease " + e.lease.key +
                             " is still held: " + s.message());
}

void LeaseKeeper::loop(std::stop_token stop) {
  // The shortest ttl/3 of the leases held, re-read every pass.
  while (!stop.stop_requested()) {
    Duration period = std::chrono::seconds(1);
    {
      std::lock_guard lock(mu_);
      for (auto& [_, e] : entries_) period = std::min(period, e->ttl / 3);
    }
    period = std::max<Duration>(period, std::chrono::milliseconds(10));
    if (clock_.wait_until(clock_.now() + period, stop)) beat();
  }
}

}  // namespace reactor
