-- list_runs: the roots callers started, and on request the element runs of fan-out maps, by
-- status and reactor, read from the indexes.
--
-- KEYS: none.
-- ARGV[1]     the store's key prefix
-- ARGV[2]     status ('' for any)
-- ARGV[3]     reactor ('' for any)
-- ARGV[4]     limit
-- ARGV[5]     elements (0/1): list element runs too (their own indexes, eindex:*)
-- ARGV[6...]  the names of every status (read when no status is given)
-- Returns header blobs, newest updated_at first (ties: id descending).
--- @include "includes/keys"

local status, reactor, limit = ARGV[2], ARGV[3], tonumber(ARGV[4])
if limit < 1 then return {} end
local statuses = status ~= '' and {status} or {unpack(ARGV, 6)}
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
if ARGV[5] == '1' then
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
