#!lua
-- commit_then_fetch: commit, then fetch, in one call: a worker's last commit of a run and its
-- next fetch. It runs both scripts (commit.lua, fetch.lua), each as a function over its own
-- slice of the arguments, which it sees as its ARGV, as when it is called alone; the fetch
-- only if the commit was applied.
--
-- KEYS (11; each after the first is read by its name after the prefix, in any order):
-- KEYS[1]   the store's key prefix: every key derived at run time is built from it
-- KEYS[2]   P runs
-- KEYS[3]   P reactors
-- KEYS[4]   P ereactors
-- KEYS[5]   P expiring
-- KEYS[6]   P job_ids
-- KEYS[7]   P fencing_token
-- KEYS[8]   P holds
-- KEYS[9]   P periods
-- KEYS[10]  P chains
-- KEYS[11]  P {root}:meta  commit's KEYS and fetch's, by name
-- ARGV[1]             the number n of commit arguments
-- ARGV[2 .. 2 + n]    the commit's arguments without the prefix (commit.lua's ARGV[1] on)
-- ARGV[2 + n ...]     the fetch's arguments without the prefix (fetch.lua's ARGV[1] on)
-- Returns {0} when the commit was fenced out (nothing fetched), else {1, fetch's reply}.
--
-- What the two scripts include is included here first, at the top level, where both see it:
-- a script included in a function brings no includes of its own (cmake/embed_lua.cmake).
--- @include "includes/keys"
--- @include "includes/clock"
--- @include "includes/leases"
--- @include "includes/jobs"
--- @include "includes/filing"
--- @include "includes/maps"
--- @include "includes/sections"
--- @include "includes/coordination"
--- @include "includes/hold_commit"

local n = tonumber(ARGV[1])
local function commit_part(ARGV)
--- @include "commit-10"
end
if commit_part({unpack(ARGV, 2, 1 + n)}) ~= 1 then return {0} end
local function fetch_part(ARGV)
--- @include "fetch-2"
end
return {1, fetch_part({unpack(ARGV, 2 + n)})}
