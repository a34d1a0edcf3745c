-- list_runs: root runs by status and reactor, read from the indexes.
--
-- KEYS: none.
-- ARGV[1]     the store's key prefix
-- ARGV[2]     status ('' for any)
-- ARGV[3]     reactor ('' for any)
-- ARGV[4]     limit
-- ARGV[5...]  the names of every status (read when no status is given)
-- Returns root header blobs, newest updated_at first (ties: id descending).
--- @include "includes/keys"

local status, reactor, limit = ARGV[2], ARGV[3], tonumber(ARGV[4])
if limit < 1 then return {} end
local statuses = status ~= '' and {status} or {unpack(ARGV, 5)}
local reactors = reactor ~= '' and {reactor} or redis.call('SMEMBERS', REACTORS)
-- The newest `limit` roots overall are among the newest `limit` of each index.
local found = {}
for _, s in ipairs(statuses) do
  for _, r in ipairs(reactors) do
    local entries = redis.call('ZREVRANGE', index_key(s, r), 0, limit - 1, 'WITHSCORES')
    for k = 1, #entries, 2 do found[#found + 1] = {entries[k], tonumber(entries[k + 1])} end
  end
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
