-- includes/filing: file_root() and file_element(), where a run with records of its own is filed:
-- the indexes list_runs, find_orphans and purge_expired read (index:<status>:<reactor>,
-- reactors, expiring for the roots callers started; eindex:<status>:<reactor>, ereactors for
-- the element runs of fan-out maps).
--- @include "keys"

-- Files run `id` in the index `index(status, reactor)`, scored by `updated_at`. `was` is where
-- it was filed (status, reactor; nil for a run never filed): a run re-filed leaves that index,
-- and a reactor not seen before joins the set `reactors` (`added`: the reactors this call added
-- to it). Returns whether its status or reactor changed.
local function refile(index, reactors, id, was, status, reactor, updated_at, added)
  local moved = was[1] ~= status or was[2] ~= reactor
  if moved then
    if was[1] then redis.call('ZREM', index(was[1], was[2]), id) end
    if was[2] ~= reactor and not added[reactor] then
      redis.call('SADD', reactors, reactor)
      added[reactor] = true
    end
  end
  redis.call('ZADD', index(status, reactor), updated_at, id)
  return moved
end

-- Files root `id` (a root a caller started) as refile() does. Only a terminal root
-- (`terminal`) with a retention (`expires_at` > 0) is filed in EXPIRING. Returns whether its
-- status or reactor changed: the caller records them in its meta hash.
local function file_root(id, was, status, reactor, updated_at, terminal, expires_at, added)
  local moved = refile(index_key, REACTORS, id, was, status, reactor, updated_at, added)
  if terminal and tonumber(expires_at) > 0 then
    redis.call('ZADD', EXPIRING, expires_at, id)
  elseif terminal or (was[1] and was[1] ~= status) then
    -- A root that stays non-terminal is not filed there, nor is one never filed before.
    redis.call('ZREM', EXPIRING, id)
  end
  return moved
end

-- Files element run `id` of a fan-out map as refile() does, apart from the roots (`added`: a
-- table of its own, for EREACTORS). Never in EXPIRING: an element run is purged with the root
-- whose tree holds it, never on its own; at its first filing it is noted there. Returns whether
-- its status or reactor changed: the caller records them in its meta hash (element_meta()).
local function file_element(id, was, status, reactor, updated_at, added)
  if not was[1] then redis.call('SADD', tree_key(id, 'elements'), id) end
  return refile(eindex_key, EREACTORS, id, was, status, reactor, updated_at, added)
end

-- The meta fields of an element run filed under `status` and `reactor`: `element` says which
-- indexes it is filed in, to the scripts that re-file or unfile it (fetch, purge_expired).
local function element_meta(status, reactor)
  return {'status', status, 'reactor', reactor, 'element', '1'}
end
