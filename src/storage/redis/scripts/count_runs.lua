-- count_runs: how many roots callers started (and on request element runs of fan-out maps)
-- match a status and a reactor, counted in the indexes.
--
-- KEYS: none.
-- ARGV[1]     the store's key prefix
-- ARGV[2]     status ('' for any)
-- ARGV[3]     reactor ('' for any)
-- ARGV[4]     elements (0/1): count element runs too (their own indexes, eindex:*)
-- ARGV[5...]  the names of every status (read when no status is given)
-- Returns the count, an integer.
--- @include "includes/keys"

local status, reactor = ARGV[2], ARGV[3]
local statuses = status ~= '' and {status} or {unpack(ARGV, 5)}
local n = 0
local function count(index, reactors)
  for _, s in ipairs(statuses) do
    for _, r in ipairs(reactors) do n = n + redis.call('ZCARD', index(s, r)) end
  end
end
count(index_key, reactor ~= '' and {reactor} or redis.call('SMEMBERS', REACTORS))
if ARGV[4] == '1' then
  count(eindex_key, reactor ~= '' and {reactor} or redis.call('SMEMBERS', EREACTORS))
end
return n
