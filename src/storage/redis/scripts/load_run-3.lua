#!lua flags=no-writes
-- load_run: one consistent snapshot of a root run and its children.
--
-- KEYS (3; each after the first is read by its name after the prefix, in any order):
-- KEYS[1]  the store's key prefix: every key derived at run time is built from it
-- KEYS[2]  P {root}:rows  the root's rows hash (ARGV[1])
-- KEYS[3]  P {root}:meta  its meta hash, which holds its lease
-- ARGV[1]  root id
-- Returns {rows, token}: the root's rows hash as a field/value list, then the newest token of
-- the run's lease ('0' if none).
--- @include "includes/keys"
--- @include "includes/leases"

local root = ARGV[1]
return {redis.call('HGETALL', run_key(root, 'rows')),
        redis.call('HGET', lease_key('run:' .. root), 'token') or '0'}
