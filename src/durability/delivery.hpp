// Executing one delivered job: take what the fetch brought (the job, the
// run's lease, usually the run's rows), decide what the job means for its
// run, and carry the run on under its fenced lease.
#pragma once

#include <string>

#include "durability/durable_env.hpp"
#include "durability/writer.hpp"

namespace reactor {

// Executes one delivered job. A retry that is not yet due suspends the run
// (`yield_on_retry_wait`) or waits for it on the clock (inline jobs, which run
// in their caller). With `next`, the commit that ends the run also fetches
// the next job.
DeliveryOutcome process_delivery(DurableEnv& env, const Delivery& delivery,
                                 const std::string& owner, bool yield_on_retry_wait = true,
                                 NextDelivery* next = nullptr);

// Gives back a delivered job this process will not execute (a worker that
// stops with a job it fetched ahead): its run is released as it was found and
// the job is due again after `delay`. Returns the first error of the two.
Status hand_back(DurableEnv& env, const Delivery& delivery, const std::string& owner,
                 Duration delay);

}  // namespace reactor
