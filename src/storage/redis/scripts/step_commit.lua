-- step_commit: the commit of one step of a running root: fence check, its header, steps and
-- trace. Most commits are one step of a running root: the root's own header row (not
-- terminal), its step and trace rows, nothing else. They have a script of their own, with a
-- short argument list and without the helpers: every argument becomes a Lua string, and the
-- helpers' closures are built on every call, so such a commit costs Redis about 15 % less than
-- the fast path that began commit before (docs/redis.md, "Round trips"). What it writes is
-- what commit would; its key names are spelled as includes/keys spells them.
--
-- KEYS: none.
-- ARGV[1]     the store's key prefix
-- ARGV[2]     root id
-- ARGV[3]     fencing token
-- ARGV[4]     status
-- ARGV[5]     reactor
-- ARGV[6]     updated_at
-- ARGV[7]     header blob
-- ARGV[8]     the number n of step rows
-- ARGV[9...]  n step rows (index, body), then trace rows (seq, body) to the end
-- Returns 1 when applied, 0 when fenced out.
--
-- It includes write_own_rows() alone, not the other helpers, which would cost every call: it
-- is the commit Redis runs most.
--- @include "includes/own_rows"

local P, root, token, status, reactor = ARGV[1], ARGV[2], ARGV[3], ARGV[4], ARGV[5]
local tag = P .. '{' .. root .. '}:'
local meta = redis.call('HMGET', tag .. 'meta', 'token', 'status', 'reactor', 'deliveries')
if meta[1] ~= token then return 0 end
-- A step recorded is progress (storage/commit_check.hpp, is_progress): the count of deliveries
-- since the last one starts again.
if meta[4] and tonumber(ARGV[8]) > 0 then redis.call('HDEL', tag .. 'meta', 'deliveries') end
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
