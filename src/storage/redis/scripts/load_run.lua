-- load_run: one consistent snapshot of a root run and its children.
--
-- KEYS: none.
-- ARGV[1]  the store's key prefix
-- ARGV[2]  root id
-- Returns {rows, token}: the root's rows hash as a field/value list, then the newest token of
-- the run's lease ('0' if none).
--- @include "includes/keys"
--- @include "includes/leases"

local root = ARGV[2]
return {redis.call('HGETALL', run_key(root, 'rows')),
        redis.call('HGET', lease_key('run:' .. root), 'token') or '0'}
