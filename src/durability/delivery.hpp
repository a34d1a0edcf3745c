// Executing one delivered job: take what the fetch brought (the job, the
// run's lease, usually the run's rows), decide what the job means for its
// run, and carry the run on under its fenced lease.
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <string>

#include "durability/durable_env.hpp"
#include "durability/writer.hpp"

namespace reactor {

// A delivery being executed, as its worker sees it from another thread, to
// hand it back at once when it must stop without waiting for its step.
struct InFlight {
  std::mutex mu;
  std::shared_ptr<LeaseKeeper::Entry> lease;  // set while its run executes
  std::int64_t job_id = 0;
  std::string owner;
};

struct DeliveryOptions {
  // The engine's clock before the request that fetched the delivery: its
  // run's lease is trusted from here for its ttl.
  TimePoint asked_at{};
  // A retry that is not yet due suspends the run; false (inline jobs, which
  // run in their caller): it is waited for on the clock.
  bool yield_on_retry_wait = true;
  // The commit that ends the run also fetches the worker's next job here.
  NextDelivery* next = nullptr;
  // Set by a worker shutting down: the steps in flight finish, then the run is
  // handed back unfinished (ExecuteHooks::release_requested).
  const std::atomic<bool>* release_requested = nullptr;
  // Filed here while the run executes, for abandon().
  InFlight* in_flight = nullptr;
};

// Executes one delivered job.
DeliveryOutcome process_delivery(DurableEnv& env, const Delivery& delivery,
                                 const std::string& owner, const DeliveryOptions& options);

// What a delivery that ends with a commit comes to: `if_ok` when it was applied.
DeliveryOutcome committed(const Status& commit, DeliveryOutcome if_ok);

// Files the lease of the delivery executing in `in_flight` (when given) for abandon(); nullptr:
// it executes no more.
void file_in_flight(InFlight* in_flight, std::shared_ptr<LeaseKeeper::Entry> lease,
                    const Delivery& d, const std::string& owner);

// Hands the delivery filed in `in_flight` back at once, without waiting for
// its step: its execution may commit and start nothing more (its lease is
// marked lost), the lease is released and the job due again now. The step in
// flight runs again elsewhere. Returns the first error of the two releases.
Status abandon(DurableEnv& env, InFlight& in_flight);

// Gives back a delivered job this process will not execute (a worker that
// stops with a job it fetched ahead): its run is released as it was found and
// the job is due again after `delay`. Returns the first error of the two.
Status put_back(DurableEnv& env, const Delivery& delivery, const std::string& owner,
                Duration delay);

}  // namespace reactor
