#include "storage/redis/redis_scripts.hpp"

#include <map>

namespace reactor::redis {

namespace {

// Shared by every script: key names, the server clock, leases, jobs.
constexpr const char* kHelpers = R"lua(
local P = ARGV[1]

-- Integers as decimal text: Lua numbers are doubles, and tostring() would use
-- exponent notation past 14 digits.
local function int(x) return string.format('%d', x) end

-- Unix milliseconds by the server's clock: the one clock every expiry is judged by.
-- Read once per script call (a commit that releases a lease and then fetches
-- asks twice): the call is atomic, so one instant serves all of it.
local clock_ms
local function now_ms()
  if not clock_ms then
    local t = redis.call('TIME')
    clock_ms = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
  end
  return clock_ms
end

-- Every key of one root run carries the hash tag {root}.
local function run_key(root, what) return P .. '{' .. root .. '}:' .. what end
local RUNS = P .. 'runs'          -- hash: child run id -> root id
local REACTORS = P .. 'reactors'  -- set: the reactor of every root ever filed
local EXPIRING = P .. 'expiring'  -- zset: terminal root ids with a retention, by expires_at
local LEASES = P .. 'leases'      -- zset: lease keys other than run:*, by expires_at
-- Roots by status and reactor, by updated_at: one index per pair, so a commit
-- re-scores a root in one index (docs/redis.md, "Key layout").
local function index_key(status, reactor) return P .. 'index:' .. status .. ':' .. reactor end
-- `id` as decimal text (what int() gives): string.format costs more than a
-- redis.call, so each id is turned into text once per script.
local function job_key(id) return P .. 'job:' .. id end
local function ready_key(q) return P .. 'ready:' .. q end
local function inflight_key(q) return P .. 'inflight:' .. q end
local function wake_key(q) return P .. 'wake:' .. q end

-- Queue members are zero-padded job ids: jobs due at the same time then
-- order by id, which is enqueue order.
local function member(id) return string.format('%020d', id) end

-- A root is its own root: only child runs are filed in RUNS.
local function root_of(run_id) return redis.call('HGET', RUNS, run_id) or run_id end

local function is_run_lease(k) return string.sub(k, 1, 4) == 'run:' end
-- A run's lease lives in its root's meta hash, beside where the root is filed.
local function lease_key(k)
  if is_run_lease(k) then return run_key(string.sub(k, 5), 'meta') end
  return P .. 'lease:' .. k
end

-- Fields of a root's rows hash: h:<run id> header, i:<run id> inputs,
-- s:<run id>#<index> step, t:<seq> trace event.
local function header_field(id) return 'h:' .. id end

local function lease_live(owner, expires_at, now)
  return owner and owner ~= '' and tonumber(expires_at) > now
end

-- Takes lease k for owner when it is free (no holder, released or expired),
-- with a token from the one counter every key shares. Returns granted, then
-- the holder's owner, token and expires_at.
local function acquire(k, owner, ttl, now)
  local lk = lease_key(k)
  local cur = redis.call('HMGET', lk, 'owner', 'token', 'expires_at')
  if lease_live(cur[1], cur[3], now) then
    return false, cur[1], tonumber(cur[2]), tonumber(cur[3])
  end
  local token = redis.call('INCR', P .. 'fencing_token')
  local expires_at = now + ttl
  redis.call('HSET', lk, 'owner', owner, 'token', int(token), 'expires_at', int(expires_at))
  if not is_run_lease(k) then redis.call('ZADD', LEASES, int(expires_at), k) end
  return true, owner, token, expires_at
end

-- One wake-up per job (n of them) for the workers blocked on the queue;
-- capped, since nobody may be listening.
local WAKE_CAP = 64
local function wake(q, n)
  local tokens = {}
  for k = 1, math.min(n or 1, WAKE_CAP) do tokens[k] = '1' end
  if redis.call('LPUSH', wake_key(q), unpack(tokens)) > WAKE_CAP then
    redis.call('LTRIM', wake_key(q), 0, WAKE_CAP - 1)
  end
end

local function delete_job(id, queue, run_id)  -- id: decimal text
  local m = member(id)
  redis.call('DEL', job_key(id))
  -- A job is in one of the two: delivered (the usual case of an ack) or ready.
  if redis.call('ZREM', inflight_key(queue), m) == 0 then redis.call('ZREM', ready_key(queue), m) end
  redis.call('SREM', run_key(run_id, 'jobs'), id)
end

-- Files root `id` under `status` and `reactor`, scored by `updated_at`. `was`
-- is where it was filed (status, reactor; nil for a root never filed): a root
-- re-filed leaves that index, and a reactor not seen before joins REACTORS
-- (`added`: the reactors this call added). Only a terminal root (`terminal`)
-- with a retention (`expires_at` > 0) is filed in EXPIRING. Returns whether
-- its status or reactor changed: the caller records them in its meta hash.
local function file_root(id, was, status, reactor, updated_at, terminal, expires_at, added)
  local moved = was[1] ~= status or was[2] ~= reactor
  if moved then
    if was[1] then redis.call('ZREM', index_key(was[1], was[2]), id) end
    if was[2] ~= reactor and not added[reactor] then
      redis.call('SADD', REACTORS, reactor)
      added[reactor] = true
    end
  end
  redis.call('ZADD', index_key(status, reactor), updated_at, id)
  if terminal and tonumber(expires_at) > 0 then
    redis.call('ZADD', EXPIRING, expires_at, id)
  elseif terminal or (was[1] and was[1] ~= status) then
    -- A root that stays non-terminal is not filed there, nor is one never filed before.
    redis.call('ZREM', EXPIRING, id)
  end
  return moved
end

-- Deletes job `id` (decimal text) for an ack by `owner`: a delivery that
-- timed out and went to another worker is that worker's now, and a late ack
-- leaves it alone. A job not in delivery may be acked by anyone.
local function ack(id, owner)
  local job = redis.call('HMGET', job_key(id), 'lease_owner', 'queue', 'run_id')
  if job[2] and (job[1] == '' or job[1] == owner) then delete_job(id, job[2], job[3]) end
end

-- Queues job `id` (decimal text), and counts the wake-up it owes in `wakeups`
-- (per queue, queues in the order first named), sent once per queue at the end.
local function enqueue_job(wakeups, id, queue, kind, run_id, reactor, run_at, snoozes)
  redis.call('HSET', job_key(id), 'queue', queue, 'kind', kind, 'run_id', run_id,
             'reactor', reactor, 'run_at', run_at, 'snoozes', snoozes, 'deliveries', 0,
             'lease_owner', '', 'lease_expires', 0)
  redis.call('ZADD', ready_key(queue), run_at, member(id))
  redis.call('SADD', run_key(run_id, 'jobs'), id)
  if not wakeups[queue] then wakeups[#wakeups + 1] = queue end
  wakeups[queue] = (wakeups[queue] or 0) + 1
end
local function send_wakeups(wakeups)
  for _, queue in ipairs(wakeups) do wake(queue, wakeups[queue]) end
end
)lua";

// The rows of a commit that writes only its own root, as step_commit and
// finish_commit send them. step_commit goes without the helpers, so this is
// a fragment of its own that both scripts include.
constexpr const char* kWriteOwnRows = R"lua(
-- Writes root's header blob and its step rows in one HSET of rows_key, then
-- its trace rows, from args[from] on: the number n of step rows, n rows
-- (index, body), then trace rows (seq, body) to the end. A trace row is
-- written once: the first write of a seq wins.
local function write_own_rows(rows_key, root, header, args, from)
  local fields = {'h:' .. root, header}
  local trace_from = from + 1 + 2 * tonumber(args[from])
  for k = from + 1, trace_from - 1, 2 do
    fields[#fields + 1] = 's:' .. root .. '#' .. args[k]
    fields[#fields + 1] = args[k + 1]
  end
  redis.call('HSET', rows_key, unpack(fields))
  for k = trace_from, #args, 2 do redis.call('HSETNX', rows_key, 't:' .. args[k], args[k + 1]) end
end
)lua";

constexpr const char* kInit = R"lua(
-- ARGV: prefix, layout version, oldest version read as it is. Records the version on first
-- use, and over a stored one from the oldest up; returns the stored one.
redis.call('SET', P .. 'layout_version', ARGV[2], 'NX')
local stored = tonumber(redis.call('GET', P .. 'layout_version'))
if stored and stored >= tonumber(ARGV[3]) and stored < tonumber(ARGV[2]) then
  redis.call('SET', P .. 'layout_version', ARGV[2])
  stored = tonumber(ARGV[2])
end
return stored
)lua";

constexpr const char* kCommit = R"lua(
-- A (ARGV): prefix, nonce, root id, fencing token, release lease (0/1), lease owner,
-- ack job id ('' for none), ack owner, then five sections, each a row count
-- followed by that many fixed-size rows:
--   headers (id, root id, parent id, reactor, status, terminal 0/1, updated_at, expires_at, blob)
--   inputs  (run id, inputs)
--   steps   (run id, index, body)
--   trace   (root id, seq, body)
--   jobs    (queue, kind, run id, reactor, run_at, snoozes)
-- Returns 1 when applied (or applied before under this nonce), 0 when fenced out.
-- Every check comes before the first write: Redis does not roll a script back.
local nonce, root, token = A[2], A[3], A[4]
local release, lease_owner, ack_job, ack_owner = A[5], A[6], A[7], A[8]

-- A commit resent after its connection was lost may have been applied already.
if nonce ~= '' and redis.call('EXISTS', P .. 'commit:' .. nonce) == 1 then return 1 end
-- The commit's own root: its fence, where it is filed and who holds it, in one read.
local meta
if token ~= '0' then
  meta = redis.call('HMGET', run_key(root, 'meta'), 'token', 'status', 'reactor', 'owner')
  -- Fence: a writer whose token is no longer the newest writes nothing, so a
  -- paused zombie can never overwrite its successor's state.
  if meta[1] ~= token then return 0 end
end

local i = 9
local function rows()
  local n = tonumber(A[i])
  i = i + 1
  return n
end
local function take(n)
  local first = i
  i = i + n
  return unpack(A, first, first + n - 1)
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
-- Reactors added to REACTORS by this commit: a bulk start files hundreds of roots of one.
local reactors_added = {}
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
for _ = 1, rows() do
  local id, run_root, parent, reactor, status, terminal, updated_at, expires_at, blob = take(9)
  roots_of[id] = run_root
  upsert(run_root, header_field(id), blob)
  if parent == '' then
    -- The indexes list_runs, find_orphans and purge_expired read; the meta
    -- hash remembers where the root is filed, to unfile it when it changes.
    local was
    if id == root and meta then
      was = {meta[2], meta[3]}
    else
      was = redis.call('HMGET', run_key(id, 'meta'), 'status', 'reactor')
    end
    local terminal_root = terminal == '1'
    if file_root(id, was, status, reactor, updated_at, terminal_root, expires_at, reactors_added) then
      if id == root then
        set_root_meta('status', status)
        set_root_meta('reactor', reactor)
      else
        redis.call('HSET', run_key(id, 'meta'), 'status', status, 'reactor', reactor)
      end
      fresh[id] = not was[1]
    end
  else
    redis.call('HSET', RUNS, id, run_root)
  end
end
for _ = 1, rows() do
  local run_id, inputs = take(2)
  -- Inputs are written once: the first write wins. A root filed just now has none yet.
  if fresh[run_id] then
    upsert(run_id, 'i:' .. run_id, inputs)
  else
    redis.call('HSETNX', run_key(root_of_row(run_id), 'rows'), 'i:' .. run_id, inputs)
  end
end
for _ = 1, rows() do
  local run_id, index, body = take(3)
  upsert(root_of_row(run_id), 's:' .. run_id .. '#' .. index, body)
end
for _ = 1, rows() do
  local trace_root, seq, body = take(3)
  redis.call('HSETNX', run_key(trace_root, 'rows'), 't:' .. seq, body)
end
-- In slices: unpack() is bounded by the Lua stack.
for _, key in ipairs(batch_keys) do
  local b = batches[key]
  for first = 1, #b, 400 do
    redis.call('HSET', key, unpack(b, first, math.min(first + 399, #b)))
  end
end
-- Jobs: ids from one counter, taken in one INCRBY; the wake-ups once per queue.
local jobs = rows()
local last_id = jobs > 0 and redis.call('INCRBY', P .. 'job_ids', jobs) or 0
local wakeups = {}
for k = 1, jobs do
  enqueue_job(wakeups, int(last_id - jobs + k), take(6))
end
send_wakeups(wakeups)
if ack_job ~= '' then ack(ack_job, ack_owner) end
if release == '1' and meta and lease_owner ~= '' and meta[4] == lease_owner then
  -- The token was checked by the fence; the token stays, as the run's fence.
  set_root_meta('owner', '')
  set_root_meta('expires_at', int(now_ms()))
end
if #root_meta > 0 then redis.call('HSET', run_key(root, 'meta'), unpack(root_meta)) end
if nonce ~= '' then redis.call('SET', P .. 'commit:' .. nonce, '1', 'PX', 600000) end
return 1
)lua";

// Starting runs, one or in bulk: each a root with its header, its inputs and its
// one job, unfenced, nothing else. With seven arguments a run instead of
// kCommit's seventeen, and one pass over them.
constexpr const char* kCreateRuns = R"lua(
-- A (ARGV): prefix, nonce, status, job kind, then per run (id, reactor, updated_at, header
-- blob, inputs, queue, run_at) to the end. Returns 1.
local nonce, status, kind = A[2], A[3], A[4]
if nonce ~= '' and redis.call('EXISTS', P .. 'commit:' .. nonce) == 1 then return 1 end
local runs = (#A - 4) / 7
local last_id = redis.call('INCRBY', P .. 'job_ids', runs)
local wakeups, reactors_added = {}, {}
for k = 1, runs do
  local id, reactor, updated_at, header, inputs, queue, run_at = unpack(A, 7 * k - 2, 7 * k + 4)
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
if nonce ~= '' then redis.call('SET', P .. 'commit:' .. nonce, '1', 'PX', 600000) end
return 1
)lua";

// Most commits are one step of a running root: the root's own header row (not
// terminal), its step and trace rows, nothing else. They have a script of
// their own, with a short argument list and without the helpers: every
// argument becomes a Lua string, and the helpers' closures are built on every
// call, so such a commit costs Redis about 15 % less than the fast path that
// began kCommit before (docs/redis.md, "Round trips"). What it writes is what
// kCommit would; its key names are spelled as the helpers spell them.
constexpr const char* kStepCommit = R"lua(
-- ARGV: prefix, root id, fencing token, status, reactor, updated_at, header blob,
-- the number n of step rows, n rows (index, body), then trace rows (seq, body)
-- to the end. Returns 1 when applied, 0 when fenced out.
local P, root, token, status, reactor = ARGV[1], ARGV[2], ARGV[3], ARGV[4], ARGV[5]
local tag = P .. '{' .. root .. '}:'
local meta = redis.call('HMGET', tag .. 'meta', 'token', 'status', 'reactor')
if meta[1] ~= token then return 0 end
write_own_rows(tag .. 'rows', root, ARGV[7], ARGV, 8)
-- Filed elsewhere until now (a new status, or its first filing): moved, as the helpers' file_root()
-- moves a root (spelled out here, without the helpers; a step commit never ends its root).
if meta[2] ~= status or meta[3] ~= reactor then
  if meta[2] then redis.call('ZREM', P .. 'index:' .. meta[2] .. ':' .. meta[3], root) end
  if meta[3] ~= reactor then redis.call('SADD', P .. 'reactors', reactor) end
  redis.call('HSET', tag .. 'meta', 'status', status, 'reactor', reactor)
  -- Only a terminal root is filed there, and this one no longer is.
  if meta[2] and meta[2] ~= status then redis.call('ZREM', P .. 'expiring', root) end
end
redis.call('ZADD', P .. 'index:' .. status .. ':' .. reactor, ARGV[6], root)
return 1
)lua";

// The last commit of a run, most often: the commit of a step that ends its
// root (its own header row, terminal, its step and trace rows), acking the
// job that delivered it and releasing the run's lease; nothing else. With a
// short argument list as kStepCommit's, about half of kCommit's for that
// shape, and none of kCommit's row walking. What it writes is what kCommit
// would; it runs after the helpers, since its usual caller also fetches.
constexpr const char* kFinishCommit = R"lua(
-- A (ARGV): prefix, root id, fencing token, status, reactor, updated_at, header blob (as
-- step_commit's), expires_at, lease owner to release for ('' to keep the lease), ack job id
-- ('' for none), ack owner, the number n of step rows, n rows (index, body), then trace rows
-- (seq, body) to the end. Returns 1 when applied, 0 when fenced out.
local root, token, status, reactor, expires_at = A[2], A[3], A[4], A[5], A[8]
local lease_owner, ack_job, ack_owner = A[9], A[10], A[11]
local meta_key, rows_key = run_key(root, 'meta'), run_key(root, 'rows')
local meta = redis.call('HMGET', meta_key, 'token', 'status', 'reactor', 'owner')
if meta[1] ~= token then return 0 end
write_own_rows(rows_key, root, A[7], A, 12)
local meta_fields = {}
if file_root(root, {meta[2], meta[3]}, status, reactor, A[6], true, expires_at, {}) then
  meta_fields = {'status', status, 'reactor', reactor}
end
if ack_job ~= '' then ack(ack_job, ack_owner) end
if lease_owner ~= '' and meta[4] == lease_owner then
  -- The token stays, as the run's fence.
  meta_fields[#meta_fields + 1] = 'owner'
  meta_fields[#meta_fields + 1] = ''
  meta_fields[#meta_fields + 1] = 'expires_at'
  meta_fields[#meta_fields + 1] = int(now_ms())
end
if #meta_fields > 0 then redis.call('HSET', meta_key, unpack(meta_fields)) end
return 1
)lua";

constexpr const char* kFetch = R"lua(
-- A (ARGV): prefix, owner, visibility ms, run lease ttl ms, the status names enqueued and
-- running, queue names...
-- Returns one of
--   {'job', id, queue, kind, run id, reactor, run_at, snoozes, deliveries, lease_expires,
--    run leased 0/1, run lease owner, token, expires_at[, run, started 0/1]}
--                              run (when leased): the run's rows as load_run returns them,
--                              as they were before this fetch; started: the fetch filed the
--                              enqueued run as running (see below)
--   {'unreadable', id, kind}   a job kind this build does not know (left leased)
--   {'idle', now, next_due}    nothing due; next_due ('' if none) is when the earliest
--                              waiting job or delivery falls due, by the server's clock
local owner, visibility, ttl = A[2], tonumber(A[3]), tonumber(A[4])
local enqueued, running = A[5], A[6]
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
                       'deliveries')
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
local cur = redis.call('HMGET', meta_key, 'owner', 'token', 'expires_at', 'status', 'reactor')
local reply = {'job', id, best_queue, job[1], root, job[3], job[4], job[5], deliveries, expires}
if lease_live(cur[1], cur[3], now) then
  reply[11], reply[12], reply[13], reply[14] = '0', cur[1], cur[2], cur[3]
  return reply
end
local token = int(redis.call('INCR', P .. 'fencing_token'))
local lease_expires = int(now + ttl)
reply[11], reply[12], reply[13], reply[14] = '1', owner, token, lease_expires
-- The run comes with its lease, as load_run reads it: one round trip, not two.
local rows = redis.call('HGETALL', run_key(root, 'rows'))
reply[15] = {rows, token}
reply[16] = '0'
local meta = {'owner', owner, 'token', token, 'expires_at', lease_expires}
-- A run still filed as enqueued is filed as running from this delivery on:
-- its header says so, with this moment as updated_at (the header is written
-- status and updated_at first, src/storage/redis/redis_backend.cpp), so the
-- worker does not spend a commit on it before the first step.
if cur[4] == enqueued then
  local field = header_field(root)
  for k = 1, #rows, 2 do
    if rows[k] == field then
      local rest = string.match(rows[k + 1], '^{"status":"' .. enqueued .. '","updated_at":%d+(,.*)$')
      if rest then
        local now_text = int(now)
        redis.call('HSET', run_key(root, 'rows'), field,
                   '{"status":"' .. running .. '","updated_at":' .. now_text .. rest)
        redis.call('ZREM', index_key(enqueued, cur[5]), root)
        redis.call('ZADD', index_key(running, cur[5]), now_text, root)
        meta[7], meta[8] = 'status', running
        reply[16] = '1'
      end
      break
    end
  end
end
redis.call('HSET', meta_key, unpack(meta))
return reply
)lua";

constexpr const char* kReleaseJob = R"lua(
-- ARGV: prefix, job id, owner, delay ms. Returns 1, or 0 when the delivery is not owner's.
local job = redis.call('HMGET', job_key(ARGV[2]), 'lease_owner', 'queue')
if not job[2] or ARGV[3] == '' or job[1] ~= ARGV[3] then return 0 end
local run_at = now_ms() + tonumber(ARGV[4])
local m = member(ARGV[2])
redis.call('HSET', job_key(ARGV[2]), 'lease_owner', '', 'lease_expires', 0, 'run_at', int(run_at))
redis.call('ZREM', inflight_key(job[2]), m)
redis.call('ZADD', ready_key(job[2]), int(run_at), m)
wake(job[2])
return 1
)lua";

constexpr const char* kAcquireLease = R"lua(
-- ARGV: prefix, key, owner, ttl ms. Returns {granted 0/1, holder, token, expires_at}.
local granted, holder, token, expires_at = acquire(ARGV[2], ARGV[3], tonumber(ARGV[4]), now_ms())
return {granted and 1 or 0, holder, int(token), int(expires_at)}
)lua";

constexpr const char* kExtendLease = R"lua(
-- ARGV: prefix, key, owner, token, ttl ms. Returns 1, or 0 when (owner, token) no longer holds it.
local cur = redis.call('HMGET', lease_key(ARGV[2]), 'owner', 'token')
if ARGV[3] == '' or cur[1] ~= ARGV[3] or cur[2] ~= ARGV[4] then return 0 end
local expires_at = now_ms() + tonumber(ARGV[5])
redis.call('HSET', lease_key(ARGV[2]), 'expires_at', int(expires_at))
if not is_run_lease(ARGV[2]) then redis.call('ZADD', LEASES, int(expires_at), ARGV[2]) end
return 1
)lua";

constexpr const char* kReleaseLease = R"lua(
-- ARGV: prefix, key, owner, token. Returns 1, or 0 when (owner, token) does not hold it.
local cur = redis.call('HMGET', lease_key(ARGV[2]), 'owner', 'token')
if ARGV[3] == '' or cur[1] ~= ARGV[3] or cur[2] ~= ARGV[4] then return 0 end
local now = now_ms()
-- The token stays: it is still the run's fence, and is never handed out again.
redis.call('HSET', lease_key(ARGV[2]), 'owner', '', 'expires_at', int(now))
if not is_run_lease(ARGV[2]) then redis.call('ZADD', LEASES, int(now), ARGV[2]) end
return 1
)lua";

constexpr const char* kLoadRun = R"lua(
-- ARGV: prefix, root id. Returns {rows, token}: the root's rows hash as a
-- field/value list, then the newest token of the run's lease ('0' if none).
local root = ARGV[2]
return {redis.call('HGETALL', run_key(root, 'rows')),
        redis.call('HGET', lease_key('run:' .. root), 'token') or '0'}
)lua";

