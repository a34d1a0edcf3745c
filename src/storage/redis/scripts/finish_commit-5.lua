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
-- KEYS[4]  P {root}:meta  the root's meta hash (the root: its header's id)
-- KEYS[5]  P {root}:rows  its rows hash; these two are the last KEYS, where
--                         finish_commit_then_fetch has them too
-- ARGV[1]      fencing token
-- ARGV[2]      lease owner to release for ('' to keep the lease)
-- ARGV[3]      ack job id ('' for none)
-- ARGV[4]      ack owner
-- ARGV[5...]   three sections, as step_commit's ARGV[2...]: the root's header, steps, trace
-- The body reads them as A (ARGV, as a local). finish_commit_then_fetch runs this script whole
-- inside a function whose ARGV is its commit's slice of the arguments.
-- Returns 1 when applied, 0 when fenced out (storage::fenced_out, commit_refusals.hpp).
--- @include "includes/keys"
--- @include "includes/clock"
--- @include "includes/jobs"
--- @include "includes/filing"
--- @include "includes/own_rows"

local A = ARGV
local token, lease_owner, ack_job, ack_owner = A[1], A[2], A[3], A[4]
local meta_key, rows_key = KEYS[#KEYS - 1], KEYS[#KEYS]
local meta = redis.call('HMGET', meta_key, 'token', 'status', 'reactor', 'owner', 'deliveries')
if meta[1] ~= token then return 0 end
local h, step_rows = write_own_rows(rows_key, A, 5)
local root, status, reactor = h.id, h.status, h.reactor
-- Progress (storage/commit_check.hpp, is_progress): the count of deliveries since the last one
-- starts again.
if meta[5] and (step_rows > 0 or ack_job ~= '' or lease_owner ~= '') then
  redis.call('HDEL', meta_key, 'deliveries')
end
local meta_fields = {}
if file_root(root, {meta[2], meta[3]}, status, reactor, h.updated_at, true, h.expires_at,
             {}) then
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
