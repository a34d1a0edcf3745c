-- includes/hold_commit: apply_hold_commit(), what a commit does to coordination
-- (CommitRequest's release_holds, period_marks, ordered_joins; hold_rules.cpp's
-- apply_commit_holds): applied by the general commit after its fence check, with its rows.
--- @include "keys"
--- @include "coordination"

-- Whether `release` ("x") gives back `claim`: "x" itself, or one under it ("x/...").
local function releases(release, claim)
  return claim == release or string.sub(claim, 1, #release + 1) == release .. '/'
end

-- `releasing`: rows of holder, claim; `marks`: rows of mark, run_id; `joins`: rows of key,
-- run_id (the sections of commit's arguments).
local function apply_hold_commit(releasing, marks, joins)
  for _, r in ipairs(releasing) do
    for _, k in ipairs(redis.call('SMEMBERS', holder_key(r.holder))) do
      local claim = redis.call('HGET', hold_key(k), 'h:' .. r.holder)
      if not claim or releases(r.claim, claim) then drop_holder(k, r.holder) end
    end
  end
  -- The first run to complete a period keeps it.
  for _, m in ipairs(marks) do redis.call('HSETNX', PERIODS, m.mark, m.run_id) end
  -- A run joins once, at the chain's next seq.
  for _, j in ipairs(joins) do
    if not redis.call('ZSCORE', members_key(j.key), j.run_id) then
      local seq = tonumber(redis.call('HGET', chain_key(j.key), 'next_seq') or '1')
      redis.call('ZADD', members_key(j.key), seq, j.run_id)
      redis.call('HSET', chain_key(j.key), 'next_seq', int(seq + 1))
      redis.call('SADD', CHAINS, j.key)
    end
  end
end
