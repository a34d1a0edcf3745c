#!lua
-- fetch: fetch-and-lease the oldest due job, and the run's lease when free (then the run
-- itself); or, with nothing due, say when something falls due.
--
-- KEYS (2; each after the first is read by its name after the prefix, in any order):
-- KEYS[1]  the store's key prefix: every key derived at run time is built from it
-- KEYS[2]  P fencing_token
-- ARGV[1]     owner (the worker: the delivery's owner, and the run lease's)
-- ARGV[2]     visibility ms: how long the delivery is the owner's
-- ARGV[3]     run lease ttl ms
-- ARGV[4]     the status name enqueued
-- ARGV[5]     the status name running
-- ARGV[6]     the worker's id (no quote or backslash in it), recorded in the run's header
-- ARGV[7...]  queue names
-- The body reads them as A (ARGV, as a local). commit_then_fetch and finish_commit_then_fetch
-- run this script whole inside a function whose ARGV is their fetch's slice of the arguments.
-- Returns one of
--   {'job', id, queue, kind, run id, reactor, run_at, snoozes, deliveries, lease_expires,
--    run leased 0/1, run lease owner, token, expires_at[, run, started 0/1, run deliveries,
--    header, slot]}
--                              run (when leased): the run's rows as load_run returns them,
--                              as they were before this fetch; started: the fetch filed the
--                              enqueued run as running (see below); run deliveries: the
--                              run's deliveries since its last progress, this one included
--                              (its meta's 'deliveries', counted here, cleared by a commit of
--                              progress); header: the run's header before this fetch, when
--                              the run is too large to bring (run is then nil); slot: when
--                              the job is the resume a one-element map's settle queued (its
--                              'slot_map', includes/maps) and the run came, {map id, that
--                              map's slot records} — an async unit's outcome, read here so
--                              that its owner need not ask for it
--   {'unreadable', id, kind}   a job kind this build does not know (left leased)
--   {'idle', now, next_due}    nothing due; next_due ('' if none) is when the earliest
--                              waiting job or delivery falls due, by the server's clock
--- @include "includes/keys"
--- @include "includes/clock"
--- @include "includes/leases"

local A = ARGV
local owner, visibility, ttl = A[1], tonumber(A[2]), tonumber(A[3])
local enqueued, running, worker = A[4], A[5], A[6]
local now = now_ms()
local best_queue, best_member, best_run_at, next_due
for q_index = 7, #A do
  local q = A[q_index]
  local busy = redis.call('ZRANGE', inflight_key(q), 0, 0, 'WITHSCORES')
  if busy[1] and tonumber(busy[2]) <= now then
    -- Deliveries whose visibility timeout passed (a crashed or stalled
    -- worker) rejoin the ready jobs at their run_at. Bounded per call; any
    -- rest follow on the next fetches.
    local lapsed = redis.call('ZRANGEBYSCORE', inflight_key(q), '-inf', int(now), 'LIMIT', 0, 100)
    for _, m in ipairs(lapsed) do
      redis.call('ZREM', inflight_key(q), m)
      local run_at = redis.call('HGET', job_key(int(m)), 'run_at')
      if run_at then redis.call('ZADD', ready_key(q), run_at, m) end
    end
    busy = redis.call('ZRANGE', inflight_key(q), 0, 0, 'WITHSCORES')
  end
  local head = redis.call('ZRANGE', ready_key(q), 0, 0, 'WITHSCORES')
  if head[1] then
    local run_at = tonumber(head[2])
    if run_at <= now then
      if not best_member or run_at < best_run_at or
         (run_at == best_run_at and head[1] < best_member) then
        best_queue, best_member, best_run_at = q, head[1], run_at
      end
    elseif not next_due or run_at < next_due then
      next_due = run_at
    end
  end
  if busy[1] and (not next_due or tonumber(busy[2]) < next_due) then
    next_due = tonumber(busy[2])
  end
end

if not best_member then
  -- The wake-ups queued so far are spent: their jobs are taken, or not due
  -- yet and covered by next_due. So the caller's next wait really blocks.
  for q_index = 7, #A do redis.call('DEL', wake_key(A[q_index])) end
  return {'idle', int(now), next_due and int(next_due) or ''}
end
local id = int(best_member)
local job = redis.call('HMGET', job_key(id), 'kind', 'run_id', 'reactor', 'run_at', 'snoozes',
                       'deliveries', 'slot_map')
if not job[2] then
  -- A queue entry without its job (never written so): drop it, fetch again.
  redis.call('ZREM', ready_key(best_queue), best_member)
  return {'idle', int(now), int(now)}
end
local expires = int(now + visibility)
local deliveries = int((tonumber(job[6]) or 0) + 1)
redis.call('ZREM', ready_key(best_queue), best_member)
redis.call('ZADD', inflight_key(best_queue), expires, best_member)
redis.call('HSET', job_key(id), 'deliveries', deliveries, 'lease_owner', owner, 'lease_expires',
           expires)
-- The names of JobKind (records.cpp). A job this build cannot read stays
-- leased, so it steps aside for its visibility timeout instead of blocking
-- the head of the queue.
if job[1] ~= 'start' and job[1] ~= 'resume' then return {'unreadable', id, job[1]} end

-- The run's lease, taken as acquire() does, in the same read and write as
-- filing the run as running.
local root = job[2]
local meta_key = run_key(root, 'meta')
local cur = redis.call('HMGET', meta_key, 'owner', 'token', 'expires_at', 'status', 'reactor',
                       'element')
local reply = {'job', id, best_queue, job[1], root, job[3], job[4], job[5], deliveries, expires}
if lease_live(cur[1], cur[3], now) then
  reply[11], reply[12], reply[13], reply[14] = '0', cur[1], cur[2], cur[3]
  return reply
end
local token = int(redis.call('INCR', FENCING_TOKEN))
local lease_expires = int(now + ttl)
reply[11], reply[12], reply[13], reply[14] = '1', owner, token, lease_expires
-- The run comes with its lease, as load_run reads it: one round trip, not two. Not a large one:
-- Lua copies a hash at about five times the cost of a native read, the server blocked all along
-- (100,000 rows: 3.5 s), so past MAX_FETCHED_ROWS the backend reads it natively next, and gets
-- its header as it was before this fetch (reply[18]) in place of the one this fetch writes.
local MAX_FETCHED_ROWS = 5000
local rows_key = run_key(root, 'rows')
reply[15] = false
if redis.call('HLEN', rows_key) <= MAX_FETCHED_ROWS then
  reply[15] = {redis.call('HGETALL', rows_key), token}
end
reply[16] = '0'
reply[17] = int(redis.call('HINCRBY', meta_key, 'deliveries', 1))
local meta = {'owner', owner, 'token', token, 'expires_at', lease_expires}
-- The run's header records who executes it from this delivery on (the lease's token and the
-- worker), and a run still filed as enqueued is filed as running, with this moment as
-- updated_at, so the worker does not spend a commit on it before the first step. The header
-- is written status, updated_at, exec_token, exec_worker first (src/records/fields.hpp;
-- before layout 5 without the two exec members), which is the prefix rewritten here.
local field = header_field(root)
local blob = redis.call('HGET', rows_key, field)
reply[18] = (not reply[15]) and blob or false
if reply[15] and job[7] then
  reply[19] = {job[7], redis.call('ZRANGEBYSCORE', slots_key(job[7]), 0, 0)}
end
if blob then
  local status, updated, rest = string.match(blob,
      '^{"status":"([^"]*)","updated_at":(%d+),"exec_token":%d+,"exec_worker":"[^"]*"(,.*)$')
  if not status then
    status, updated, rest = string.match(blob, '^{"status":"([^"]*)","updated_at":(%d+)(,.*)$')
  end
  if status then
    if status == enqueued then
      status, updated = running, int(now)
      -- An element run of a fan-out map is filed apart from the roots callers started.
      local index = cur[6] == '1' and eindex_key or index_key
      redis.call('ZREM', index(enqueued, cur[5]), root)
      redis.call('ZADD', index(running, cur[5]), updated, root)
      meta[7], meta[8] = 'status', running
      reply[16] = '1'
    end
    redis.call('HSET', rows_key, field,
               '{"status":"' .. status .. '","updated_at":' .. updated .. ',"exec_token":' ..
               token .. ',"exec_worker":"' .. worker .. '"' .. rest)
  end
end
redis.call('HSET', meta_key, unpack(meta))
return reply
