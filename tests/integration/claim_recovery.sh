#!/usr/bin/env bash
# Recovery of a claimed fan-out map (docs/maps.md, "Claims") whose only worker dies, with real
# processes: one Claimed run of 24 elements in claims of 4, at most 8 out, a step of
# CLAIM_RECOVERY_STEP_MS = 300 ms, on one worker of 2 threads (1 s lease, 1 s sweep interval).
# Once an element has ended and one is inside its step, the worker is killed with SIGKILL and a
# new one started. Then:
#   - the map completes with the right value: sum = 24² = 576, count = 24; its row is settled with
#     every element released and reported once, and every slot completed;
#   - every element ended ("E") at least once; an element started ("S") more than once only if
#     the killed worker ran it (every line of it but its last is the dead worker's), and at most
#     twice; every element the dead worker was inside of started again;
#   - the re-runs are at most the elements the dead worker had claimed: its threads × 4, the
#     bound docs/maps.md states.
set -euo pipefail
reactor=$1
source "$(dirname "$0")/worker_env.sh"
count=24 claim=4
worker_threads=2
step_ms=${CLAIM_RECOVERY_STEP_MS:-300}

id=$(start_background Claimed "{\"items\": [$(seq -s, 0 $((count - 1)))], \"step_ms\": $step_ms}")
worker
victim=${pids[0]}

# in_flight: the element keys whose last ledger line is an "S": started, not ended.
in_flight() {
  awk '{ last[$2] = $1 } END { for (k in last) if (last[k] == "S") print k }' "$dir/ledger" |
    sort
}
# Until an element has ended and one is inside its step (bounded, 20 s).
ready=0
for _ in $(seq 1 400); do
  if [[ -s $dir/ledger ]] && grep -q '^E ' "$dir/ledger" && (($(in_flight | wc -l) >= 1)); then
    ready=1
    break
  fi
  sleep 0.05
done
((ready)) || { echo "claim_recovery: no element was ever in flight after one ended" >&2; exit 1; }
kill_worker "$victim"
in_flight >"$dir/in_flight"
worker
wait_completed "$id" || { echo "claim_recovery: the map did not complete: $(status_of "$id")" >&2; exit 1; }

"$reactor" --storage "$db" show "$id" --json |
  jq -r '[.status, (.value.sum // "-"), (.value.count // "-")] | map(tostring) | join(" ")' \
    >"$dir/result"
store_map "$id:sum" >"$dir/map_row"
store_map_slots "$id:sum" >"$dir/slots"

awk -v count="$count" -v victim="$victim" -v bound=$((worker_threads * claim)) '
  function err(m) { print "claim_recovery: " m > "/dev/stderr"; bad++ }
  FILENAME == ARGV[1] { status = $1; sum = $2; cnt = $3; next }
  FILENAME == ARGV[2] { row = $0; next }
  FILENAME == ARGV[3] { slot[$1] = $2; nslots++; next }
  FILENAME == ARGV[4] { hit[$1] = 1; nhit++; next }
  {                                            # ledger: kind, "<run>:sum[i]/add", pid
    i = $2; sub(/.*:sum\[/, "", i); sub(/\]\/add$/, "", i)
    n[$1, i]++
    if (($1, i) in last_pid) {
      if (last_pid[$1, i] != victim)
        err("element " i ": " $1 " again after one by worker " last_pid[$1, i] ", which was not killed")
      if ($1 == "S") { reruns++; rerun[$2] = 1 }
    }
    last_pid[$1, i] = $3
  }
  END {
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
    }
    for (k in hit) if (!(k in rerun)) err(k " was in flight at the kill and never started again")
    if (reruns > bound) err(reruns " re-runs, more than the " bound " elements the killed worker could claim")
    printf "claim_recovery: %d elements in flight at the kill; %d re-runs (bound %d); sum %s, count %s%s\n",
      nhit, reruns, bound, sum, cnt, bad ? ", " bad " violations" : ", all invariants hold"
    exit bad ? 1 : 0
  }
' "$dir/result" "$dir/map_row" "$dir/slots" "$dir/in_flight" "$dir/ledger"
