#!lua flags=no-writes
-- find_orphans: the runs with records of their own that nobody serves, read from the indexes:
-- the roots callers started and the element runs of fan-out maps alike.
--
-- KEYS (3; each after the first is read by its name after the prefix, in any order):
-- KEYS[1]  the store's key prefix: every key derived at run time is built from it
-- KEYS[2]  P reactors
-- KEYS[3]  P ereactors
-- ARGV[1]  limit
-- ARGV[2]  the status name running
-- ARGV[3]  the status name rolling_back
-- ARGV[4]  the status name enqueued
-- ARGV[5]  the status name waiting
-- ARGV[6]  the status name paused
-- ARGV[7]  the status name scheduled
-- Returns header blobs: running or rolling back with no live lease, enqueued with no job,
-- and waiting, paused or scheduled with a wake time (a scheduled run's: its start time) and no
-- job; oldest updated_at first (ties: id), at most limit.
--- @include "includes/keys"
--- @include "includes/clock"
--- @include "includes/leases"

local limit = tonumber(ARGV[1])
local now = now_ms()
local found = {}
-- Each index contributes at most `limit` runs, oldest first: enough for the
-- oldest `limit` overall.
local function scan_index(key, orphaned)
  local start, taken, page = 0, 0, 500
  while taken < limit do
    local entries = redis.call('ZRANGE', key, start, start + page - 1, 'WITHSCORES')
    for k = 1, #entries, 2 do
      if taken >= limit then break end
      if orphaned(entries[k]) then
        found[#found + 1] = {entries[k], tonumber(entries[k + 1])}
        taken = taken + 1
      end
    end
    if #entries < 2 * page then break end
    start = start + page
  end
end
local reactors = redis.call('SMEMBERS', REACTORS)
local element_reactors = redis.call('SMEMBERS', EREACTORS)
local function scan(status, orphaned)
  for _, reactor in ipairs(reactors) do scan_index(index_key(status, reactor), orphaned) end
  for _, reactor in ipairs(element_reactors) do
    scan_index(eindex_key(status, reactor), orphaned)
  end
end
local function unserved(id)
  local lease = redis.call('HMGET', lease_key('run:' .. id), 'owner', 'expires_at')
  return not lease_live(lease[1], lease[2], now)
end
local function jobless(id) return redis.call('EXISTS', run_key(id, 'jobs')) == 0 end
-- A waiting (or paused) run's wake time is a member of its header record, written before the body by
-- the record codec (src/records/fields.hpp); a string value cannot hold an unescaped quote,
-- so the first match is that member. 0 (or none, before layout 5): only an event wakes it.
local function wakes_without_job(id)
  if not jobless(id) then return false end
  local blob = redis.call('HGET', run_key(id, 'rows'), header_field(id))
  local wake_at = blob and string.match(blob, ',"wake_at":(%d+),"body":')
  return wake_at ~= nil and tonumber(wake_at) > 0
end
scan(ARGV[2], unserved)
scan(ARGV[3], unserved)
scan(ARGV[4], jobless)
scan(ARGV[5], wakes_without_job)
scan(ARGV[6], wakes_without_job)
scan(ARGV[7], wakes_without_job)
table.sort(found, function(a, b)
  if a[2] ~= b[2] then return a[2] < b[2] end
  return a[1] < b[1]
end)
local out = {}
for k = 1, math.min(limit, #found) do
  local id = found[k][1]
  local blob = redis.call('HGET', run_key(id, 'rows'), header_field(id))
  if blob then out[#out + 1] = blob end
end
return out
