#include "durability/presence.hpp"

#include <utility>

namespace reactor {

std::string serving_lease_key(const std::string& queue) { return "serving:" + queue; }

PresenceKeeper::PresenceKeeper(Backend& backend, std::vector<std::string> queues, std::string owner,
                               Duration ttl)
    : backend_(backend), queues_(std::move(queues)), owner_(std::move(owner)), ttl_(ttl) {}

void PresenceKeeper::renew() {
  for (const std::string& queue : queues_) {
    const std::string key = serving_lease_key(queue);
    if (auto it = held_.find(queue); it != held_.end()) {
      if (backend_.extend_lease(key, owner_, it->second, ttl_).ok()) continue;
      held_.erase(it);  // lapsed (a pause longer than its ttl): take it again if free
    }
    Result<LeaseGrant> grant = backend_.acquire_lease(key, owner_, ttl_);
    if (grant.ok() && grant->granted) held_[queue] = grant->lease.token;
  }
}

void PresenceKeeper::release() {
  for (const auto& [queue, token] : held_) {
    (void)backend_.release_lease(serving_lease_key(queue), owner_, token);
  }
  held_.clear();
}

bool queue_is_served(Backend& backend, const std::string& queue) {
  Result<Lease> lease = backend.peek_lease(serving_lease_key(queue));
  if (!lease.ok()) return true;
  return !lease->owner.empty();
}

}  // namespace reactor
