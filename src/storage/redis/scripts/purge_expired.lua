-- purge_expired: deletes up to limit terminal roots whose expires_at passed, with every row of
-- theirs (their keys, their jobs, their dead run lease), and dead leases on keys other than
-- run:*.
--
-- KEYS: none.
-- ARGV[1]  the store's key prefix
-- ARGV[2]  limit
-- Returns how many roots were purged.
--- @include "includes/keys"
--- @include "includes/clock"
--- @include "includes/leases"
--- @include "includes/jobs"

-- Returns how many roots were purged.
local limit = tonumber(ARGV[2])
local now = now_ms()
local roots = redis.call('ZRANGEBYSCORE', EXPIRING, '-inf', int(now), 'LIMIT', 0, limit)
for _, root in ipairs(roots) do
  for _, field in ipairs(redis.call('HKEYS', run_key(root, 'rows'))) do
    if string.sub(field, 1, 2) == 'h:' then
      local id = string.sub(field, 3)
      if redis.call('HGET', RUNS, id) == root then redis.call('HDEL', RUNS, id) end
    end
  end
  local meta = redis.call('HMGET', run_key(root, 'meta'), 'status', 'reactor', 'owner',
                          'expires_at')
  if meta[1] then redis.call('ZREM', index_key(meta[1], meta[2]), root) end
  redis.call('ZREM', EXPIRING, root)
  for _, id in ipairs(redis.call('SMEMBERS', run_key(root, 'jobs'))) do
    local queue = redis.call('HGET', job_key(id), 'queue')
    if queue then delete_job(id, queue, root) end
  end
  redis.call('DEL', run_key(root, 'rows'), run_key(root, 'jobs'))
  -- A released or lapsed run lease goes with its run; a live one stays, since
  -- its holder still fences with it.
  if lease_live(meta[3], meta[4], now) then
    redis.call('HDEL', run_key(root, 'meta'), 'status', 'reactor')
  else
    redis.call('DEL', run_key(root, 'meta'))
  end
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
