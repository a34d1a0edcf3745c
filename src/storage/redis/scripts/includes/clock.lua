-- includes/clock: now_ms(), the server's clock. Includes nothing.

-- Unix milliseconds by the server's clock: the one clock every expiry is judged by.
-- Read once per script call (a commit that releases a lease and then fetches
-- asks twice): the call is atomic, so one instant serves all of it.
local clock_ms
local function now_ms()
  if not clock_ms then
    local t = redis.call('TIME')
    clock_ms = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
  end
  return clock_ms
end
