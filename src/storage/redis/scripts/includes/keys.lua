-- includes/keys: the key and field names every script but step_commit builds, as
-- docs/redis.md ("Key layout") lays them out, and integers as decimal text.
-- Reads KEYS: KEYS[1] is the store's key prefix, from which the keys known only at run time (a
-- popped job's, an index by status) are derived; KEYS[2...] are the keys the script touches by
-- name, known to its caller (the store-wide `runs`, `reactors`, ...; a known root's meta and
-- rows), each read here by its name after the prefix. A prefix with a hash tag (`{shop}:`) gives
-- every key, declared or derived, that tag: Redis hashes only the first `{...}` of a name.
-- Includes nothing.
local P = KEYS[1]
local K = {}
for k = 2, #KEYS do K[string.sub(KEYS[k], #P + 1)] = KEYS[k] end
-- The key `name` (after the prefix): the declared one when the caller named it, else derived.
local function key(name) return K[name] or P .. name end

-- Integers as decimal text: Lua numbers are doubles, and tostring() would use
-- exponent notation past 14 digits.
local function int(x) return string.format('%d', x) end

-- Every key of one root run carries the hash tag {root}.
local function run_key(root, what) return key('{' .. root .. '}:' .. what) end
-- The store-wide keys: nil in a script that does not declare them in KEYS, so that using one
-- undeclared fails there (redis.call refuses a nil key).
local RUNS = K['runs']              -- hash: child run id -> root id
local REACTORS = K['reactors']      -- set: the reactor of every root ever filed
local EREACTORS = K['ereactors']    -- set: the reactor of every element run ever filed
local EXPIRING = K['expiring']      -- zset: terminal root ids with a retention, by expires_at
local LEASES = K['leases']          -- zset: lease keys other than run:*, by expires_at
local JOB_IDS = K['job_ids']        -- counter: the last job id
local FENCING_TOKEN = K['fencing_token']  -- counter: the last token granted
local LAYOUT_VERSION = K['layout_version']
-- Roots by status and reactor, by updated_at: one index per pair, so a commit
-- re-scores a root in one index (docs/redis.md, "Key layout").
local function index_key(status, reactor) return key('index:' .. status .. ':' .. reactor) end
-- The element runs of fan-out maps, filed apart so that a listing of the roots callers started
-- never reads them.
local function eindex_key(status, reactor) return key('eindex:' .. status .. ':' .. reactor) end
-- `id` as decimal text (what int() gives): string.format costs more than a
-- redis.call, so each id is turned into text once per script.
local function job_key(id) return key('job:' .. id) end
local function ready_key(q) return key('ready:' .. q) end
local function inflight_key(q) return key('inflight:' .. q) end
local function wake_key(q) return key('wake:' .. q) end

-- Queue members are zero-padded job ids: jobs due at the same time then
-- order by id, which is enqueue order.
local function member(id) return string.format('%020d', id) end

-- A root is its own root: only child runs are filed in RUNS.
local function root_of(run_id) return redis.call('HGET', RUNS, run_id) or run_id end

-- The root a caller started whose tree holds a map or an element run: the part of its id
-- before the first ':' (map ids are "<root id>:<path>", elements "<map id>[i]"). Its maps, and
-- the element runs of every map under it at any depth, are noted under its tag, so that
-- purge_expired finds them with it.
local function tree_root(id) return string.match(id, '^[^:]*') end
-- `what` of that root: 'maps' and 'elements' (sets of ids), 'map:<map id>' (a map's row, a hash
-- whose fields are MapRow's, src/records/fields.hpp), 'slots:<map id>' (its slot records by
-- index, a sorted set) and 'settled:<map id>' (a list holding a token once the map settled, for
-- the callers blocked in wait_for_settle).
local function tree_key(id, what) return run_key(tree_root(id), what) end
local function map_key(map_id) return tree_key(map_id, 'map:' .. map_id) end
local function slots_key(map_id) return tree_key(map_id, 'slots:' .. map_id) end
local function settled_key(map_id) return tree_key(map_id, 'settled:' .. map_id) end

-- Fields of a root's rows hash: h:<run id> header, i:<run id> inputs,
-- s:<run id>#<index> step, t:<seq> trace event.
local function header_field(id) return 'h:' .. id end
