-- peek_lease: a lease as it stands, by the server's clock, taking nothing.
--
-- KEYS: none.
-- ARGV[1]  the store's key prefix
-- ARGV[2]  key (as acquire_lease's)
-- Returns {owner, token, expires_at} while the lease is live, else {'', token or 0, 0}.
--- @include "includes/keys"
--- @include "includes/clock"
--- @include "includes/leases"

local cur = redis.call('HMGET', lease_key(ARGV[2]), 'owner', 'token', 'expires_at')
local token = int(tonumber(cur[2]) or 0)
if lease_live(cur[1], cur[3], now_ms()) then return {cur[1], token, int(tonumber(cur[3]))} end
return {'', token, 0}
