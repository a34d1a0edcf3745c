-- count_runs: how many root runs match a status and a reactor, counted in the indexes.
--
-- KEYS: none.
-- ARGV[1]     the store's key prefix
-- ARGV[2]     status ('' for any)
-- ARGV[3]     reactor ('' for any)
-- ARGV[4...]  the names of every status (read when no status is given)
-- Returns the count, an integer.
--- @include "includes/keys"

local status, reactor = ARGV[2], ARGV[3]
local statuses = status ~= '' and {status} or {unpack(ARGV, 4)}
local reactors = reactor ~= '' and {reactor} or redis.call('SMEMBERS', REACTORS)
local n = 0
for _, s in ipairs(statuses) do
  for _, r in ipairs(reactors) do n = n + redis.call('ZCARD', index_key(s, r)) end
end
return n
