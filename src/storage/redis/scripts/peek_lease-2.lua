#!lua flags=no-writes
-- peek_lease: a lease as it stands, by the server's clock, taking nothing.
--
-- KEYS (2; each after the first is read by its name after the prefix, in any order):
-- KEYS[1]  the store's key prefix: every key derived at run time is built from it
-- KEYS[2]  P <lease key>  as acquire_lease's
-- ARGV[1]  key (as acquire_lease's)
-- Returns {owner, token, expires_at} while the lease is live, else {'', token or 0, 0}.
--- @include "includes/keys"
--- @include "includes/clock"
--- @include "includes/leases"

local cur = redis.call('HMGET', lease_key(ARGV[1]), 'owner', 'token', 'expires_at')
local token = int(tonumber(cur[2]) or 0)
if lease_live(cur[1], cur[3], now_ms()) then return {cur[1], token, int(tonumber(cur[3]))} end
return {'', token, 0}
