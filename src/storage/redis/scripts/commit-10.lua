#!lua
-- commit: the general commit, for every shape step_commit, finish_commit and create_runs do
-- not take, and every commit that coordinates: fence check + headers + inputs + steps + trace +
-- jobs + map rows + settle + holds released, periods marked, chains joined + ack + lease
-- release.
--
-- KEYS (10; each after the first is read by its name after the prefix, in any order):
-- KEYS[1]   the store's key prefix: every key derived at run time is built from it
-- KEYS[2]   P runs
-- KEYS[3]   P reactors
-- KEYS[4]   P ereactors
-- KEYS[5]   P expiring
-- KEYS[6]   P job_ids
-- KEYS[7]   P holds
-- KEYS[8]   P periods
-- KEYS[9]   P chains
-- KEYS[10]  P {root}:meta  the meta hash of the commit's root (ARGV[2])
-- ARGV[1]     nonce ('' for none): a commit that enqueues, or settles a map slot (which may
--             enqueue), carries one, and one applied under it before is not applied again
-- ARGV[2]     root id
-- ARGV[3]     fencing token ('0': unfenced)
-- ARGV[4]     release lease (0/1)
-- ARGV[5]     lease owner
-- ARGV[6]     ack job id ('' for none)
-- ARGV[7]     ack owner
-- ARGV[8]     create (0/1): every root header is of a new run; if one exists, nothing is written
-- ARGV[9...]  eleven sections (includes/sections), each row read by the names of its record's
--             field list (src/records/fields.hpp; src/storage/redis/script_args.hpp):
--               headers   kHeaderArgs: header_row_fields but the body, terminal, record
--               inputs    RunInputsRow's fields
--               steps     StepRow's
--               trace     TraceRow's
--               jobs      JobSpec's
--               redeliver JobSpec's: every job of the run in delivery is deliverable at once;
--                         a run with no job gets this one (the sweeper's recovery)
--               maps      MapRow's: each row upserted whole
--               settle    kSlotArgs rows, all of one map: MapSlotRow's fields but the body,
--                         record (includes/maps)
--               releases  HoldRelease's: holder, claim (includes/hold_commit)
--               marks     PeriodMark's: mark, run_id
--               joins     OrderedJoin's: key, run_id
-- The body reads them as A (ARGV, as a local). commit_then_fetch runs this script whole inside
-- a function whose ARGV is its commit's slice of the arguments.
-- Returns 1 when applied (or applied before under this nonce), 0 when fenced out, and the id of
-- a run that exists already when a create commit names one (nothing is written): the codes
-- src/storage/redis/commit.cpp turns into storage::fenced_out and storage::run_exists
-- (commit_refusals.hpp). Its checks, in order: the nonce, the fence, the start's collision (the
-- commit contract, docs/durability.md).
--- @include "includes/keys"
--- @include "includes/clock"
--- @include "includes/jobs"
--- @include "includes/filing"
--- @include "includes/maps"
--- @include "includes/sections"
--- @include "includes/coordination"
--- @include "includes/hold_commit"

local A = ARGV
-- Every check comes before the first write: Redis does not roll a script back.
local nonce, root, token = A[1], A[2], A[3]
local release, lease_owner, ack_job, ack_owner, create = A[4], A[5], A[6], A[7], A[8]

-- A commit resent after its connection was lost may have been applied already.
if nonce ~= '' and redis.call('EXISTS', key('commit:' .. nonce)) == 1 then return 1 end
-- The commit's own root: its fence, where it is filed and who holds it, in one read.
local meta
if token ~= '0' then
  meta = redis.call('HMGET', run_key(root, 'meta'), 'token', 'status', 'reactor', 'owner',
                    'deliveries')
  -- Fence: a writer whose token is no longer the newest writes nothing, so a
  -- paused zombie can never overwrite its successor's state.
  if meta[1] ~= token then return 0 end
end
-- The sections, in their order.
local at = 9
local function next_section()
  local rows
  rows, at = section(A, at)
  return rows
end
local headers = next_section()
-- A start never overwrites a run.
if create == '1' then
  for _, h in ipairs(headers) do
    local rows = run_key(h.id, 'rows')
    if h.parent_id == '' and redis.call('HEXISTS', rows, header_field(h.id)) == 1 then
      return h.id
    end
  end
end
-- The root of a run named in this commit: the commit's own root, and every
-- run whose header row it carries, need no lookup.
local roots_of = {[root] = root}
local function root_of_row(run_id)
  return roots_of[run_id] or root_of(run_id)
