-- includes/maps: the records of fan-out maps as a commit writes them: upsert_map(), a map's row
-- written whole, and settle(), what the commit of an element run's slot does, with the rules of
-- src/storage/map_settle.cpp (the memory and SQLite backends apply the same function).
--- @include "keys"
--- @include "clock"
--- @include "jobs"
--- @include "filing"

-- The names these scripts compare and write, as the records spell them (src/records/map.cpp,
-- records.cpp): they are stored, so they never change.
local MAP_RUNNING, MAP_FAILING, MAP_SETTLED = 'running', 'failing', 'settled'
local SLOT_FAILED, SLOT_UNDONE, SLOT_CANCELLED = 'failed', 'undone', 'cancelled'
-- How long a settled map's wake token is kept: a map's own keys have no expiry (they go with
-- their tree root), and a caller blocked in wait_for_settle reads the row before it waits.
local SETTLED_TTL_MS = 3600000

-- Writes a map's row whole: `m` is its field name -> value (MapRow's field list), and notes the
-- map under the root whose tree holds it.
local function upsert_map(m)
  local fields = {}
  for name, value in pairs(m) do
    fields[#fields + 1] = name
    fields[#fields + 1] = value
  end
  redis.call('HSET', map_key(m.map_id), unpack(fields))
  redis.call('SADD', tree_key(m.map_id, 'maps'), m.map_id)
end

-- MapRow's counters are unsigned 32-bit: they wrap as map_settle.cpp's do.
local function add32(x, by) return (x + by) % 4294967296 end

-- What a slot in `state` adds to the failed and undone counts of map `m`, `by` times.
local function count(m, state, by)
  if state == SLOT_FAILED then m.failed = add32(m.failed, by) end
  if state == SLOT_UNDONE then m.undone = add32(m.undone, by) end
  if state == SLOT_CANCELLED then m.cancelled = add32(m.cancelled, by) end
end

-- A header record with its leading status and updated_at rewritten (the record codec writes
-- them first: src/records/fields.hpp); nil for a record not of that shape.
local function restatus(blob, status, updated_at)
  local rest = string.match(blob, '^{"status":"[^"]*","updated_at":%d+(,.*)$')
  return rest and ('{"status":"' .. status .. '","updated_at":' .. updated_at .. rest)
end

-- The end of the claim of map `m` holding element `index` (one past its last element), and the
-- id of the run that carries it: the element's own run when a claim is one element
-- (records/map.cpp: claim_end, claim_run_id).
local function claim_end(m, index)
  local claim = math.max(m.claim, 1)
  return math.min((math.floor(index / claim) + 1) * claim, math.max(m.total, index + 1))
end
local function claim_run_id(m, first)
  if m.claim <= 1 then return m.map_id .. '[' .. int(first) .. ']' end
  return m.map_id .. '[' .. int(first) .. '..' .. int(claim_end(m, first) - 1) .. ']'
end

-- The claim of map `m` starting at element `first`, its run created pending by the map's owner,
-- released: the run filed enqueued as of now, and its start job queued.
local function release_claim(m, first, now, wakeups)
  local id = claim_run_id(m, first)
  local rows, meta = run_key(id, 'rows'), run_key(id, 'meta')
  local blob = redis.call('HGET', rows, header_field(id))
  local released = blob and restatus(blob, 'enqueued', int(now))
  if released then
    redis.call('HSET', rows, header_field(id), released)
    local was = redis.call('HMGET', meta, 'status', 'reactor')
    local reactor = was[2] or m.element_reactor
    if file_element(id, was, 'enqueued', reactor, now, {}) then
      redis.call('HSET', meta, unpack(element_meta('enqueued', reactor)))
    end
  end
  enqueue_job(wakeups, int(redis.call('INCR', JOB_IDS)), m.queue, 'start', id,
              m.element_reactor, int(now), 0)
end

-- Map `m` settled: its owner's resume queued, and a waiting owner's wake time set to now, so
-- that the sweeper finds it if that job is lost (find_orphans reads wake_at from the header
-- record, where the codec writes it after expires_at, leaving it out while it is 0). The job of
-- a one-element map (an async unit's) names it, so that its fetch brings the slot (fetch.lua).
local function resume_owner(m, now, wakeups)
  local id = int(redis.call('INCR', JOB_IDS))
  enqueue_job(wakeups, id, m.queue, 'resume', m.owner_id, m.owner_reactor, int(now), 0)
  if m.total == 1 then redis.call('HSET', job_key(id), 'slot_map', m.map_id) end
  local rows = run_key(m.owner_id, 'rows')
  local blob = redis.call('HGET', rows, header_field(m.owner_id))
  if not blob or string.match(blob, '^{"status":"([^"]*)"') ~= 'waiting' then return end
  -- A string member cannot hold an unescaped quote, so the first match is the member.
  local _, at = string.find(blob, ',"expires_at":%d+')
  if not at then return end
  local rest = string.sub(blob, at + 1)
  rest = string.match(rest, '^,"wake_at":%d+(,.*)$') or rest
  redis.call('HSET', rows, header_field(m.owner_id),
             string.sub(blob, 1, at) .. ',"wake_at":' .. int(now) .. rest)
end

-- The map fields a settle reads, and the counters it may write back.
local MAP_FIELDS = {'total', 'atomic', 'state', 'released', 'done', 'failed', 'undone', 'queue',
                    'element_reactor', 'owner_id', 'owner_reactor', 'cancelled', 'claim',
                    'batch_size'}

-- Slot `s` (a settle row: map_id, index, state, record, interrupted) counted in map `m` as
-- map_settle.cpp's count_slot() does, `old` the record it replaces (nil: a new slot): a new slot
-- counts, and stops the map after a failure of an atomic map or a cancelled element; a slot
-- written again in another state moves it between the failed, undone and cancelled counts only.
local function count_slot(m, s, old)
  local index, state = tonumber(s.index), s.state
  if old then
    -- The record writes map_id, index, then state: the first state member is the slot's.
    local before = string.match(old, ',"state":"([^"]*)"')
    if before ~= state then
      count(m, before, -1)
      count(m, state, 1)
    end
    return
  end
  m.done = add32(m.done, 1)
  count(m, state, 1)
  m.interrupted = m.interrupted + tonumber(s.interrupted)
  local stops = (state == SLOT_FAILED and m.atomic) or state == SLOT_CANCELLED
  if stops and m.state == MAP_RUNNING then m.state = MAP_FAILING end
  -- The next claim to release, cancelled before its release: it counts as released (and its
  -- elements, cancelled in the same settle, as reported), so that the map settles once those
  -- already out report.
  if state == SLOT_CANCELLED and index >= m.released then m.released = claim_end(m, index) end
end

-- Most slot records one ZADD takes: unpack() is bounded by the Lua stack.
local SLOTS_PER_ZADD = 200

-- The slots `rows` (a settle's, of map `m`) written, each replacing the one at its index, and
-- counted: the slots already there read with one command, the new records added in few.
local function write_slots(m, rows)
  local key = slots_key(m.map_id)
  local lo, hi = math.huge, -1
  for _, s in ipairs(rows) do
    lo, hi = math.min(lo, tonumber(s.index)), math.max(hi, tonumber(s.index))
  end
  local stored, pending = {}, {}
  local found = redis.call('ZRANGEBYSCORE', key, lo, hi, 'WITHSCORES')
  for k = 1, #found, 2 do stored[tonumber(found[k + 1])] = found[k] end
  local order = {}
  for _, s in ipairs(rows) do
    local index = tonumber(s.index)
    local old = pending[index] or stored[index]
    if stored[index] then
      redis.call('ZREM', key, stored[index])
      stored[index] = nil
    end
    if not pending[index] then order[#order + 1] = index end
    pending[index] = s.record
    count_slot(m, s, old)
  end
  for first = 1, #order, SLOTS_PER_ZADD do
    local args = {}
    for k = first, math.min(first + SLOTS_PER_ZADD - 1, #order) do
      args[#args + 1] = order[k]
      args[#args + 1] = pending[order[k]]
    end
    redis.call('ZADD', key, unpack(args))
  end
end

-- The settle of a commit: its slots (of one map) written and counted, then what map_settle.cpp's
-- release_and_settle() does: release claims while the map runs and fewer than batch_size of its
-- elements are out, and settle the map once every released element has reported. A map that
-- does not exist (purged with its owner) takes nothing.
local function settle(rows, wakeups)
  if #rows == 0 then return end
  local map_id = rows[1].map_id
  local v = redis.call('HMGET', map_key(map_id), unpack(MAP_FIELDS))
  if not v[1] then return end
  local m = {map_id = map_id, total = tonumber(v[1]), atomic = v[2] == '1', state = v[3],
             released = tonumber(v[4]), done = tonumber(v[5]), failed = tonumber(v[6]),
             undone = tonumber(v[7]), queue = v[8], element_reactor = v[9], owner_id = v[10],
             owner_reactor = v[11], cancelled = tonumber(v[12] or '0'),
             claim = tonumber(v[13] or '1'), batch_size = tonumber(v[14]), interrupted = 0}
  write_slots(m, rows)
  local releases = {}
  while m.state == MAP_RUNNING and m.released < m.total and
      math.max(m.released - m.done, 0) < m.batch_size do
    releases[#releases + 1] = m.released
    m.released = claim_end(m, m.released)
  end
  -- Settled once every released element has reported: all of them, or after a failure of an
  -- atomic map those already out (the rest never start).
  local all_out = m.state == MAP_FAILING or m.released >= m.total
  local settled = m.state ~= MAP_SETTLED and all_out and m.done >= m.released
  if settled then m.state = MAP_SETTLED end
  redis.call('HSET', map_key(map_id), 'state', m.state, 'released', int(m.released), 'done',
             int(m.done), 'failed', int(m.failed), 'undone', int(m.undone), 'cancelled',
             int(m.cancelled))
  if m.interrupted > 0 then
    redis.call('HINCRBY', map_key(map_id), 'interrupted', m.interrupted)
  end
  local now = now_ms()
  for _, first in ipairs(releases) do release_claim(m, first, now, wakeups) end
  if settled then
    resume_owner(m, now, wakeups)
    -- Wakes the callers blocked in wait_for_settle; the token stays for those that come later
    -- (they take it and put it back), until the map is purged or an hour has passed.
    redis.call('RPUSH', settled_key(map_id), '1')
    redis.call('PEXPIRE', settled_key(map_id), SETTLED_TTL_MS)
  end
end
