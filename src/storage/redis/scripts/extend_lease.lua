-- extend_lease: compares owner and token, then extends the lease (the workers' heartbeats).
--
-- KEYS: none.
-- ARGV[1]  the store's key prefix
-- ARGV[2]  key (as acquire_lease's)
-- ARGV[3]  owner
-- ARGV[4]  token
-- ARGV[5]  ttl ms
-- Returns 1, or 0 when (owner, token) no longer holds it.
--- @include "includes/keys"
--- @include "includes/clock"
--- @include "includes/leases"

local cur = redis.call('HMGET', lease_key(ARGV[2]), 'owner', 'token')
if ARGV[3] == '' or cur[1] ~= ARGV[3] or cur[2] ~= ARGV[4] then return 0 end
local expires_at = now_ms() + tonumber(ARGV[5])
redis.call('HSET', lease_key(ARGV[2]), 'expires_at', int(expires_at))
if not is_run_lease(ARGV[2]) then redis.call('ZADD', LEASES, int(expires_at), ARGV[2]) end
return 1
