-- includes/run_facts: what a run looks like to the rules of coordination
-- (src/storage/hold_rules.cpp, RunSeen): its status, when its record last changed, whether its
-- lease is live; and whether its holds are alive.
--- @include "keys"
--- @include "clock"
--- @include "leases"
--- @include "sections"

-- What each status says to the rules (storage::status_role), by status name: read from the
-- script's arguments, so that the rules' table is written once, in C++.
local ROLES = {}
-- Reads the section of status rows at `at` (status, ended, failed, holds_unleased, paused);
-- returns where what follows it starts.
local function read_roles(args, at)
  local rows
  rows, at = section(args, at)
  for _, r in ipairs(rows) do
    ROLES[r.status] = {ended = r.ended == '1', failed = r.failed == '1',
                       holds_unleased = r.holds_unleased == '1', paused = r.paused == '1'}
  end
  return at
end
-- A status this build does not know: a run that is there, neither ended nor exempt.
local NO_ROLE = {}

-- Run `id` (a root: a holder, a chain's member) as the rules see it: nil when it has no header
-- (never stored, or purged), else {role, updated_at, lease_live}. Read once per call: nothing a
-- script of coordination writes changes it.
local seen_runs = {}
local function run_seen(id)
  if seen_runs[id] == nil then
    local seen = false
    local blob = redis.call('HGET', run_key(id, 'rows'), header_field(id))
    if blob then
      -- The record codec writes status and updated_at first (src/records/fields.hpp); a record
      -- of another shape is judged by the status it is filed under.
      local status, updated_at = string.match(blob, '^{"status":"([^"]*)","updated_at":(%d+)')
      local meta = redis.call('HMGET', run_key(id, 'meta'), 'owner', 'expires_at', 'status')
      seen = {role = ROLES[status or meta[3]] or NO_ROLE, updated_at = tonumber(updated_at or '0'),
              lease_live = lease_live(meta[1], meta[2], now_ms()) and true or false}
    end
    seen_runs[id] = seen
  end
  return seen_runs[id] or nil
end

-- Whether a holder's holds are alive: its lease is live, or it waits without one.
local function holds_alive(seen)
  return seen ~= nil and (seen.lease_live or seen.role.holds_unleased == true)
end
