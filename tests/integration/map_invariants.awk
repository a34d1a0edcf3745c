# What a process test checks of a fan-out map "sum" of `count` elements that completed after its
# worker `victim` was killed (map_recovery.sh, claim_recovery.sh). The input files, in order:
#   the run's "<status> <sum> <count> [collected] [interrupted]", the map's row (store_map), its slots
#   (store_map_slots), the element keys in flight at the kill, and the ledger ("<kind>
#   <run>:sum[i]/add <pid>"). A test's own program calls check_map() in its END, adds its own
#   checks with err() (prefixed with `name`) and prints its summary.
function err(m) { print name ": " m > "/dev/stderr"; bad++ }
FILENAME == ARGV[1] { status = $1; sum = $2; cnt = $3; collected = $4; lost = $5; next }
FILENAME == ARGV[2] { row = $0; next }
FILENAME == ARGV[3] { slot[$1] = $2; nslots++; next }
FILENAME == ARGV[4] { hit[$1] = 1; nhit++; next }
FILENAME == ARGV[5] {
  i = $2; sub(/.*:sum\[/, "", i); sub(/\]\/add$/, "", i)
  n[$1, i]++
  if (($1, i) in last_pid) {
    if (last_pid[$1, i] != victim)
      err("element " i ": " $1 " again after one by worker " last_pid[$1, i] ", which was not killed")
    if ($1 == "S") { reruns++; rerun[$2] = 1 }
  }
  last_pid[$1, i] = $3
}
# The run completed right, its map settled with every element reported once and every slot
# completed; every element ended, none more than twice nor undone; every element in flight at
# the kill started again.
function check_map(   i, k) {
  if (status != "completed" || sum != count * count || cnt != count)
    err("the map is " status ", sum " sum ", count " cnt "; expected completed, " count * count ", " count)
  if (row != "settled " count " " count " " count " 0 0")
    err("map row \"" row "\", expected \"settled " count " " count " " count " 0 0\"")
  if (nslots != count) err(nslots + 0 " slots, expected " count)
  for (i = 0; i < count; i++) {
    if (slot[i] != "completed") err("element " i ": slot " slot[i] ", expected completed")
    if (n["E", i] < 1) err("element " i " never ended")
    if (n["S", i] > 2 || n["E", i] > 2)
      err("element " i " started " n["S", i] " and ended " n["E", i] " times; once more at most")
    if (n["U", i] > 0) err("element " i " undone in a map that completed")
  }
  for (k in hit) if (!(k in rerun)) err(k " was in flight at the kill and never started again")
}
