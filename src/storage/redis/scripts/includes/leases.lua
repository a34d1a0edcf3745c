-- includes/leases: where a lease is kept, whether it is live, and taking one.
--- @include "keys"

local function is_run_lease(k) return string.sub(k, 1, 4) == 'run:' end
-- A run's lease lives in its root's meta hash, beside where the root is filed.
local function lease_key(k)
  if is_run_lease(k) then return run_key(string.sub(k, 5), 'meta') end
  return key('lease:' .. k)
end

local function lease_live(owner, expires_at, now)
  return owner and owner ~= '' and tonumber(expires_at) > now
end

-- Takes lease k for owner when it is free (no holder, released or expired),
-- with a token from the one counter every key shares. Returns granted, then
-- the holder's owner, token and expires_at.
local function acquire(k, owner, ttl, now)
  local lk = lease_key(k)
  local cur = redis.call('HMGET', lk, 'owner', 'token', 'expires_at')
  if lease_live(cur[1], cur[3], now) then
    return false, cur[1], tonumber(cur[2]), tonumber(cur[3])
  end
  local token = redis.call('INCR', FENCING_TOKEN)
  local expires_at = now + ttl
  redis.call('HSET', lk, 'owner', owner, 'token', int(token), 'expires_at', int(expires_at))
  if not is_run_lease(k) then redis.call('ZADD', LEASES, int(expires_at), k) end
  return true, owner, token, expires_at
end
