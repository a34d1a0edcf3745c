// Presence: whether a live worker serves a queue, seen through the store. Each worker keeps a
// lease "serving:<queue>" for the queues it serves: one worker holds it at a time, renewing it
// every third of its ttl; the others find it held and leave it. A worker that dies lets it lapse
// within its ttl, and the next live one takes it over. A caller that would wait for work only a
// worker can do (an async unit a step reads) asks first, and hands the run off instead of
// waiting for nobody (docs/async.md).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "reactor/backend.hpp"
#include "reactor/clock.hpp"

namespace reactor {

std::string serving_lease_key(const std::string& queue);

// The serving leases of one worker process. Not thread-safe: one thread renews them.
class PresenceKeeper {
 public:
  PresenceKeeper(Backend& backend, std::vector<std::string> queues, std::string owner,
                 Duration ttl);
  // Takes each free lease, extends each of its own; one request per queue. A store that fails
  // is retried at the next renewal.
  void renew();
  // Releases its own leases (a worker that stops): a caller then sees at once that nobody serves.
  void release();

 private:
  Backend& backend_;
  std::vector<std::string> queues_;
  std::string owner_;
  Duration ttl_;
  std::map<std::string, std::uint64_t> held_;  // queue -> token of its lease, while it is ours
};

// Whether a live worker serves `queue`. A store that cannot say is taken as a yes: the caller
// then waits as it would have.
bool queue_is_served(Backend& backend, const std::string& queue);

}  // namespace reactor
