-- includes/coordination: the keys of coordination (hold_store.hpp) as docs/redis.md lays them
-- out — holds, rate windows, period marks, ordered chains — and the writes more than one script
-- makes to them.
--- @include "keys"

-- The store-wide keys: nil in a script that does not declare them.
local HOLDS = K['holds']      -- set: the keys held (each with a hold:<key> hash)
local RATES = K['rates']      -- zset: rate buckets "<key>:<window>:<bucket>" by their end
local PERIODS = K['periods']  -- hash: period mark "<key>@<bucket>" -> the run that set it
local CHAINS = K['chains']    -- set: the key of every ordered chain ever joined

-- hash: kind, limit, and h:<holder> -> claim for each holder.
local function hold_key(k) return key('hold:' .. k) end
-- set: the keys `holder` holds, so that a commit releases its claims without a scan.
local function holder_key(holder) return key('holder:' .. holder) end
-- set: the charge ids counted in one bucket of a window (its count is their number).
local function rate_member(k, window, bucket)
  return k .. ':' .. int(window) .. ':' .. int(bucket)
end
local function rate_key(member) return key('rate:' .. member) end
-- hash: next_seq, failed, failed_run; and zset: the members not yet seen ended, by seq.
local function chain_key(k) return key('ordered:' .. k) end
local function members_key(k) return key('ordered_members:' .. k) end

-- `holder`'s claim on `k` given back: the hold's hash goes with its last holder.
local function drop_holder(k, holder)
  local hk = hold_key(k)
  redis.call('HDEL', hk, 'h:' .. holder)
  redis.call('SREM', holder_key(holder), k)
  -- Left: kind and limit only.
  if redis.call('HLEN', hk) <= 2 then
    redis.call('DEL', hk)
    redis.call('SREM', HOLDS, k)
  end
end

-- Chain `k` as OrderedChainRow: {next_seq, failed 0/1, failed_run, n, then n pairs seq, run id};
-- nil for a chain never joined.
local function chain_row(k)
  local c = redis.call('HMGET', chain_key(k), 'next_seq', 'failed', 'failed_run')
  if not c[1] then return nil end
  local members = redis.call('ZRANGE', members_key(k), 0, -1, 'WITHSCORES')
  local row = {c[1], c[2] == '1' and 1 or 0, c[3] or '', #members / 2}
  for i = 1, #members, 2 do
    row[#row + 1] = members[i + 1]
    row[#row + 1] = members[i]
  end
  return row
end
