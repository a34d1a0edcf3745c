-- includes/own_rows: write_own_rows(), the rows of a commit that writes only its own root, as
-- step_commit and finish_commit send them. It spells its field names itself and includes
-- nothing, so that step_commit, which goes without the other helpers, can include it.

-- Writes root's header blob and its step rows in one HSET of rows_key, then
-- its trace rows, from args[from] on: the number n of step rows, n rows
-- (index, body), then trace rows (seq, body) to the end. A trace row is
-- written once: the first write of a seq wins.
local function write_own_rows(rows_key, root, header, args, from)
  local fields = {'h:' .. root, header}
  local trace_from = from + 1 + 2 * tonumber(args[from])
  for k = from + 1, trace_from - 1, 2 do
    fields[#fields + 1] = 's:' .. root .. '#' .. args[k]
    fields[#fields + 1] = args[k + 1]
  end
  redis.call('HSET', rows_key, unpack(fields))
  for k = trace_from, #args, 2 do redis.call('HSETNX', rows_key, 't:' .. args[k], args[k + 1]) end
end
