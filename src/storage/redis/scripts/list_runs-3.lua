#!lua flags=no-writes
-- list_runs: the roots callers started, and on request the element runs of fan-out maps, by
-- status and reactor, read from the indexes.
--
-- KEYS (3; each after the first is read by its name after the prefix, in any order):
-- KEYS[1]  the store's key prefix: every key derived at run time is built from it
-- KEYS[2]  P reactors
-- KEYS[3]  P ereactors
-- ARGV[1]     status ('' for any)
-- ARGV[2]     reactor ('' for any)
-- ARGV[3]     limit
-- ARGV[4]     elements (0/1): list element runs too (their own indexes, eindex:*)
-- ARGV[5...]  the names of every status (read when no status is given)
-- Returns header blobs, newest updated_at first (ties: id descending).
--- @include "includes/keys"

local status, reactor, limit = ARGV[1], ARGV[2], tonumber(ARGV[3])
if limit < 1 then return {} end
local statuses = status ~= '' and {status} or {unpack(ARGV, 5)}
-- The newest `limit` runs overall are among the newest `limit` of each index.
local found = {}
local function read(index, reactors)
  for _, s in ipairs(statuses) do
    for _, r in ipairs(reactors) do
      local entries = redis.call('ZREVRANGE', index(s, r), 0, limit - 1, 'WITHSCORES')
      for k = 1, #entries, 2 do found[#found + 1] = {entries[k], tonumber(entries[k + 1])} end
    end
  end
end
read(index_key, reactor ~= '' and {reactor} or redis.call('SMEMBERS', REACTORS))
if ARGV[4] == '1' then
  read(eindex_key, reactor ~= '' and {reactor} or redis.call('SMEMBERS', EREACTORS))
end
table.sort(found, function(a, b)
  if a[2] ~= b[2] then return a[2] > b[2] end
  return a[1] > b[1]
end)
local out = {}
for k = 1, math.min(limit, #found) do
  local blob = redis.call('HGET', run_key(found[k][1], 'rows'), header_field(found[k][1]))
  if blob then out[#out + 1] = blob end
end
return out
