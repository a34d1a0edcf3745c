-- includes/sections: the records a script takes in sections of its arguments
-- (src/storage/redis/script_args.hpp): n rows, k fields, the k field names, then n rows of k
-- values (an empty section is 0, 0: no names), each row written through its record's field list (src/records/fields.hpp). A row
-- reads as a table of field name -> value, so a script names the fields it uses as that list
-- spells them, whatever their order.
-- Includes nothing.

-- The section of `args` at `at`: its rows (a list of tables), and where what follows it starts.
local function section(args, at)
  local n, k = tonumber(args[at]), tonumber(args[at + 1])
  local names, first = at + 2, at + 2 + k
  local list = {}
  for r = 0, n - 1 do
    local row, base = {}, first + r * k
    for f = 0, k - 1 do row[args[names + f]] = args[base + f] end
    list[r + 1] = row
  end
  return list, first + n * k
end
