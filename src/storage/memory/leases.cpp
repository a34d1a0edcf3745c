#include "storage/commit_refusals.hpp"
#include "storage/memory/backend.hpp"
#include "storage/storage_time.hpp"

namespace reactor {

bool MemoryBackend::try_acquire(const std::string& key, const std::string& owner,
                                std::int64_t ttl_ms, std::int64_t now, Lease& out) {
  auto it = leases_.find(key);
  if (it != leases_.end() && lease_live(it->second, now)) {
    out = it->second;
    return false;
  }
  Lease lease{key, owner, ++last_token_, now + ttl_ms};
  leases_[key] = lease;
  out = lease;
  return true;
}

Result<LeaseGrant> MemoryBackend::acquire_lease(const std::string& key, const std::string& owner,
                                                Duration ttl) {
  bool granted = false;
  Lease out;
  if (key.empty() || owner.empty()) {
    return Status::InvalidArgument("acquire_lease: key and owner must not be empty");
  }
  std::lock_guard lock(mu_);
  granted = try_acquire(key, owner, storage::to_ms(ttl), storage::now_ms(*clock_), out);
  return LeaseGrant{granted, std::move(out)};
}

Status MemoryBackend::extend_lease(const std::string& key, const std::string& owner,
                                   std::uint64_t token, Duration ttl) {
  std::lock_guard lock(mu_);
  auto it = leases_.find(key);
  if (it == leases_.end() || owner.empty() || it->second.owner != owner ||
      it->second.token != token) {
    return storage::lease_not_held(key, owner, token);
  }
  it->second.expires_at_ms = storage::now_ms(*clock_) + storage::to_ms(ttl);
  return Status::Ok();
}

Status MemoryBackend::release_lease(const std::string& key, const std::string& owner,
                                    std::uint64_t token) {
  std::lock_guard lock(mu_);
  auto it = leases_.find(key);
  if (it != leases_.end() && !owner.empty() && it->second.owner == owner &&
      it->second.token == token) {
    it->second.owner.clear();
    it->second.expires_at_ms = storage::now_ms(*clock_);
  }
  return Status::Ok();
}

Result<Lease> MemoryBackend::peek_lease(const std::string& key) {
  Lease out;
  std::lock_guard lock(mu_);
  out = Lease{key, "", 0, 0};
  auto it = leases_.find(key);
  if (it != leases_.end() && lease_live(it->second, storage::now_ms(*clock_))) out = it->second;
  return out;
}

Result<Lease> MemoryBackend::seize_lease(const std::string& key, const std::string& owner,
                                         Duration ttl) {
  if (key.empty() || owner.empty()) {
    return Status::InvalidArgument("seize_lease: key and owner must not be empty");
  }
  std::lock_guard lock(mu_);
  Lease lease{key, owner, ++last_token_, storage::now_ms(*clock_) + storage::to_ms(ttl)};
  leases_[key] = lease;
  return lease;
}

}  // namespace reactor
