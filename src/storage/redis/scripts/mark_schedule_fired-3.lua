#!lua
-- mark_schedule_fired: the start of the last period fired moves up to ARGV[2], never back.
--
-- KEYS (3; each after the first is read by its name after the prefix, in any order):
-- KEYS[1]  the store's key prefix
-- KEYS[2]  P schedules        hash: name -> schedule record
-- KEYS[3]  P schedules_fired  hash: name -> start of the last period fired (Unix ms)
-- ARGV[1]  name
-- ARGV[2]  the start of the period fired (Unix ms, decimal)
-- Returns 0 when there is no such schedule, else 1.
--- @include "includes/keys"

if redis.call('HEXISTS', K['schedules'], ARGV[1]) == 0 then return 0 end
local fired = tonumber(redis.call('HGET', K['schedules_fired'], ARGV[1]) or '0')
if tonumber(ARGV[2]) > fired then redis.call('HSET', K['schedules_fired'], ARGV[1], ARGV[2]) end
return 1
