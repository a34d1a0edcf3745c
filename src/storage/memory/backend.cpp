#include "storage/memory/backend.hpp"

#include <algorithm>

namespace reactor {

MemoryBackend::MemoryBackend(std::shared_ptr<Clock> clock, std::string url)
    : clock_(clock ? std::move(clock) : SystemClock::instance()), url_(std::move(url)) {}

std::string MemoryBackend::describe() const { return url_; }

bool MemoryBackend::lease_live(const Lease& l, std::int64_t now) const {
  return !l.owner.empty() && l.expires_at_ms > now;
}

bool MemoryBackend::run_has_job(const std::string& run_id) const {
  return std::any_of(jobs_.begin(), jobs_.end(),
                     [&](const auto& kv) { return kv.second.spec.run_id == run_id; });
}

}  // namespace reactor
