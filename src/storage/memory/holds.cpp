#include "storage/commit_refusals.hpp"
#include "storage/memory/backend.hpp"
#include "storage/storage_time.hpp"

namespace reactor {

storage::RunFacts MemoryBackend::facts_locked(std::int64_t now) const {
  return storage::RunFacts{
      [this, now](const std::string& run_id) -> std::optional<storage::RunSeen> {
        auto run = runs_.find(run_id);
        if (run == runs_.end()) return std::nullopt;
        auto lease = leases_.find(run_lease_key(run_id));
        const bool live = lease != leases_.end() && lease_live(lease->second, now);
        return storage::RunSeen{run->second.status, run->second.updated_at_ms, live};
      }};
}

Result<TakeResult> MemoryBackend::take_holds(const TakeRequest& r) {
  if (r.holder.empty()) return Status::InvalidArgument("take_holds: no holder");
  std::lock_guard lock(mu_);
  if (r.fencing_token != 0) {
    auto it = leases_.find(run_lease_key(r.fence_run));
    if (it == leases_.end() || it->second.token != r.fencing_token) {
      return storage::fenced_out(r.fence_run, r.fencing_token);
    }
  }
  const std::int64_t now = storage::now_ms(*clock_);
  return storage::decide_take(holds_, r, facts_locked(now), now);
}

Result<CoordinationView> MemoryBackend::coordination() {
  std::lock_guard lock(mu_);
  const std::int64_t now = storage::now_ms(*clock_);
  return storage::live_view(holds_, facts_locked(now), now);
}

Result<OrderedChainRow> MemoryBackend::ordered_peek(const std::string& key) {
  std::lock_guard lock(mu_);
  auto it = holds_.ordered.find(key);
  if (it == holds_.ordered.end()) return storage::no_chain(key);
  return storage::chain_row(key, it->second);
}

Result<OrderedChainRow> MemoryBackend::ordered_skip(const std::string& key) {
  std::lock_guard lock(mu_);
  auto it = holds_.ordered.find(key);
  if (it == holds_.ordered.end()) return storage::no_chain(key);
  if (!it->second.members.empty()) it->second.members.erase(it->second.members.begin());
  return storage::chain_row(key, it->second);
}

Result<OrderedChainRow> MemoryBackend::ordered_reset(const std::string& key) {
  std::lock_guard lock(mu_);
  auto it = holds_.ordered.find(key);
  if (it == holds_.ordered.end()) return storage::no_chain(key);
  it->second.members.clear();
  it->second.failed = false;
  it->second.failed_run.clear();
  return storage::chain_row(key, it->second);
}

}  // namespace reactor
