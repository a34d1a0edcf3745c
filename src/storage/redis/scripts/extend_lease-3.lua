#!lua
-- extend_lease: compares owner and token, then extends the lease (the workers' heartbeats).
--
-- KEYS (3; each after the first is read by its name after the prefix, in any order):
-- KEYS[1]  the store's key prefix: every key derived at run time is built from it
-- KEYS[2]  P leases
-- KEYS[3]  P <lease key>  as acquire_lease's
-- ARGV[1]  key (as acquire_lease's)
-- ARGV[2]  owner
-- ARGV[3]  token
-- ARGV[4]  ttl ms
-- Returns 1, or 0 when (owner, token) no longer holds it (storage::lease_not_held).
--- @include "includes/keys"
--- @include "includes/clock"
--- @include "includes/leases"

local cur = redis.call('HMGET', lease_key(ARGV[1]), 'owner', 'token')
if ARGV[2] == '' or cur[1] ~= ARGV[2] or cur[2] ~= ARGV[3] then return 0 end
local expires_at = now_ms() + tonumber(ARGV[4])
redis.call('HSET', lease_key(ARGV[1]), 'expires_at', int(expires_at))
if not is_run_lease(ARGV[1]) then redis.call('ZADD', LEASES, int(expires_at), ARGV[1]) end
return 1
