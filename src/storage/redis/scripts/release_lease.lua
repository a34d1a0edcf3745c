-- release_lease: compares owner and token, then releases the lease (the token stays).
--
-- KEYS: none.
-- ARGV[1]  the store's key prefix
-- ARGV[2]  key (as acquire_lease's)
-- ARGV[3]  owner
-- ARGV[4]  token
-- Returns 1, or 0 when (owner, token) does not hold it.
--- @include "includes/keys"
--- @include "includes/clock"
--- @include "includes/leases"

local cur = redis.call('HMGET', lease_key(ARGV[2]), 'owner', 'token')
if ARGV[3] == '' or cur[1] ~= ARGV[3] or cur[2] ~= ARGV[4] then return 0 end
local now = now_ms()
-- The token stays: it is still the run's fence, and is never handed out again.
redis.call('HSET', lease_key(ARGV[2]), 'owner', '', 'expires_at', int(now))
if not is_run_lease(ARGV[2]) then redis.call('ZADD', LEASES, int(now), ARGV[2]) end
return 1
