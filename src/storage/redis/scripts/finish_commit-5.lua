#!lua
-- finish_commit: the commit that ends a root: fence check, its header, steps and trace, the
-- ack of its job, the release of its lease. The last commit of a run, most often: the commit
-- of a step that ends its root (its own header row, terminal, its step and trace rows),
-- acking the job that delivered it and releasing the run's lease; nothing else. With a short
-- argument list as step_commit's, about half of commit's for that shape, and none of commit's
-- row walking. What it writes is what commit would. Unlike step_commit it uses the helpers:
-- its usual caller, finish_commit_then_fetch, also fetches, and has them anyway.
--
-- KEYS (5; each after the first is read by its name after the prefix, in any order):
-- KEYS[1]  the store's key prefix: every key derived at run time is built from it
-- KEYS[2]  P reactors
-- KEYS[3]  P expiring
-- KEYS[4]  P {root}:meta  the root's meta hash (ARGV[1])
-- KEYS[5]  P {root}:rows  its rows hash
-- ARGV[1..6]   root id, fencing token, status, reactor, updated_at, header blob (as
--              step_commit's)
-- ARGV[7]      expires_at
-- ARGV[8]      lease owner to release for ('' to keep the lease)
-- ARGV[9]      ack job id ('' for none)
-- ARGV[10]     ack owner
-- ARGV[11]     the number n of step rows
-- ARGV[12...]  n step rows (index, body), then trace rows (seq, body) to the end
-- The body reads them as A (ARGV, as a local). finish_commit_then_fetch runs this script whole
-- inside a function whose ARGV is its commit's slice of the arguments.
-- Returns 1 when applied, 0 when fenced out.
--- @include "includes/keys"
--- @include "includes/clock"
--- @include "includes/jobs"
--- @include "includes/filing"
--- @include "includes/own_rows"

local A = ARGV
local root, token, status, reactor, expires_at = A[1], A[2], A[3], A[4], A[7]
local lease_owner, ack_job, ack_owner = A[8], A[9], A[10]
local meta_key, rows_key = run_key(root, 'meta'), run_key(root, 'rows')
local meta = redis.call('HMGET', meta_key, 'token', 'status', 'reactor', 'owner', 'deliveries')
if meta[1] ~= token then return 0 end
-- Progress (storage/commit_check.hpp, is_progress): the count of deliveries since the last one
-- starts again.
if meta[5] and (tonumber(A[11]) > 0 or ack_job ~= '' or lease_owner ~= '') then
  redis.call('HDEL', meta_key, 'deliveries')
end
write_own_rows(rows_key, root, A[6], A, 11)
local meta_fields = {}
if file_root(root, {meta[2], meta[3]}, status, reactor, A[5], true, expires_at, {}) then
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
