-- release_job: a delivered job back to the queue, due after a delay, and a worker woken.
--
-- KEYS: none.
-- ARGV[1]  the store's key prefix
-- ARGV[2]  job id
-- ARGV[3]  owner (of the delivery)
-- ARGV[4]  delay ms
-- Returns 1, or 0 when the delivery is not owner's.
--- @include "includes/keys"
--- @include "includes/clock"
--- @include "includes/jobs"

local job = redis.call('HMGET', job_key(ARGV[2]), 'lease_owner', 'queue')
if not job[2] or ARGV[3] == '' or job[1] ~= ARGV[3] then return 0 end
local run_at = now_ms() + tonumber(ARGV[4])
local m = member(ARGV[2])
redis.call('HSET', job_key(ARGV[2]), 'lease_owner', '', 'lease_expires', 0, 'run_at', int(run_at))
redis.call('ZREM', inflight_key(job[2]), m)
redis.call('ZADD', ready_key(job[2]), int(run_at), m)
wake(job[2])
return 1
