#include "storage/commit_refusals.hpp"
#include "storage/redis/backend.hpp"
#include "storage/redis/call.hpp"
#include "storage/redis/reply.hpp"
#include "storage/redis/wire.hpp"
#include "storage/storage_time.hpp"

namespace reactor {

using redis::element;
using redis::integer;
using redis::lease_key;
using redis::ScriptId;
using redis::text;

Result<LeaseGrant> RedisBackend::acquire_lease(const std::string& key, const std::string& owner,
                                               Duration ttl) {
  bool granted = false;
  Lease out;
  if (key.empty() || owner.empty()) {
    return Status::InvalidArgument("acquire_lease: key and owner must not be empty");
  }
  Status s =
      run(ScriptId::kAcquireLease, {lease_key(key)},
          {key, owner, std::to_string(storage::to_ms(ttl))}, [&](const redisReply& r) {
            granted = integer(element(r, 0)) == 1;
            out = Lease{key, text(element(r, 1)),
                        static_cast<std::uint64_t>(integer(element(r, 2))), integer(element(r, 3))};
            return Status::Ok();
          });
  if (!s.ok()) return s;
  return LeaseGrant{granted, std::move(out)};
}

Status RedisBackend::extend_lease(const std::string& key, const std::string& owner,
                                  std::uint64_t token, Duration ttl) {
  return run(ScriptId::kExtendLease, {lease_key(key)},
             {key, owner, std::to_string(token), std::to_string(storage::to_ms(ttl))},
             [&](const redisReply& r) {
               if (integer(r) == 1) return Status::Ok();
               return storage::lease_not_held(key, owner, token);
             });
}

Status RedisBackend::release_lease(const std::string& key, const std::string& owner,
                                   std::uint64_t token) {
  return run(ScriptId::kReleaseLease, {lease_key(key)}, {key, owner, std::to_string(token)},
             [](const redisReply&) { return Status::Ok(); });
}

Result<Lease> RedisBackend::peek_lease(const std::string& key) {
  Lease out;
  Status s = run(ScriptId::kPeekLease, {lease_key(key)}, {key}, [&](const redisReply& r) {
    out = Lease{key, text(element(r, 0)), static_cast<std::uint64_t>(integer(element(r, 1))),
                integer(element(r, 2))};
    return Status::Ok();
  });
  if (!s.ok()) return s;
  return out;
}

Result<Lease> RedisBackend::seize_lease(const std::string& key, const std::string& owner,
                                        Duration ttl) {
  if (key.empty() || owner.empty()) {
    return Status::InvalidArgument("seize_lease: key and owner must not be empty");
  }
  Lease out;
  Status s = run(ScriptId::kSeizeLease, {lease_key(key)},
                 {key, owner, std::to_string(storage::to_ms(ttl))}, [&](const redisReply& r) {
                   out = Lease{key, owner, static_cast<std::uint64_t>(integer(element(r, 0))),
                               integer(element(r, 1))};
                   return Status::Ok();
                 });
  if (!s.ok()) return s;
  return out;
}

}  // namespace reactor
