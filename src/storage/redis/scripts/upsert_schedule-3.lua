#!lua
-- upsert_schedule: a schedule's record, inserted or replaced whole; the start of the last period
-- the workers fired is kept (reactor/schedule_store.hpp).
--
-- KEYS (3; each after the first is read by its name after the prefix, in any order):
-- KEYS[1]  the store's key prefix
-- KEYS[2]  P schedules        hash: name -> schedule record (ScheduleRow's fields)
-- KEYS[3]  P schedules_fired  hash: name -> start of the last period fired (Unix ms)
-- ARGV[1]  name
-- ARGV[2]  the schedule record as the record codec writes it
-- ARGV[3]  last_fired_ms of a schedule new here
-- Returns 1.
--- @include "includes/keys"

redis.call('HSET', K['schedules'], ARGV[1], ARGV[2])
redis.call('HSETNX', K['schedules_fired'], ARGV[1], ARGV[3])
return 1
