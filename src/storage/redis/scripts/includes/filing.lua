-- includes/filing: file_root(), where a root is filed: the indexes list_runs, find_orphans
-- and purge_expired read (index:<status>:<reactor>, reactors, expiring).
--- @include "keys"

-- Files root `id` under `status` and `reactor`, scored by `updated_at`. `was`
-- is where it was filed (status, reactor; nil for a root never filed): a root
-- re-filed leaves that index, and a reactor not seen before joins REACTORS
-- (`added`: the reactors this call added). Only a terminal root (`terminal`)
-- with a retention (`expires_at` > 0) is filed in EXPIRING. Returns whether
-- its status or reactor changed: the caller records them in its meta hash.
local function file_root(id, was, status, reactor, updated_at, terminal, expires_at, added)
  local moved = was[1] ~= status or was[2] ~= reactor
  if moved then
    if was[1] then redis.call('ZREM', index_key(was[1], was[2]), id) end
    if was[2] ~= reactor and not added[reactor] then
      redis.call('SADD', REACTORS, reactor)
      added[reactor] = true
    end
  end
  redis.call('ZADD', index_key(status, reactor), updated_at, id)
  if terminal and tonumber(expires_at) > 0 then
    redis.call('ZADD', EXPIRING, expires_at, id)
  elseif terminal or (was[1] and was[1] ~= status) then
    -- A root that stays non-terminal is not filed there, nor is one never filed before.
    redis.call('ZREM', EXPIRING, id)
  end
  return moved
end
