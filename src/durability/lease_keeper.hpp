// LeaseKeeper: the heartbeat that keeps the leases of runs this process is
// executing alive, extending each every ttl/3. A lease that cannot be
// extended (another writer took it) is marked lost; the run's next fenced
// commit fails with LeaseLost and its executor stops.
#pragma once

#include <atomic>
#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <thread>

#include "reactor/clock.hpp"
#include "reactor/leases.hpp"

namespace reactor {

class LeaseKeeper {
 public:
  // A lease under heartbeat. Shared with the runner that executes the run.
  struct Entry {
    Lease lease;
    Duration ttl{};
    std::atomic<bool> lost{false};
    // Set when a step of the run overran its timeout by far: the heartbeat
    // stops, so a hung thread cannot hold the run forever.
    std::atomic<bool> abandoned{false};
  };

  LeaseKeeper(Leases& leases, Clock& clock);
  ~LeaseKeeper();  // stops the heartbeat thread

  std::shared_ptr<Entry> keep(const Lease& lease, Duration ttl);
  void drop(const std::shared_ptr<Entry>& entry);

  // One heartbeat pass, now (tests call this instead of waiting).
  void beat();

 private:
  void loop(std::stop_token stop);

  Leases& leases_;
  Clock& clock_;
  std::mutex mu_;
  std::map<Entry*, std::shared_ptr<Entry>> entries_;
  std::jthread thread_;
};

}  // namespace reactor
