-- acquire_lease: grants a free lease (absent, released or expired) with a new token, or
-- describes its holder. Also the sweepers' window claims.
--
-- KEYS: none.
-- ARGV[1]  the store's key prefix
-- ARGV[2]  key (run:<root id> for a run's lease, kept in the root's meta hash; any other in
--          lease:<key>)
-- ARGV[3]  owner
-- ARGV[4]  ttl ms
-- Returns {granted 0/1, holder, token, expires_at}.
--- @include "includes/keys"
--- @include "includes/clock"
--- @include "includes/leases"

local granted, holder, token, expires_at = acquire(ARGV[2], ARGV[3], tonumber(ARGV[4]), now_ms())
return {granted and 1 or 0, holder, int(token), int(expires_at)}
