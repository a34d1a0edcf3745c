#!lua flags=no-writes
-- queue_stats: how many jobs each queue holds, ready, delayed and in flight, by the server's
-- clock, taking nothing (JobQueue::queue_stats). A delivery whose visibility timeout passed is
-- still in the in-flight set until a fetch moves it back: it counts as ready here, at its
-- job's run_at (read for at most 1000 such jobs per queue).
--
-- KEYS (1):
-- KEYS[1]  the store's key prefix: every key derived at run time is built from it
-- ARGV[1...]  queue names
-- Returns {now, then per queue: ready, delayed, in_flight, oldest due run_at ('' if none)}.
--- @include "includes/keys"
--- @include "includes/clock"

local now = now_ms()
local out = {int(now)}
for _, q in ipairs(ARGV) do
  local ready = redis.call('ZCOUNT', ready_key(q), '-inf', int(now))
  local delayed = redis.call('ZCOUNT', ready_key(q), '(' .. int(now), '+inf')
  local in_flight = redis.call('ZCOUNT', inflight_key(q), '(' .. int(now), '+inf')
  local oldest
  local head = redis.call('ZRANGE', ready_key(q), 0, 0, 'WITHSCORES')
  if head[1] and tonumber(head[2]) <= now then oldest = tonumber(head[2]) end
  local lapsed = redis.call('ZRANGEBYSCORE', inflight_key(q), '-inf', int(now), 'LIMIT', 0, 1000)
  for _, m in ipairs(lapsed) do
    local run_at = tonumber(redis.call('HGET', job_key(int(m)), 'run_at'))
    if run_at then
      if run_at <= now then
        ready = ready + 1
        if not oldest or run_at < oldest then oldest = run_at end
      else
        delayed = delayed + 1
      end
    end
  end
  out[#out + 1] = ready
  out[#out + 1] = delayed
  out[#out + 1] = in_flight
  out[#out + 1] = oldest and int(oldest) or ''
end
return out
