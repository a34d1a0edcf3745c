// LeaseKeeper: the heartbeat that keeps the leases of runs this process is
// executing alive, extending each every ttl/3. A lease that cannot be
// extended (another writer took it) is marked lost; the run's next fenced
// commit fails with LeaseLost and its executor stops.
//
// A lease is trusted only until its deadline, measured on this process's
// clock from before the request that granted or last extended it: a process
// paused past it (SIGSTOP, a long GC-like stall, a frozen VM) wakes up with a
// deadline in the past whatever the store says, and ensure() then proves the
// lease is still its own (a fenced extend) before any step body starts.
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
    // Until when (Clock time, ns since the epoch) the lease is surely held.
    std::atomic<Duration::rep> valid_until{0};
    // Set when a step of the run overran its timeout by far: the heartbeat
    // stops, so a hung thread cannot hold the run forever.
    std::atomic<bool> abandoned{false};
  };

  LeaseKeeper(Leases& leases, Clock& clock);
  ~LeaseKeeper();  // stops the heartbeat thread

  // `granted_from`: an instant no later than the store's grant of `lease`
  // (taken before the request that granted it).
  std::shared_ptr<Entry> keep(const Lease& lease, Duration ttl, TimePoint granted_from);
  void drop(const std::shared_ptr<Entry>& entry);

  // One heartbeat pass, now (tests call this instead of waiting).
  void beat();

  // Ok when at least `margin` of the lease's trusted time is left, or after
  // extending it (fenced by its token) when less is; LeaseLost when it is
  // someone else's now, Unavailable when the store could not say. What runs
  // before every step body, compensate and undo.
  Status ensure(Entry& entry, Duration margin);

 private:
  void loop(std::stop_token stop);
  // Extends `entry`'s lease now; on success its deadline moves to ttl from
  // before the request.
  Status extend(Entry& entry);

  Leases& leases_;
  Clock& clock_;
  std::mutex mu_;
  std::map<Entry*, std::shared_ptr<Entry>> entries_;
  std::jthread thread_;
};

}  // namespace reactor
