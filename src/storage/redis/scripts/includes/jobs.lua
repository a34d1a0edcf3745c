-- includes/jobs: the queue's writes: queueing a job, waking the workers blocked on a queue,
-- acking and deleting a job.
--- @include "keys"

-- One wake-up per job (n of them) for the workers blocked on the queue;
-- capped, since nobody may be listening.
local WAKE_CAP = 64
local function wake(q, n)
  local tokens = {}
  for k = 1, math.min(n or 1, WAKE_CAP) do tokens[k] = '1' end
  if redis.call('LPUSH', wake_key(q), unpack(tokens)) > WAKE_CAP then
    redis.call('LTRIM', wake_key(q), 0, WAKE_CAP - 1)
  end
end

local function delete_job(id, queue, run_id)  -- id: decimal text
  local m = member(id)
  redis.call('DEL', job_key(id))
  -- A job is in one of the two: delivered (the usual case of an ack) or ready.
  if redis.call('ZREM', inflight_key(queue), m) == 0 then redis.call('ZREM', ready_key(queue), m) end
  redis.call('SREM', run_key(run_id, 'jobs'), id)
end

-- Deletes job `id` (decimal text) for an ack by `owner`: a delivery that
-- timed out and went to another worker is that worker's now, and a late ack
-- leaves it alone. A job not in delivery may be acked by anyone.
local function ack(id, owner)
  local job = redis.call('HMGET', job_key(id), 'lease_owner', 'queue', 'run_id')
  if job[2] and (job[1] == '' or job[1] == owner) then delete_job(id, job[2], job[3]) end
end

-- Queues job `id` (decimal text), and counts the wake-up it owes in `wakeups`
-- (per queue, queues in the order first named), sent once per queue at the end.
local function enqueue_job(wakeups, id, queue, kind, run_id, reactor, run_at, snoozes)
  redis.call('HSET', job_key(id), 'queue', queue, 'kind', kind, 'run_id', run_id,
             'reactor', reactor, 'run_at', run_at, 'snoozes', snoozes, 'deliveries', 0,
             'lease_owner', '', 'lease_expires', 0)
  redis.call('ZADD', ready_key(queue), run_at, member(id))
  redis.call('SADD', run_key(run_id, 'jobs'), id)
  if not wakeups[queue] then wakeups[#wakeups + 1] = queue end
  wakeups[queue] = (wakeups[queue] or 0) + 1
end
local function send_wakeups(wakeups)
  for _, queue in ipairs(wakeups) do wake(queue, wakeups[queue]) end
end
