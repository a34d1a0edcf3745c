#!lua
-- take_holds: one take (hold_store.hpp, TakeRequest) judged and written atomically, by the rules
-- of src/storage/hold_rules.cpp (decide_take), in their order: the fence, the ordered gates, the
-- period marks, the rate windows (all checked, then all counted), then the holds. Nothing is
-- written unless everything passes — except that a chain's ended or poisoned heads leave it, a
-- strict chain is marked failed behind a failed head, and dead holders are pruned, whatever the
-- outcome (as decide_take does).
--
-- KEYS (4; each after the first is read by its name after the prefix, in any order):
-- KEYS[1]  the store's key prefix: every key derived at run time is built from it
-- KEYS[2]  P holds
-- KEYS[3]  P rates
-- KEYS[4]  P periods
-- ARGV[1]     holder (a root run id)
-- ARGV[2]     fence run: the run whose lease fences the take
-- ARGV[3]     fencing token ('0': unfenced)
-- ARGV[4]     charge id: counted once per bucket of each window
-- ARGV[5...]  five sections (includes/sections):
--               statuses  every status's role (includes/run_facts)
--               gates     OrderedGate's fields: key, run_id, poison_pill_ms, strict
--               periods   mark
--               rates     RateCharge's: key, window_ms, limit
--               holds     HoldClaim's: kind ('lock', 'semaphore'), key, limit, claim
-- Returns 0 when fenced out (storage::fenced_out, commit_refusals.hpp), else
-- {outcome, key, holder, retry_after_ms, skipped run ids...}: outcome as to_string(TakeOutcome)
-- spells it ('taken', 'held', 'rate_limited', 'period_done', 'ordered_wait',
-- 'ordered_chain_failed'); key and holder '' when taken.
--- @include "includes/keys"
--- @include "includes/clock"
--- @include "includes/leases"
--- @include "includes/sections"
--- @include "includes/run_facts"
--- @include "includes/coordination"

local holder, fence_run, token, charge_id = ARGV[1], ARGV[2], ARGV[3], ARGV[4]
-- Fence: a zombie takes nothing.
if token ~= '0' and redis.call('HGET', run_key(fence_run, 'meta'), 'token') ~= token then
  return 0
end
local at = read_roles(ARGV, 5)
local function next_section()
  local rows
  rows, at = section(ARGV, at)
  return rows
end
local gates = next_section()
local periods = next_section()
local rates = next_section()
local holds = next_section()
local now = now_ms()
local skipped = {}  -- poisoned heads skipped on the way, reported whatever the outcome

local function outcome(name, k, by, retry_after)
  local reply = {name, k or '', by or '', retry_after or 0}
  for _, id in ipairs(skipped) do reply[#reply + 1] = id end
  return reply
end

-- Neither its lease nor its record has shown run `seen` alive for longer than the timeout.
local function stale(seen, poison_pill_ms)
  if holds_alive(seen) or seen.role.paused then return false end
  return now - seen.updated_at > poison_pill_ms
end

-- Whether g.run_id may go: every earlier member of its chain ended (and, strict, none failed).
-- Ended and poisoned heads leave the chain on the way. Returns the refusal and whom it names.
local function judge_gate(g)
  local members, chain = members_key(g.key), chain_key(g.key)
  local mine = redis.call('ZSCORE', members, g.run_id)
  if not mine then return nil end  -- not (or no longer) in the chain: nothing to wait for
  local strict = g.strict == '1'
  for _, run in ipairs(redis.call('ZRANGEBYSCORE', members, '-inf', '(' .. mine)) do
    local seen = run_seen(run)
    if not seen or seen.role.ended then
      if strict and seen and seen.role.failed then
        redis.call('HSET', chain, 'failed', '1', 'failed_run', run)
      end
    elseif stale(seen, tonumber(g.poison_pill_ms)) then
      skipped[#skipped + 1] = run
    else
      return 'ordered_wait', run
    end
    redis.call('ZREM', members, run)
  end
  local failed = redis.call('HMGET', chain, 'failed', 'failed_run')
  if strict and failed[1] == '1' then return 'ordered_chain_failed', failed[2] end
end

-- The start of the bucket of `window` holding now, and the bucket's member in RATES.
local function bucket_of(c)
  local window = tonumber(c.window_ms)
  local bucket = window <= 0 and now or now - now % window
  return bucket, window, rate_member(c.key, window, bucket)
end

-- The first window that is full (this charge not counted in it yet), and when it opens.
local function judge_rates()
  for _, c in ipairs(rates) do
    local bucket, window, m = bucket_of(c)
    local count = redis.call('SCARD', rate_key(m))
    if count > 0 and count >= tonumber(c.limit) and
       redis.call('SISMEMBER', rate_key(m), charge_id) == 0 then
      return c.key, bucket + window - now
    end
  end
end

-- The live holders of hold `k`, sorted; the dead ones are given back on the way.
local function live_holders(k)
  local live = {}
  local fields = redis.call('HKEYS', hold_key(k))
  for _, f in ipairs(fields) do
    if string.sub(f, 1, 2) == 'h:' then
      local id = string.sub(f, 3)
      if holds_alive(run_seen(id)) then live[#live + 1] = id else drop_holder(k, id) end
    end
  end
  table.sort(live)
  return live
end

-- The first hold that is full (a lock held by another root, a semaphore at its limit), and its
-- first live holder.
local function judge_holds()
  for _, c in ipairs(holds) do
    local hk = hold_key(c.key)
    if redis.call('EXISTS', hk) == 1 and redis.call('HEXISTS', hk, 'h:' .. holder) == 0 then
      local live = live_holders(c.key)
      local limit = c.kind == 'lock' and 1 or tonumber(c.limit)
      if #live >= limit then return c.key, live[1] end
    end
  end
end

local function charge_rates()
  for _, c in ipairs(rates) do
    local bucket, window, m = bucket_of(c)
    redis.call('SADD', rate_key(m), charge_id)
    -- The bucket is over at its end: nothing reads it again, and it goes by itself.
    redis.call('PEXPIREAT', rate_key(m), int(bucket + window))
    redis.call('ZADD', RATES, int(bucket + window), m)
  end
  if #rates > 0 then redis.call('ZREMRANGEBYSCORE', RATES, '-inf', int(now)) end
end

local function grant_holds()
  for _, c in ipairs(holds) do
    local hk = hold_key(c.key)
    redis.call('HSET', hk, 'kind', c.kind, 'limit', c.kind == 'lock' and '1' or c.limit)
    -- Re-entered by its root: the first claim stays the one a release names.
    redis.call('HSETNX', hk, 'h:' .. holder, c.claim)
    redis.call('SADD', HOLDS, c.key)
    redis.call('SADD', holder_key(holder), c.key)
  end
end

for _, g in ipairs(gates) do
  local refused, by = judge_gate(g)
  if refused then return outcome(refused, g.key, by) end
end
for _, p in ipairs(periods) do
  local by = redis.call('HGET', PERIODS, p.mark)
  if by and by ~= holder then return outcome('period_done', p.mark, by) end
end
local full_window, retry_after = judge_rates()
if full_window then return outcome('rate_limited', full_window, '', retry_after) end
local held, by = judge_holds()
if held then return outcome('held', held, by) end
charge_rates()
grant_holds()
return outcome('taken')
