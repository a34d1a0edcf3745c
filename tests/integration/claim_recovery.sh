#!/usr/bin/env bash
# Recovery of a claimed fan-out map (docs/maps.md, "Claims") whose only worker dies, with real
# processes: one FanOutSum of 24 elements in claims of 4, at most 8 out, a step of
# CLAIM_RECOVERY_STEP_MS = 300 ms, on one worker of 2 threads (1 s lease, 1 s sweep interval).
# Once an element has ended and one is inside its step, the worker is killed with SIGKILL and a
# new one started. Then:
#   - the map completes with the right value: sum = 24² = 576, count = 24; its row is settled with
#     every element released and reported once, and every slot completed;
#   - every element ended ("E") at least once; an element started ("S") more than once only if
#     the killed worker ran it (every line of it but its last is the dead worker's), and at most
#     twice; every element the dead worker was inside of started again;
#   - the re-runs are at most the elements the dead worker had claimed: its threads × 4, the
#     bound docs/maps.md states;
#   - the map's `interrupted` counts each element of each claim lost with the dead worker once (a
#     multiple of 4, at most the bound), so at least the re-runs.
set -euo pipefail
reactor=$1
source "$(dirname "$0")/worker_env.sh"
count=24 claim=4
worker_threads=2
step_ms=${CLAIM_RECOVERY_STEP_MS:-300}

id=$(start_background FanOutSum \
  "{\"count\": $count, \"batch_size\": 8, \"claim\": $claim, \"step_ms\": $step_ms}")
worker
victim=${pids[0]}

# Until an element has ended and one is inside its step (bounded, 20 s).
wait_in_flight 1 1 ||
  { echo "claim_recovery: no element was ever in flight after one ended" >&2; exit 1; }
kill_worker "$victim"
steps_in_flight >"$dir/steps_in_flight"
worker
wait_completed "$id" || { echo "claim_recovery: the map did not complete: $(status_of "$id")" >&2; exit 1; }

"$reactor" --storage "$db" show "$id" --json |
  jq -r '[.status, (.value.sum // "-"), (.value.count // "-"), "-", .maps[0].interrupted]
         | map(tostring) | join(" ")' >"$dir/result"
store_map "$id:sum" >"$dir/map_row"
store_map_slots "$id:sum" >"$dir/slots"

awk -v name=claim_recovery -v count="$count" -v victim="$victim" \
    -v bound=$((worker_threads * claim)) -v claim="$claim" -f "$(dirname "$0")/map_invariants.awk" -f /dev/stdin \
    "$dir/result" "$dir/map_row" "$dir/slots" "$dir/steps_in_flight" "$dir/ledger" <<'AWK'
  END {
    check_map()
    if (reruns > bound) err(reruns " re-runs, more than the " bound " elements the killed worker could claim")
    if (lost % claim != 0 || lost > bound || lost < reruns)
      err("the map counts " lost " lost executions: expected a multiple of " claim ", at least the " \
          reruns " re-runs, at most " bound)
    printf "claim_recovery: %d elements in flight at the kill; %d re-runs (bound %d), %d counted interrupted; sum %s, count %s%s\n",
      nhit, reruns, bound, lost, sum, cnt, bad ? ", " bad " violations" : ", all invariants hold"
    exit bad ? 1 : 0
  }
AWK
