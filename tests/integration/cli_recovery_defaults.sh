#!/usr/bin/env bash
# Recovery with the DEFAULT worker options (no --lease-ttl, no --sweep-interval), on SQLite, as a
# user types it: a worker is SIGKILLed inside the last step (ship) of an OrderSaga, another
# worker is started, and the run completes within 15 s of the kill — a lapsed lease (at most
# 10 s) and a sweep (every 4 s), not the minute and a half of the old defaults. The ship in
# flight ran again; reserve and charge once. `worker --help` shows those defaults and the
# trade-off. (The bound is the lease and the sweep interval, with nothing left for the steps
# after the takeover: hence the kill in the last, short step.)
reactor=$1
source "$(dirname "$0")/worker_env.sh"
# Short steps: what is measured is the takeover, not the steps left after it.
export REACTOR_DEMO_STEP_MS=250

# default_worker: a worker with nothing but its store named.
default_worker() {
  "$reactor" worker --storage "$db" 2>>"$dir/worker.log" &
  pids+=($!)
}

"$reactor" worker --help >"$dir/help" || bad "worker --help failed"
grep -Eq -- "--lease-ttl [^ ]*=10( |$)" "$dir/help" || bad "worker --help does not show the lease default 10"
grep -Eq -- "--sweep-interval [^ ]*=4( |$)" "$dir/help" || bad "worker --help does not show the sweep default 4"
grep -q "faster recovery, more heartbeats" "$dir/help" || bad "worker --help does not say the lease's trade-off"
if ((fail)); then cat "$dir/help" >&2; fi

printf '{"order_id": 7, "amount": 300}' >"$dir/order.json"
id=$("$reactor" start OrderSaga --storage "$db" --input-file "$dir/order.json" --background) ||
  bad "start --background failed"
default_worker
wait_started "$id:ship" || { bad "ship never started"; exit 1; }
kill_worker "${pids[0]}"
killed_at=$(date +%s%N)
[[ $(count E "$id:ship") -eq 0 ]] || bad "the worker was killed after ship, not inside it"
default_worker

completed_at=""
for _ in $(seq 1 600); do  # bounded: 60 s, to measure how far past the bound a slow run gets
  if [[ $(status_of "$id" 2>/dev/null) == completed ]]; then
    completed_at=$(date +%s%N)
    break
  fi
  sleep 0.1
done
[[ -n $completed_at ]] || { bad "run $id did not complete within 60 s of the kill"; exit 1; }
took=$(((completed_at - killed_at) / 1000000))  # ms
secs="$((took / 1000)).$(printf '%03d' $((took % 1000)))"
((took <= 15000)) || bad "run $id completed ${secs} s after the kill, more than 15 s"
[[ $(count S "$id:reserve") -eq 1 && $(count S "$id:charge") -eq 1 && $(count S "$id:ship") -eq 2 ]] ||
  bad "reserve, charge, ship started $(count S "$id:reserve"), $(count S "$id:charge"), $(count S "$id:ship") times, expected 1, 1, 2"

[[ $fail -eq 0 ]] &&
  echo "cli_recovery_defaults: with the default lease and sweep, run $id completed ${secs} s after its worker was SIGKILLed"
exit $fail
