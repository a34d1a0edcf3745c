#include "durability/inline_jobs.hpp"

#include "reactor/ids.hpp"

namespace reactor {

Status drain_inline(DurableEnv& env, const std::string& queue) {
  for (;;) {
    const std::string owner = new_run_id();
    const TimePoint asked_at = env.clock.now();
    Result<std::optional<Delivery>> fetched = env.backend.fetch(
        {{queue}, owner, env.options.lease_ttl, env.options.lease_ttl, env.worker_id});
    if (!fetched.ok()) return fetched.status();
    std::optional<Delivery>& d = *fetched;
    if (!d) return Status::Ok();
    DeliveryOptions o;
    o.asked_at = asked_at;
    o.yield_on_retry_wait = false;
    if (process_delivery(env, *d, owner, o) == DeliveryOutcome::kBackendError) {
      return Status::Unavailable("inline job for run " + d->job.spec.run_id +
                                 " could not be written; a worker will retry it");
    }
  }
}

}  // namespace reactor
