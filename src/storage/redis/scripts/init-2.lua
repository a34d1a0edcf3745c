#!lua
-- init: records the key layout version on first use, and over a stored one from the oldest
-- version read as it is up; returns the stored one.
--
-- KEYS (2; each after the first is read by its name after the prefix, in any order):
-- KEYS[1]  the store's key prefix: every key derived at run time is built from it
-- KEYS[2]  P layout_version
-- ARGV[1]  the layout version this build writes (kLayoutVersion)
-- ARGV[2]  the oldest version this build reads as it is (kOldestUpgradableLayout)
-- Returns the stored version, as this call leaves it.
--- @include "includes/keys"

redis.call('SET', LAYOUT_VERSION, ARGV[1], 'NX')
local stored = tonumber(redis.call('GET', LAYOUT_VERSION))
if stored and stored >= tonumber(ARGV[2]) and stored < tonumber(ARGV[1]) then
  redis.call('SET', LAYOUT_VERSION, ARGV[1])
  stored = tonumber(ARGV[1])
end
return stored
