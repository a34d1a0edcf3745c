#!lua
-- seize_lease: takes a lease whoever holds it, live or not, with a new token: the holder's
-- writes fenced by its token are refused from then on. An operator's cancel of a run.
--
-- KEYS (4; each after the first is read by its name after the prefix, in any order):
-- KEYS[1]  the store's key prefix: every key derived at run time is built from it
-- KEYS[2]  P fencing_token
-- KEYS[3]  P leases
-- KEYS[4]  P <lease key>  as acquire_lease's
-- ARGV[1]  key (as acquire_lease's)
-- ARGV[2]  owner
-- ARGV[3]  ttl ms
-- Returns {token, expires_at}.
--- @include "includes/keys"
--- @include "includes/clock"
--- @include "includes/leases"

local k = ARGV[1]
local token = redis.call('INCR', FENCING_TOKEN)
local expires_at = now_ms() + tonumber(ARGV[3])
redis.call('HSET', lease_key(k), 'owner', ARGV[2], 'token', int(token), 'expires_at',
           int(expires_at))
if not is_run_lease(k) then redis.call('ZADD', LEASES, int(expires_at), k) end
return {int(token), int(expires_at)}
