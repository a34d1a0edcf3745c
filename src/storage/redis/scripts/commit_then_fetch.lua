-- commit_then_fetch: commit, then fetch, in one call: a worker's last commit of a run and its
-- next fetch. It runs both scripts (commit.lua, fetch.lua), each as a function over its own
-- slice of the arguments, which it sees as its ARGV, as when it is called alone; the fetch
-- only if the commit was applied.
--
-- KEYS: none.
-- ARGV[1]             the store's key prefix
-- ARGV[2]             the number n of commit arguments
-- ARGV[3 .. 2 + n]    the commit's arguments without the prefix (commit.lua's ARGV[2] on)
-- ARGV[3 + n ...]     the fetch's arguments without the prefix (fetch.lua's ARGV[2] on)
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

local n = tonumber(ARGV[2])
local function commit_part(ARGV)
--- @include "commit"
end
if commit_part({ARGV[1], unpack(ARGV, 3, 2 + n)}) ~= 1 then return {0} end
local function fetch_part(ARGV)
--- @include "fetch"
end
return {1, fetch_part({ARGV[1], unpack(ARGV, 3 + n)})}
