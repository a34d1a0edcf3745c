-- load_header: one run's header, a root's or a child's.
--
-- KEYS: none.
-- ARGV[1]  the store's key prefix
-- ARGV[2]  run id
-- Returns the header blob, or nil.
--- @include "includes/keys"

return redis.call('HGET', run_key(root_of(ARGV[2]), 'rows'), header_field(ARGV[2]))