constexpr const char* kLoadHeader = R"lua(
-- ARGV: prefix, run id. Returns the header blob, or nil.
return redis.call('HGET', run_key(root_of(ARGV[2]), 'rows'), header_field(ARGV[2]))
)lua";

constexpr const char* kListRuns = R"lua(
-- ARGV: prefix, status ('' for any), reactor ('' for any), limit, then the
-- names of every status (read when no status is given).
-- Returns root header blobs, newest updated_at first (ties: id descending).
local status, reactor, limit = ARGV[2], ARGV[3], tonumber(ARGV[4])
if limit < 1 then return {} end
local statuses = status ~= '' and {status} or {unpack(ARGV, 5)}
local reactors = reactor ~= '' and {reactor} or redis.call('SMEMBERS', REACTORS)
-- The newest `limit` roots overall are among the newest `limit` of each index.
local found = {}
for _, s in ipairs(statuses) do
  for _, r in ipairs(reactors) do
    local entries = redis.call('ZREVRANGE', index_key(s, r), 0, limit - 1, 'WITHSCORES')
    for k = 1, #entries, 2 do found[#found + 1] = {entries[k], tonumber(entries[k + 1])} end
  end
end
table.sort(found, function(a, b)
  if a[2] ~= b[2] then return a[2] > b[2] end
  return a[1] > b[1]
end)
local out = {}
for k = 1, math.min(limit, #found) do
  local blob = redis.call('HGET', run_key(found[k][1], 'rows'), header_field(found[k][1]))
  if blob then out[#out + 1] = blob end
end
return out
)lua";

constexpr const char* kFindOrphans = R"lua(
-- ARGV: prefix, limit, and the status names running, rolling_back, enqueued.
-- Returns root header blobs: running or rolling back with no live lease, and
-- enqueued with no job; oldest updated_at first (ties: id), at most limit.
local limit = tonumber(ARGV[2])
local now = now_ms()
local found = {}
-- Each index contributes at most `limit` runs, oldest first: enough for the
-- oldest `limit` overall.
local function scan_index(key, orphaned)
  local start, taken, page = 0, 0, 500
  while taken < limit do
    local entries = redis.call('ZRANGE', key, start, start + page - 1, 'WITHSCORES')
    for k = 1, #entries, 2 do
      if taken >= limit then break end
      if orphaned(entries[k]) then
        found[#found + 1] = {entries[k], tonumber(entries[k + 1])}
        taken = taken + 1
      end
    end
    if #entries < 2 * page then break end
    start = start + page
  end
end
local reactors = redis.call('SMEMBERS', REACTORS)
local function scan(status, orphaned)
  for _, reactor in ipairs(reactors) do scan_index(index_key(status, reactor), orphaned) end
end
local function unserved(id)
  local lease = redis.call('HMGET', lease_key('run:' .. id), 'owner', 'expires_at')
  return not lease_live(lease[1], lease[2], now)
end
local function jobless(id) return redis.call('EXISTS', run_key(id, 'jobs')) == 0 end
scan(ARGV[3], unserved)
scan(ARGV[4], unserved)
scan(ARGV[5], jobless)
table.sort(found, function(a, b)
  if a[2] ~= b[2] then return a[2] < b[2] end
  return a[1] < b[1]
end)
local out = {}
for k = 1, math.min(limit, #found) do
  local id = found[k][1]
  local blob = redis.call('HGET', run_key(id, 'rows'), header_field(id))
  if blob then out[#out + 1] = blob end
end
return out
)lua";

constexpr const char* kPurgeExpired = R"lua(
-- ARGV: prefix, limit. Deletes up to limit terminal roots whose expires_at
-- passed, with every row of theirs, and dead leases on keys other than run:*.
-- Returns how many roots were purged.
local limit = tonumber(ARGV[2])
local now = now_ms()
local roots = redis.call('ZRANGEBYSCORE', EXPIRING, '-inf', int(now), 'LIMIT', 0, limit)
for _, root in ipairs(roots) do
  for _, field in ipairs(redis.call('HKEYS', run_key(root, 'rows'))) do
    if string.sub(field, 1, 2) == 'h:' then
      local id = string.sub(field, 3)
      if redis.call('HGET', RUNS, id) == root then redis.call('HDEL', RUNS, id) end
    end
  end
  local meta = redis.call('HMGET', run_key(root, 'meta'), 'status', 'reactor', 'owner',
                          'expires_at')
  if meta[1] then redis.call('ZREM', index_key(meta[1], meta[2]), root) end
  redis.call('ZREM', EXPIRING, root)
  for _, id in ipairs(redis.call('SMEMBERS', run_key(root, 'jobs'))) do
    local queue = redis.call('HGET', job_key(id), 'queue')
    if queue then delete_job(id, queue, root) end
  end
  redis.call('DEL', run_key(root, 'rows'), run_key(root, 'jobs'))
  -- A released or lapsed run lease goes with its run; a live one stays, since
  -- its holder still fences with it.
  if lease_live(meta[3], meta[4], now) then
    redis.call('HDEL', run_key(root, 'meta'), 'status', 'reactor')
  else
    redis.call('DEL', run_key(root, 'meta'))
  end
end
-- Tokens come from one counter, so deleting a dead lease never lets a token repeat.
for _, k in ipairs(redis.call('ZRANGEBYSCORE', LEASES, '-inf', int(now))) do
  local lease = redis.call('HMGET', lease_key(k), 'owner', 'expires_at')
  if lease_live(lease[1], lease[2], now) then
    redis.call('ZADD', LEASES, lease[2], k)
  else
    redis.call('DEL', lease_key(k))
    redis.call('ZREM', LEASES, k)
  end
end
return #roots
)lua";

struct Entry {
  const char* name;
  const char* body;
};

const std::map<ScriptId, Entry>& entries() {
  static const std::map<ScriptId, Entry> kEntries = {
      {ScriptId::kInit, {"init", kInit}},
      {ScriptId::kCommit, {"commit", kCommit}},
      {ScriptId::kStepCommit, {"step_commit", kStepCommit}},
      {ScriptId::kFetch, {"fetch", kFetch}},
      {ScriptId::kCommitThenFetch, {"commit_then_fetch", kCommit}},
      {ScriptId::kFinishCommit, {"finish_commit", kFinishCommit}},
      {ScriptId::kCreateRuns, {"create_runs", kCreateRuns}},
      {ScriptId::kFinishCommitThenFetch, {"finish_commit_then_fetch", kFinishCommit}},
      {ScriptId::kReleaseJob, {"release_job", kReleaseJob}},
      {ScriptId::kAcquireLease, {"acquire_lease", kAcquireLease}},
      {ScriptId::kExtendLease, {"extend_lease", kExtendLease}},
      {ScriptId::kReleaseLease, {"release_lease", kReleaseLease}},
      {ScriptId::kLoadRun, {"load_run", kLoadRun}},
      {ScriptId::kLoadHeader, {"load_header", kLoadHeader}},
      {ScriptId::kListRuns, {"list_runs", kListRuns}},
      {ScriptId::kFindOrphans, {"find_orphans", kFindOrphans}},
      {ScriptId::kPurgeExpired, {"purge_expired", kPurgeExpired}},
  };
  return kEntries;
}

// write_own_rows() for the scripts whose body calls it, nothing for the others.
const char* own_rows_part(const char* body) {
  return body == kStepCommit || body == kFinishCommit ? kWriteOwnRows : "";
}

// The commit scripts and fetch read their arguments from A: ARGV itself when
// called alone. A commit-then-fetch script runs both bodies, each as a
// function over its own slice of ARGV: prefix, the number n of commit
// arguments, the commit's arguments (without the prefix), then the fetch's.
// It returns {0} when the commit was fenced out (nothing fetched), else {1,
// fetch's reply}.
std::string then_fetch_source(const char* commit_body) {
  return std::string(kHelpers) + own_rows_part(commit_body) +
         "local n = tonumber(ARGV[2])\n"
         "local A = {ARGV[1], unpack(ARGV, 3, 2 + n)}\n"
         "local function commit_part()\n" +
         commit_body +
         "\nend\n"
         "if commit_part() ~= 1 then return {0} end\n"
         "A = {ARGV[1], unpack(ARGV, 3 + n)}\n"
         "local function fetch_part()\n" +
         kFetch +
         "\nend\n"
         "return {1, fetch_part()}\n";
}

bool then_fetches(ScriptId id) {
  return id == ScriptId::kCommitThenFetch || id == ScriptId::kFinishCommitThenFetch;
}

}  // namespace

const std::vector<ScriptId>& all_scripts() {
  static const std::vector<ScriptId> kAll = [] {
    std::vector<ScriptId> ids;
    for (const auto& [id, entry] : entries()) ids.push_back(id);
    return ids;
  }();
  return kAll;
}

const char* script_name(ScriptId id) { return entries().at(id).name; }

const std::string& script_source(ScriptId id) {
  static const std::map<ScriptId, std::string> kSources = [] {
    std::map<ScriptId, std::string> sources;
    for (const auto& [script, entry] : entries()) {
      const std::string header = std::string("-- reactor: ") + entry.name + "\n";
      if (then_fetches(script)) {
        sources[script] = header + then_fetch_source(entry.body);
      } else if (script == ScriptId::kStepCommit) {
        // Without the helpers, which would cost every call.
        sources[script] = header + own_rows_part(entry.body) + entry.body;
      } else {
        sources[script] =
            header + kHelpers + own_rows_part(entry.body) + "local A = ARGV\n" + entry.body;
      }
    }
    return sources;
  }();
  return kSources.at(id);
}

}  // namespace reactor::redis
