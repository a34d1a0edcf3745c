#!lua
-- purge_expired: deletes up to limit terminal roots whose expires_at passed, with every row of
-- theirs (their keys, their jobs, their dead run lease) and everything under their id: their
-- fan-out maps and the element runs of those, at any depth, with all of theirs; and dead leases
-- on keys other than run:*.
--
-- KEYS (4; each after the first is read by its name after the prefix, in any order):
-- KEYS[1]  the store's key prefix: every key derived at run time is built from it
-- KEYS[2]  P runs
-- KEYS[3]  P expiring
-- KEYS[4]  P leases
-- ARGV[1]  limit
-- Returns how many roots were purged.
--- @include "includes/keys"
--- @include "includes/clock"
--- @include "includes/leases"
--- @include "includes/jobs"

local limit = tonumber(ARGV[1])
local now = now_ms()

-- Deletes the keys of `id`, a run with records of its own (a root, an element run): its rows
-- and the RUNS entries of its children, its filing, its jobs, and its run lease unless live.
local function purge_run(id)
  for _, field in ipairs(redis.call('HKEYS', run_key(id, 'rows'))) do
    if string.sub(field, 1, 2) == 'h:' then
      local child = string.sub(field, 3)
      if redis.call('HGET', RUNS, child) == id then redis.call('HDEL', RUNS, child) end
    end
  end
  local meta = redis.call('HMGET', run_key(id, 'meta'), 'status', 'reactor', 'owner',
                          'expires_at', 'element')
  if meta[5] == '1' then
    if meta[1] then redis.call('ZREM', eindex_key(meta[1], meta[2]), id) end
  else
    if meta[1] then redis.call('ZREM', index_key(meta[1], meta[2]), id) end
    redis.call('ZREM', EXPIRING, id)
  end
  for _, job in ipairs(redis.call('SMEMBERS', run_key(id, 'jobs'))) do
    local queue = redis.call('HGET', job_key(job), 'queue')
    if queue then delete_job(job, queue, id) end
  end
  redis.call('DEL', run_key(id, 'rows'), run_key(id, 'jobs'))
  -- A released or lapsed run lease goes with its run; a live one stays, since
  -- its holder still fences with it.
  if lease_live(meta[3], meta[4], now) then
    redis.call('HDEL', run_key(id, 'meta'), 'status', 'reactor', 'element', 'deliveries')
  else
    redis.call('DEL', run_key(id, 'meta'))
  end
end

local roots = redis.call('ZRANGEBYSCORE', EXPIRING, '-inf', int(now), 'LIMIT', 0, limit)
for _, root in ipairs(roots) do
  purge_run(root)
  -- An element run lives as long as the root whose tree holds it: every one, and every map,
  -- under the root's id is noted under its tag.
  for _, id in ipairs(redis.call('SMEMBERS', run_key(root, 'elements'))) do purge_run(id) end
  for _, map_id in ipairs(redis.call('SMEMBERS', run_key(root, 'maps'))) do
    redis.call('DEL', map_key(map_id), slots_key(map_id), settled_key(map_id))
  end
  redis.call('DEL', run_key(root, 'elements'), run_key(root, 'maps'))
end
-- Tokens come from one counter, so deleting a dead lease never lets a token repeat.
for _, k in ipairs(redis.call('ZRANGEBYSCORE', LEASES, '-inf', int(now))) do
  local lease = redis.call('HMGET', lease_key(k), 'owner', 'expires_at')
  if lease_live(lease[1], lease[2], now) then
    redis.call('ZADD', LEASES, lease[2], k)
  else
    redis.call('DEL', lease_key(k))
    redis.call('ZREM', LEASES, k)
  end
end
return #roots
