#!lua
-- finish_commit_then_fetch: finish_commit, then fetch, in one call: the commit that ends a
-- root and the worker's next fetch. It runs both scripts (finish_commit.lua, fetch.lua), each
-- as a function over its own slice of the arguments, which it sees as its ARGV, as when it is
-- called alone; the fetch only if the commit was applied.
--
-- KEYS (6; each after the first is read by its name after the prefix, in any order):
-- KEYS[1]  the store's key prefix: every key derived at run time is built from it
-- KEYS[2]  P reactors
-- KEYS[3]  P expiring
-- KEYS[4]  P fencing_token
-- KEYS[5]  P {root}:meta
-- KEYS[6]  P {root}:rows  finish_commit's KEYS and fetch's, by name
-- ARGV[1]             the number n of finish_commit arguments
-- ARGV[2 .. 2 + n]    finish_commit's arguments without the prefix (its ARGV[1] on)
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
--- @include "includes/own_rows"

local n = tonumber(ARGV[1])
local function commit_part(ARGV)
--- @include "finish_commit-5"
end
if commit_part({unpack(ARGV, 2, 1 + n)}) ~= 1 then return {0} end
local function fetch_part(ARGV)
--- @include "fetch-2"
end
return {1, fetch_part({unpack(ARGV, 2 + n)})}
