-- init: records the key layout version on first use, and over a stored one from the oldest
-- version read as it is up; returns the stored one.
--
-- KEYS: none.
-- ARGV[1]  the store's key prefix
-- ARGV[2]  the layout version this build writes (kLayoutVersion)
-- ARGV[3]  the oldest version this build reads as it is (kOldestUpgradableLayout)
-- Returns the stored version, as this call leaves it.
--- @include "includes/keys"

redis.call('SET', P .. 'layout_version', ARGV[2], 'NX')
local stored = tonumber(redis.call('GET', P .. 'layout_version'))
if stored and stored >= tonumber(ARGV[3]) and stored < tonumber(ARGV[2]) then
  redis.call('SET', P .. 'layout_version', ARGV[2])
  stored = tonumber(ARGV[2])
end
return stored
