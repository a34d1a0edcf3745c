#!/usr/bin/env bash
# Recovery of a fan-out map whose only worker dies, with real processes: one FanOutSum of 24
# elements (batch size 6, a step of MAP_RECOVERY_STEP_MS = 600 ms) on one worker of 6 threads
# (1 s lease, 1 s sweep interval, and a 60 s visibility timeout, so that only the sweeper can
# hand a dead worker's jobs back in time). Once the first elements have ended and at least 3 are
# inside their step, the worker is killed with SIGKILL and a new one started. Then:
#   - recovery: every element the dead worker was inside of starts again within lease ttl + one
#     sweep interval + 3 s of slack (the new worker's start, the sweep window it waits for and a
#     loaded machine), counted from the kill; a bound, not the time it takes;
#   - the map completes with the right value: sum = 24² = 576, count = 24; its row is settled
#     with every element released and reported once, every slot completed, and the owner
#     collected the map once;
#   - every element ended ("E") at least once; an element started ("S") or ended more than once
#     only if the killed worker ran it (every line of it but its last is the dead worker's), and
#     at most twice; the re-runs are at most the dead worker's threads (6: one execution lost per
#     thread), and include every element it was inside of;
#   - nothing undone.
set -euo pipefail
reactor=$1
source "$(dirname "$0")/worker_env.sh"
count=24 batch=6 lease_ttl=1 sweep_interval=1 slack=3
worker_threads=$batch
step_ms=${MAP_RECOVERY_STEP_MS:-600}

id=$(start_background FanOutSum \
  "{\"count\": $count, \"batch_size\": $batch, \"step_ms\": $step_ms}")
worker --visibility-timeout 60
victim=${pids[0]}

# Until the first elements have ended and at least 3 are inside their step (bounded, 20 s).
wait_in_flight 2 3 || { echo "map_recovery: the map never had 3 elements in flight" >&2; exit 1; }
kill_worker "$victim"
killed_at=$EPOCHREALTIME
steps_in_flight >"$dir/steps_in_flight"
worker --visibility-timeout 60
successor=${pids[0]}

# Until every element the dead worker was inside of has started again (bounded, 20 s).
recovered_after=
for _ in $(seq 1 400); do
  if awk -v pid="$successor" 'FILENAME == ARGV[1] { want[$1] = 1; n++; next }
       $1 == "S" && $3 == pid && ($2 in want) { delete want[$2]; n-- }
       END { exit n > 0 }' "$dir/steps_in_flight" "$dir/ledger"; then
    recovered_after=$(awk -v a="$killed_at" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.2f", b - a }')
    break
  fi
  sleep 0.05
done
[[ -n $recovered_after ]] ||
  { echo "map_recovery: the elements in flight at the kill did not start again in 20 s" >&2; exit 1; }
wait_completed "$id" || { echo "map_recovery: the map did not complete: $(status_of "$id")" >&2; exit 1; }

"$reactor" --storage "$db" show "$id" --json | jq -r '
  [.status, (.value.sum // "-"), (.value.count // "-"),
   ([.trace[] | select(.type == "run" and .step == "sum"
                       and (.outcome == "success" or .outcome == "failure"))] | length)]
  | map(tostring) | join(" ")' >"$dir/result"
store_map "$id:sum" >"$dir/map_row"
store_map_slots "$id:sum" >"$dir/slots"

awk -v name=map_recovery -v count="$count" -v victim="$victim" -v threads="$worker_threads" \
    -v took="$recovered_after" -v bound=$((lease_ttl + sweep_interval + slack)) \
    -f "$(dirname "$0")/map_invariants.awk" -f /dev/stdin \
    "$dir/result" "$dir/map_row" "$dir/slots" "$dir/steps_in_flight" "$dir/ledger" <<'AWK' || fail=1
  END {
    check_map()
    if (collected != 1) err("the map step was collected " collected " times")
    if (reruns > threads) err(reruns " re-runs, more than the " threads " threads of the killed worker")
    if (took + 0 > bound)
      err("the elements in flight at the kill started again " took " s after it, more than the bound of " bound " s")
    printf "map_recovery: %d elements in flight at the kill started again %s s after it (bound %d s); %d re-runs (bound %d); sum %s, count %s%s\n",
      nhit, took, bound, reruns, threads, sum, cnt, bad ? ", " bad " violations" : ", all invariants hold"
    exit bad ? 1 : 0
  }
AWK
# The map's row counts the executions lost with the killed worker (show's maps line): at least
# one per element it was inside of, at most one per thread it had.
lost=$("$reactor" --storage "$db" show "$id" --json | jq -r '.maps[0].interrupted')
hit=$(wc -l <"$dir/steps_in_flight")
if ((lost < hit || lost > worker_threads)); then
  echo "map_recovery: the map counts $lost interrupted executions; $hit to $worker_threads expected" >&2
  fail=1
fi
exit $fail
