#!lua
-- acquire_lease: grants a free lease (absent, released or expired) with a new token, or
-- describes its holder. Also the sweepers' window claims.
--
-- KEYS (4; each after the first is read by its name after the prefix, in any order):
-- KEYS[1]  the store's key prefix: every key derived at run time is built from it
-- KEYS[2]  P fencing_token
-- KEYS[3]  P leases
-- KEYS[4]  P <lease key>  the lease's hash: {<root>}:meta for run:<root>, else lease:<key>
-- ARGV[1]  key (run:<root id> for a run's lease, kept in the root's meta hash; any other in
--          lease:<key>)
-- ARGV[2]  owner
-- ARGV[3]  ttl ms
-- Returns {granted 0/1, holder, token, expires_at}.
--- @include "includes/keys"
--- @include "includes/clock"
--- @include "includes/leases"

local granted, holder, token, expires_at = acquire(ARGV[1], ARGV[2], tonumber(ARGV[3]), now_ms())
return {granted and 1 or 0, holder, int(token), int(expires_at)}
