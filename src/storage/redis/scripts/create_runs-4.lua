#!lua
-- create_runs: the commit that starts runs, one or in bulk: each a root with its header, its
-- inputs and its one job, unfenced, nothing else. One pass over them, none of commit's row
-- walking.
--
-- KEYS (4; each after the first is read by its name after the prefix, in any order):
-- KEYS[1]  the store's key prefix: every key derived at run time is built from it
-- KEYS[2]  P job_ids
-- KEYS[3]  P reactors
-- KEYS[4]  P expiring
-- ARGV[1]     nonce ('' for none): a start resent after a lost connection must not enqueue twice
-- ARGV[2...]  three sections (includes/sections), row k of each the k-th run's: headers
--             (kHeaderArgs, as commit's), inputs (RunInputsRow's fields), jobs (JobSpec's)
-- The body reads them as A (ARGV, as a local).
-- Returns 1, or the id of a run that exists already (nothing is written: a start never
-- overwrites a run).
--- @include "includes/keys"
--- @include "includes/jobs"
--- @include "includes/filing"
--- @include "includes/sections"

local A = ARGV
local nonce = A[1]
if nonce ~= '' and redis.call('EXISTS', key('commit:' .. nonce)) == 1 then return 1 end
local headers, at = section(A, 2)
local inputs, jobs
inputs, at = section(A, at)
jobs = section(A, at)
for _, h in ipairs(headers) do
  if redis.call('HEXISTS', run_key(h.id, 'rows'), header_field(h.id)) == 1 then return h.id end
end
local runs = #headers
local last_id = redis.call('INCRBY', JOB_IDS, runs)
local wakeups, reactors_added = {}, {}
for k = 1, runs do
  local h, j = headers[k], jobs[k]
  local id, reactor, status = h.id, h.reactor, h.status
  local updated_at, header = h.updated_at, h.record
  local meta_key, rows_key = run_key(id, 'meta'), run_key(id, 'rows')
  local was = redis.call('HMGET', meta_key, 'status', 'reactor')
  if file_root(id, was, status, reactor, updated_at, false, 0, reactors_added) then
    redis.call('HSET', meta_key, 'status', status, 'reactor', reactor)
  end
  if was[1] then
    redis.call('HSET', rows_key, header_field(id), header)
    -- Inputs are written once: the first write wins.
    redis.call('HSETNX', rows_key, 'i:' .. id, inputs[k].inputs)
  else
    redis.call('HSET', rows_key, header_field(id), header, 'i:' .. id, inputs[k].inputs)
  end
  enqueue_job(wakeups, int(last_id - runs + k), j.queue, j.kind, id, reactor, j.run_at, j.snoozes)
end
send_wakeups(wakeups)
if nonce ~= '' then redis.call('SET', key('commit:' .. nonce), '1', 'PX', 600000) end
return 1
