-- includes/keys: the key and field names every script but step_commit builds, as
-- docs/redis.md ("Key layout") lays them out, and integers as decimal text.
-- Reads ARGV[1], the store's key prefix: the first argument of every script.
-- Includes nothing.
local P = ARGV[1]

-- Integers as decimal text: Lua numbers are doubles, and tostring() would use
-- exponent notation past 14 digits.
local function int(x) return string.format('%d', x) end

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

-- Fields of a root's rows hash: h:<run id> header, i:<run id> inputs,
-- s:<run id>#<index> step, t:<seq> trace event.
local function header_field(id) return 'h:' .. id end
