#!lua flags=no-writes
-- coordination: what the store holds for coordination, as `reactor locks` shows it
-- (hold_store.hpp, CoordinationView; hold_rules.cpp, live_view): the live holders of each hold,
-- the rate windows not yet over, the period marks, the ordered chains with members or a failure.
-- It writes nothing: a dead holder is left for the next take to prune, and is not shown.
--
-- KEYS (5; each after the first is read by its name after the prefix, in any order):
-- KEYS[1]  the store's key prefix: every key derived at run time is built from it
-- KEYS[2]  P holds
-- KEYS[3]  P rates
-- KEYS[4]  P periods
-- KEYS[5]  P chains
-- ARGV[1...]  one section (includes/sections): every status's role (includes/run_facts)
-- Returns {holds, windows, periods, chains}, each a flat list:
--   holds    per hold with a live holder: key, kind, limit, n, then n pairs holder, claim
--   windows  per bucket: key, window ms, bucket start, count
--   periods  mark, run id, ... (HGETALL)
--   chains   per chain: key, then chain_row()'s list (includes/coordination)
--- @include "includes/keys"
--- @include "includes/clock"
--- @include "includes/leases"
--- @include "includes/sections"
--- @include "includes/run_facts"
--- @include "includes/coordination"

read_roles(ARGV, 1)
local now = now_ms()

local holds = {}
for _, k in ipairs(redis.call('SMEMBERS', HOLDS)) do
  local fields = redis.call('HGETALL', hold_key(k))
  local live = {}
  local kind, limit = '', ''
  for i = 1, #fields, 2 do
    local f, v = fields[i], fields[i + 1]
    if f == 'kind' then
      kind = v
    elseif f == 'limit' then
      limit = v
    elseif holds_alive(run_seen(string.sub(f, 3))) then
      live[#live + 1] = string.sub(f, 3)
      live[#live + 1] = v
    end
  end
  if #live > 0 then
    for _, x in ipairs({k, kind, limit, #live / 2}) do holds[#holds + 1] = x end
    for _, x in ipairs(live) do holds[#holds + 1] = x end
  end
end

local windows = {}
for _, m in ipairs(redis.call('ZRANGEBYSCORE', RATES, '(' .. int(now), '+inf')) do
  local k, window, bucket = string.match(m, '^(.*):(-?%d+):(-?%d+)$')
  local count = redis.call('SCARD', rate_key(m))
  if k and count > 0 then
    for _, x in ipairs({k, window, bucket, count}) do windows[#windows + 1] = x end
  end
end

local chains = {}
for _, k in ipairs(redis.call('SMEMBERS', CHAINS)) do
  local row = chain_row(k)
  -- Members, or a failure: a chain that is neither is not shown.
  if row and (row[4] > 0 or row[2] == 1) then
    chains[#chains + 1] = k
    for _, x in ipairs(row) do chains[#chains + 1] = x end
  end
end

return {holds, windows, redis.call('HGETALL', PERIODS), chains}
