#!lua
-- release_job: a delivered job back to the queue, due after a delay, and a worker woken.
--
-- KEYS (2; each after the first is read by its name after the prefix, in any order):
-- KEYS[1]  the store's key prefix: every key derived at run time is built from it
-- KEYS[2]  P job:<id>  the job (ARGV[1])
-- ARGV[1]  job id
-- ARGV[2]  owner (of the delivery)
-- ARGV[3]  delay ms
-- Returns 1, or 0 when the delivery is not owner's.
--- @include "includes/keys"
--- @include "includes/clock"
--- @include "includes/jobs"

local job = redis.call('HMGET', job_key(ARGV[1]), 'lease_owner', 'queue')
if not job[2] or ARGV[2] == '' or job[1] ~= ARGV[2] then return 0 end
local run_at = now_ms() + tonumber(ARGV[3])
local m = member(ARGV[1])
redis.call('HSET', job_key(ARGV[1]), 'lease_owner', '', 'lease_expires', 0, 'run_at', int(run_at))
redis.call('ZREM', inflight_key(job[2]), m)
redis.call('ZADD', ready_key(job[2]), int(run_at), m)
wake(job[2])
return 1
