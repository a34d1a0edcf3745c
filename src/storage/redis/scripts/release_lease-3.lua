#!lua
-- release_lease: compares owner and token, then releases the lease (the token stays).
--
-- KEYS (3; each after the first is read by its name after the prefix, in any order):
-- KEYS[1]  the store's key prefix: every key derived at run time is built from it
-- KEYS[2]  P leases
-- KEYS[3]  P <lease key>  as acquire_lease's
-- ARGV[1]  key (as acquire_lease's)
-- ARGV[2]  owner
-- ARGV[3]  token
-- Returns 1, or 0 when (owner, token) does not hold it.
--- @include "includes/keys"
--- @include "includes/clock"
--- @include "includes/leases"

local cur = redis.call('HMGET', lease_key(ARGV[1]), 'owner', 'token')
if ARGV[2] == '' or cur[1] ~= ARGV[2] or cur[2] ~= ARGV[3] then return 0 end
local now = now_ms()
-- The token stays: it is still the run's fence, and is never handed out again.
redis.call('HSET', lease_key(ARGV[1]), 'owner', '', 'expires_at', int(now))
if not is_run_lease(ARGV[1]) then redis.call('ZADD', LEASES, int(now), ARGV[1]) end
return 1
