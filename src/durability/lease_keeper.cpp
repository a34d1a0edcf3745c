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

std::shared_ptr<LeaseKeeper::Entry> LeaseKeeper::keep(const Lease& lease, Duration ttl) {
  auto e = std::make_shared<Entry>();
  e->lease = lease;
  e->ttl = ttl;
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
    Status s = leases_.extend_lease(e->lease.key, e->lease.owner, e->lease.token, e->ttl);
    // Unavailable: keep trying; the lease may still be ours when the store
    // comes back. LeaseLost: someone newer holds it; stop for good.
    if (s.code() == StatusCode::kLeaseLost) e->lost = true;
  }
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
