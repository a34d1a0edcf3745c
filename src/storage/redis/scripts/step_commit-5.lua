#!lua
-- step_commit: the commit of one step of a running root: fence check, its header, steps and
-- trace. Most commits are one step of a running root: the root's own header row (not
-- terminal), its step and trace rows, nothing else. They have a script of their own, with a
-- short argument list and without the helpers: every argument becomes a Lua string, and the
-- helpers' closures are built on every call, so such a commit costs Redis about 15 % less than
-- the fast path that began commit before (docs/redis.md, "Round trips"). What it writes is
-- what commit would; its key names are spelled as includes/keys spells them.
--
-- KEYS (5, read by position):
-- KEYS[1]  the store's key prefix: every key derived at run time is built from it
-- KEYS[2]  P reactors
-- KEYS[3]  P expiring
-- KEYS[4]  P {root}:meta  the root's meta hash (the root: its header's id)
-- KEYS[5]  P {root}:rows  its rows hash
-- ARGV[1]     fencing token
-- ARGV[2...]  three sections (includes/sections): the root's header (one row of kHeaderArgs,
--             as commit's), its step rows (StepRow's fields), its trace rows (TraceRow's)
-- Returns 1 when applied, 0 when fenced out (storage::fenced_out, commit_refusals.hpp).
--
-- It includes write_own_rows() (and the sections it reads) alone, not the other helpers, which
-- would cost every call: it is the commit Redis runs most.
--- @include "includes/own_rows"

local P, REACTORS, EXPIRING, meta_key, rows_key = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
local token = ARGV[1]
local meta = redis.call('HMGET', meta_key, 'token', 'status', 'reactor', 'deliveries')
if meta[1] ~= token then return 0 end
local h, step_rows = write_own_rows(rows_key, ARGV, 2)
local root, status, reactor = h.id, h.status, h.reactor
-- A step recorded is progress (storage/commit_check.hpp, is_progress): the count of deliveries
-- since the last one starts again.
if meta[4] and step_rows > 0 then redis.call('HDEL', meta_key, 'deliveries') end
-- Filed elsewhere until now (a new status, or its first filing): moved, as the helpers' file_root()
-- moves a root (spelled out here, without the helpers; a step commit never ends its root).
if meta[2] ~= status or meta[3] ~= reactor then
  if meta[2] then redis.call('ZREM', P .. 'index:' .. meta[2] .. ':' .. meta[3], root) end
  if meta[3] ~= reactor then redis.call('SADD', REACTORS, reactor) end
  redis.call('HSET', meta_key, 'status', status, 'reactor', reactor)
  -- Only a terminal root is filed there, and this one no longer is.
  if meta[2] and meta[2] ~= status then redis.call('ZREM', EXPIRING, root) end
end
redis.call('ZADD', P .. 'index:' .. status .. ':' .. reactor, h.updated_at, root)
return 1
