#!lua flags=no-writes
-- count_runs: how many roots callers started (and on request element runs of fan-out maps)
-- match a status and a reactor, counted in the indexes.
--
-- KEYS (3; each after the first is read by its name after the prefix, in any order):
-- KEYS[1]  the store's key prefix: every key derived at run time is built from it
-- KEYS[2]  P reactors
-- KEYS[3]  P ereactors
-- ARGV[1]     status ('' for any)
-- ARGV[2]     reactor ('' for any)
-- ARGV[3]     elements (0/1): count element runs too (their own indexes, eindex:*)
-- ARGV[4...]  the names of every status (read when no status is given)
-- Returns the count, an integer.
--- @include "includes/keys"

local status, reactor = ARGV[1], ARGV[2]
local statuses = status ~= '' and {status} or {unpack(ARGV, 4)}
local n = 0
local function count(index, reactors)
  for _, s in ipairs(statuses) do
    for _, r in ipairs(reactors) do n = n + redis.call('ZCARD', index(s, r)) end
  end
end
count(index_key, reactor ~= '' and {reactor} or redis.call('SMEMBERS', REACTORS))
if ARGV[3] == '1' then
  count(eindex_key, reactor ~= '' and {reactor} or redis.call('SMEMBERS', EREACTORS))
end
return n
