// DurableEnv: what the durable paths of a run share — the registry, the
// backend, the clock, the options, the lease heartbeat — and the executor
// they drive runs with. The Engine owns one when it has a backend; its
// Worker executes deliveries through it.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>

#include "durability/lease_keeper.hpp"
#include "execution/execute.hpp"
#include "reactor/backend.hpp"
#include "reactor/durability.hpp"
#include "reactor/registry.hpp"

namespace reactor {

// The queue of a reactor's jobs: `options.queue_for` of its home reactor (Registry::home_of: an
// element reactor's is the reactor that registered it, which its workers serve), or that name.
inline std::string queue_of(const Registry& registry, const DurabilityOptions& options,
                            const std::string& reactor) {
  const std::string home = registry.home_of(reactor);
  return options.queue_for ? options.queue_for(home) : home;
}

struct DurableEnv {
  Registry& registry;
  Backend& backend;
  Clock& clock;
  const DurabilityOptions& options;
  LeaseKeeper& keeper;
  // Runs the executor on a run tree with the given options; a new run (not
  // stored yet) is written whole by its first commit.
  std::function<ExecuteOutcome(Run&, const Definition&, const ExecuteOptions&, bool run_is_new)>
      execute;
  // Undoes the completed steps of a stored run, newest first (execute_undo): a fan-out map's
  // element, rolled back by its owner.
  std::function<ExecuteOutcome(Run&, const Definition&, const ExecuteOptions&,
                               std::vector<RollbackFailure>& failures)>
      undo;
  // Jitter for snoozes: uniform in [0, max].
  std::function<Duration(Duration max)> jitter;
  // Commits that recorded step progress (a step's result, failure, retry or
  // compensation), by every execution of this engine: what a worker reports
  // its store requests against.
  std::atomic<std::uint64_t> durable_steps{0};
  // This process, in trace events and run headers: "<host>:<pid>".
  std::string worker_id;
  // Calls fn on every observer of runs of `def` (the engine's, then the reactor's), catching
  // what they throw: for events outside an execution (coordination's).
  std::function<void(const Definition& def, const std::function<void(Observer&)>& fn)> observe;

  std::string queue_for(const std::string& reactor) const {
    return queue_of(registry, options, reactor);
  }
  std::int64_t now_ms() const { return to_unix_ms(clock.now()); }
  std::int64_t expiry_ms() const { return to_unix_ms(clock.now() + options.context_ttl); }
  // The job that resumes root run `run`, due at `at_ms`.
  JobSpec resume_job(const Run& run, std::int64_t at_ms) const {
    return JobSpec{queue_for(run.reactor), JobKind::kResume, run.id, run.reactor, at_ms, 0};
  }
};

}  // namespace reactor
