#!lua
-- create_runs: the commit that starts runs, one or in bulk: each a root with its header, its
-- inputs and its one job, unfenced, nothing else. With seven arguments a run instead of
-- commit's seventeen, and one pass over them.
--
-- KEYS (4; each after the first is read by its name after the prefix, in any order):
-- KEYS[1]  the store's key prefix: every key derived at run time is built from it
-- KEYS[2]  P job_ids
-- KEYS[3]  P reactors
-- KEYS[4]  P expiring
-- ARGV[1]     nonce ('' for none): a start resent after a lost connection must not enqueue twice
-- ARGV[2]     status (of every run)
-- ARGV[3]     job kind (of every run's job)
-- ARGV[4...]  per run, to the end: id, reactor, updated_at, header blob, inputs, queue, run_at
-- The body reads them as A (ARGV, as a local).
-- Returns 1, or the id of a run that exists already (nothing is written: a start never
-- overwrites a run).
--- @include "includes/keys"
--- @include "includes/jobs"
--- @include "includes/filing"

local A = ARGV
local nonce, status, kind = A[1], A[2], A[3]
if nonce ~= '' and redis.call('EXISTS', key('commit:' .. nonce)) == 1 then return 1 end
local runs = (#A - 3) / 7
for k = 1, runs do
  local id = A[7 * k - 3]
  if redis.call('HEXISTS', run_key(id, 'rows'), header_field(id)) == 1 then return id end
end
local last_id = redis.call('INCRBY', JOB_IDS, runs)
local wakeups, reactors_added = {}, {}
for k = 1, runs do
  local id, reactor, updated_at, header, inputs, queue, run_at = unpack(A, 7 * k - 3, 7 * k + 3)
  local meta_key, rows_key = run_key(id, 'meta'), run_key(id, 'rows')
  local was = redis.call('HMGET', meta_key, 'status', 'reactor')
  if file_root(id, was, status, reactor, updated_at, false, 0, reactors_added) then
    redis.call('HSET', meta_key, 'status', status, 'reactor', reactor)
  end
  if was[1] then
    redis.call('HSET', rows_key, header_field(id), header)
    -- Inputs are written once: the first write wins.
    redis.call('HSETNX', rows_key, 'i:' .. id, inputs)
  else
    redis.call('HSET', rows_key, header_field(id), header, 'i:' .. id, inputs)
  end
  enqueue_job(wakeups, int(last_id - runs + k), queue, kind, id, reactor, run_at, 0)
end
send_wakeups(wakeups)
if nonce ~= '' then redis.call('SET', key('commit:' .. nonce), '1', 'PX', 600000) end
return 1
