#!/usr/bin/env bash
# Recovery of an async unit whose worker dies, with real processes: one AsyncOrder started in
# the background (each step REACTOR_DEMO_STEP_MS = 300 ms) on a worker of 2 threads (1 s lease,
# 1 s sweep interval, 60 s visibility timeout: only the sweeper can hand the dead worker's jobs
# back in time). Once the child Invoice is inside its first step, render, the worker is killed
# with SIGKILL and a new one started. Then:
#   - the run completes with close's value, and the child Invoice is completed;
#   - render, in flight at the kill, started again once; each step the dead worker was inside of
#     started at most twice, every other step once, and every step ended once;
#   - nothing compensated, nothing undone: the unit was recovered like any run, not rolled back.
set -euo pipefail
reactor=$1
source "$(dirname "$0")/worker_env.sh"
worker_threads=2

id=$(start_background AsyncOrder '{"order_id": 7, "amount": 300}')
worker --visibility-timeout 60
victim=${pids[0]}
wait_started "$id:invoice[0]/render" || { bad "Invoice's render never started"; exit 1; }
kill_worker "$victim"
# in_flight: the keys whose last ledger line is an "S": started, not ended, when it died.
awk '{ last[$2] = $1 } END { for (k in last) if (last[k] == "S") print k }' "$dir/ledger" |
  sort >"$dir/in_flight"
worker --visibility-timeout 60

wait_completed "$id" || { bad "AsyncOrder $id did not complete"; "$reactor" --storage "$db" show "$id" >&2; }
grep -qxF "$id:invoice[0]/render" "$dir/in_flight" || bad "render was not in flight at the kill"
[[ $(status_of "$id:invoice[0]") == completed ]] || bad "the child Invoice did not complete"
"$reactor" --storage "$db" show "$id" >"$dir/show"
grep -q '^value    {"invoice":{"amount":300,"invoice_id":"inv-7","pdf":"invoice-7.pdf"},"parcel":"parcel-7"}$' "$dir/show" ||
  bad "the run does not have close's value"
for key in reserve charge ship "notify[0]/notify" "invoice[0]/render" "invoice[0]/store" close; do
  starts=$(count S "$id:$key")
  ends=$(count E "$id:$key")
  if grep -qxF "$id:$key" "$dir/in_flight"; then
    [[ $starts -eq 2 ]] || bad "$key, in flight at the kill, started $starts times, expected 2"
  else
    [[ $starts -eq 1 ]] || bad "$key started $starts times, expected once"
  fi
  [[ $ends -eq 1 ]] || bad "$key ended $ends times, expected once"
done
grep -q "^[CU] " "$dir/ledger" && bad "something was compensated or undone"
if ((fail)); then cat "$dir/show" "$dir/ledger" >&2; fi
[[ $fail -eq 0 ]] && echo "async_recovery: the child Invoice, killed in render, was recovered: render ran again, every other step once, the run completed"
exit $fail