end
-- Upserted fields, gathered per rows hash and written with one HSET each.
local batches, batch_keys = {}, {}
-- Fields of the commit's own root meta hash (its filing, the lease release), written once.
local root_meta = {}
local function set_root_meta(field, value)
  root_meta[#root_meta + 1] = field
  root_meta[#root_meta + 1] = value
end
-- Roots filed for the first time by this commit: nothing of theirs is stored yet.
local fresh = {}
-- Reactors added to REACTORS (and EREACTORS) by this commit: a bulk start files hundreds of
-- roots of one.
local reactors_added, element_reactors_added = {}, {}
local function upsert(run_root, field, value)
  local key = run_key(run_root, 'rows')
  local b = batches[key]
  if not b then
    b = {}
    batches[key] = b
    batch_keys[#batch_keys + 1] = key
  end
  b[#b + 1] = field
  b[#b + 1] = value
end

-- Most commits are a step of a running run: its header and index score
-- change, where it is filed does not. Only what changed is written, so such
-- a commit costs a handful of commands (docs/redis.md, "Round trips").
for _, h in ipairs(headers) do
  local id, run_root, parent, reactor, status = h.id, h.root_id, h.parent_id, h.reactor, h.status
  local terminal, updated_at, expires_at, blob = h.terminal, h.updated_at, h.expires_at, h.record
  roots_of[id] = run_root
  upsert(run_root, header_field(id), blob)
  if run_root == id then
    -- A run with records of its own: a root a caller started (no parent), or the element run
    -- of a fan-out map. The indexes list_runs, find_orphans and purge_expired read; the meta
    -- hash remembers where the run is filed, to unfile it when it changes.
    local was
    if id == root and meta then
      was = {meta[2], meta[3]}
    else
      was = redis.call('HMGET', run_key(id, 'meta'), 'status', 'reactor')
    end
    local filing
    if parent ~= '' then
      if file_element(id, was, status, reactor, updated_at, element_reactors_added) then
        filing = element_meta(status, reactor)
      end
    elseif file_root(id, was, status, reactor, updated_at, terminal == '1', expires_at,
                     reactors_added) then
      filing = {'status', status, 'reactor', reactor}
    end
    if filing then
      if id == root then
        for k = 1, #filing, 2 do set_root_meta(filing[k], filing[k + 1]) end
      else
        redis.call('HSET', run_key(id, 'meta'), unpack(filing))
      end
      fresh[id] = not was[1]
    end
  else
    redis.call('HSET', RUNS, id, run_root)
  end
end
for _, row in ipairs(next_section()) do
  local run_id, inputs = row.run_id, row.inputs
  -- Inputs are written once: the first write wins. A root filed just now has none yet.
  if fresh[run_id] then
    upsert(run_id, 'i:' .. run_id, inputs)
  else
    redis.call('HSETNX', run_key(root_of_row(run_id), 'rows'), 'i:' .. run_id, inputs)
  end
end
local steps = next_section()
for _, s in ipairs(steps) do
  upsert(root_of_row(s.run_id), 's:' .. s.run_id .. '#' .. s.index, s.body)
end
for _, t in ipairs(next_section()) do
  redis.call('HSETNX', run_key(t.root_id, 'rows'), 't:' .. t.seq, t.body)
end
-- In slices: unpack() is bounded by the Lua stack.
for _, key in ipairs(batch_keys) do
  local b = batches[key]
  for first = 1, #b, 400 do
    redis.call('HSET', key, unpack(b, first, math.min(first + 399, #b)))
  end
end
-- Jobs: ids from one counter, taken in one INCRBY; the wake-ups once per queue.
local jobs = next_section()
local last_id = #jobs > 0 and redis.call('INCRBY', JOB_IDS, #jobs) or 0
local wakeups = {}
for k, j in ipairs(jobs) do
  enqueue_job(wakeups, int(last_id - #jobs + k), j.queue, j.kind, j.run_id, j.reactor, j.run_at,
              j.snoozes)
end
for _, j in ipairs(next_section()) do
  local queue, kind, run_id, reactor, run_at, snoozes = j.queue, j.kind, j.run_id, j.reactor,
                                                         j.run_at, j.snoozes
  local ids = redis.call('SMEMBERS', run_key(run_id, 'jobs'))
  if #ids == 0 then
    enqueue_job(wakeups, int(redis.call('INCR', JOB_IDS)), queue, kind, run_id, reactor,
                run_at, snoozes)
  end
  for _, id in ipairs(ids) do
    local job = redis.call('HMGET', job_key(id), 'lease_owner', 'queue', 'run_at')
    if job[1] and job[1] ~= '' then
      local due = int(math.min(tonumber(job[3]), now_ms()))
      redis.call('HSET', job_key(id), 'lease_owner', '', 'lease_expires', 0, 'run_at', due)
      redis.call('ZREM', inflight_key(job[2]), member(id))
      redis.call('ZADD', ready_key(job[2]), due, member(id))
      if not wakeups[job[2]] then wakeups[#wakeups + 1] = job[2] end
      wakeups[job[2]] = (wakeups[job[2]] or 0) + 1
    end
  end
end
-- Map rows, then the settle, whose releases and resume are woken with the jobs above.
for _, m in ipairs(next_section()) do upsert_map(m) end
settle(next_section(), wakeups)
send_wakeups(wakeups)
local releasing = next_section()
local marks = next_section()
apply_hold_commit(releasing, marks, next_section())
if ack_job ~= '' then ack(ack_job, ack_owner) end
if release == '1' and meta and lease_owner ~= '' and meta[4] == lease_owner then
  -- The token was checked by the fence; the token stays, as the run's fence.
  set_root_meta('owner', '')
  set_root_meta('expires_at', int(now_ms()))
end
if #root_meta > 0 then redis.call('HSET', run_key(root, 'meta'), unpack(root_meta)) end
-- Progress of the root (storage/commit_check.hpp, is_progress): its count of deliveries since
-- its last progress starts again.
if meta and meta[5] and (#steps > 0 or ack_job ~= '' or release == '1') then
  redis.call('HDEL', run_key(root, 'meta'), 'deliveries')
end
if nonce ~= '' then redis.call('SET', key('commit:' .. nonce), '1', 'PX', 600000) end
return 1
