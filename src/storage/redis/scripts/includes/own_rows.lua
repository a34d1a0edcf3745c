-- includes/own_rows: write_own_rows(), the rows of a commit that writes only its own root, as
-- step_commit and finish_commit take them (sections, includes/sections). It spells its field
-- names itself and includes nothing but sections, so that step_commit, which goes without the
-- other helpers, can include it.
--- @include "sections"

-- Reads the sections of `args` from `at` on: the root's header row (kHeaderArgs), its step rows
-- (StepRow's fields), its trace rows (TraceRow's). Writes the header record and the step rows
-- in one HSET of rows_key, then the trace rows, each written once: the first write of a seq
-- wins. Returns the header row and the number of step rows.
local function write_own_rows(rows_key, args, at)
  local headers, steps, trace
  headers, at = section(args, at)
  steps, at = section(args, at)
  trace = section(args, at)
  local h = headers[1]
  local fields = {'h:' .. h.id, h.record}
  for _, s in ipairs(steps) do
    fields[#fields + 1] = 's:' .. h.id .. '#' .. s.index
    fields[#fields + 1] = s.body
  end
  redis.call('HSET', rows_key, unpack(fields))
  for _, t in ipairs(trace) do redis.call('HSETNX', rows_key, 't:' .. t.seq, t.body) end
  return h, #steps
end
