#!lua flags=no-writes
-- load_header: one run's header, a root's or a child's.
--
-- KEYS (2; each after the first is read by its name after the prefix, in any order):
-- KEYS[1]  the store's key prefix: every key derived at run time is built from it
-- KEYS[2]  P runs
-- ARGV[1]  run id
-- Returns the header blob, or nil.
--- @include "includes/keys"

return redis.call('HGET', run_key(root_of(ARGV[1]), 'rows'), header_field(ARGV[1]))
