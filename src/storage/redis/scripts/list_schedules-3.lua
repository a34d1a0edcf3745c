#!lua flags=no-writes
-- list_schedules: every schedule with the start of the last period fired.
--
-- KEYS (3; each after the first is read by its name after the prefix, in any order):
-- KEYS[1]  the store's key prefix
-- KEYS[2]  P schedules        hash: name -> schedule record
-- KEYS[3]  P schedules_fired  hash: name -> start of the last period fired (Unix ms)
-- Returns a flat array: record, last fired (decimal text), for each schedule, in no order.
--- @include "includes/keys"

local out = {}
local all = redis.call('HGETALL', K['schedules'])
for k = 1, #all, 2 do
  out[#out + 1] = all[k + 1]
  out[#out + 1] = redis.call('HGET', K['schedules_fired'], all[k]) or '0'
end
return out
