// Leases: fenced, expiring ownership of a key — a run's liveness lease
// ("run:<root id>"), a sweeper's window — one facet of a Backend
// (backend.hpp). Every grant carries a token greater than every earlier one
// of the store, so a write fenced by a stale token is refused (commit).
//
// Thread safety: safe to call from any number of threads at once.
#pragma once

#include <string>

#include "reactor/records.hpp"
#include "reactor/result.hpp"
#include "reactor/status.hpp"
#include "reactor/value.hpp"

namespace reactor {

// The lease key of a root run.
inline std::string run_lease_key(const std::string& root_id) { return "run:" + root_id; }

// What acquire_lease found. Someone else holding the lease is not an error.
struct LeaseGrant {
  bool granted = false;  // the lease is now the caller's
  Lease lease;           // the caller's new lease when granted; otherwise the holder's
};

class Leases {
 public:
  virtual ~Leases() = default;

  // Takes the lease on `key` for `owner` when it is free or expired, until
  // now + ttl, with a new token. A lease held by someone else is not an
  // error: `granted` is false and `lease` describes the holder.
  virtual Result<LeaseGrant> acquire_lease(const std::string& key, const std::string& owner,
                                           Duration ttl) = 0;
  // Extends a lease still held by (owner, token) to now + ttl. LeaseLost
  // otherwise.
  virtual Status extend_lease(const std::string& key, const std::string& owner, std::uint64_t token,
                              Duration ttl) = 0;
  // Releases it if still held by (owner, token); a no-op otherwise.
  virtual Status release_lease(const std::string& key, const std::string& owner,
                               std::uint64_t token) = 0;
  // The lease on `key` as it stands, taking nothing: its holder, token and
  // expiry while it is live; owner empty when nobody holds it (never
  // taken, released or expired, by the store's clock). Who serves a queue is
  // seen so (durability/presence.hpp).
  virtual Result<Lease> peek_lease(const std::string& key) = 0;
  // Takes the lease on `key` for `owner` whoever holds it, live or not, until now + ttl, with a
  // new token: the holder's writes fenced by its token are refused from then on (LeaseLost), and
  // so are its extensions. An operator's cancel stops a run's execution so (durability/cancel).
  virtual Result<Lease> seize_lease(const std::string& key, const std::string& owner,
                                    Duration ttl) = 0;
};

}  // namespace reactor
