#!/usr/bin/env bash
# Crash mid-step, on SQLite, with real processes: a worker is killed with
# SIGKILL inside step 2 (charge) of reserve → charge → ship; a new worker
# takes the run over once the lease (1 s) lapses. The side-effect ledger must
# show reserve once, charge started twice (the step in flight) and finished
# once, ship once, and the run completed.
set -euo pipefail
reactor=$1
dir=$(mktemp -d)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true; done
  rm -rf "$dir"
}
trap cleanup EXIT
export REACTOR_LEDGER=$dir/ledger REACTOR_DEMO_STEP_MS=300
db="sqlite://$dir/runs.db"
worker() { "$reactor" --storage "$db" worker --threads 1 --lease-ttl 1 --sweep-interval 1 2>>"$dir/worker.log" & pids+=($!); }
count() { grep -c "^$1 $2 " "$dir/ledger" 2>/dev/null || true; }

id=$("$reactor" --storage "$db" start OrderSaga --input '{"order_id": 7, "amount": 300}' --background)
worker
victim=${pids[0]}
for _ in $(seq 1 200); do  # bounded: 10 s
  [[ $(count S "$id:charge") -ge 1 ]] && break
  sleep 0.05
done
[[ $(count S "$id:charge") -ge 1 ]] || { echo "crash_recovery: charge never started" >&2; exit 1; }
kill -9 "$victim"
wait "$victim" 2>/dev/null || true
worker

for _ in $(seq 1 300); do  # bounded: 30 s
  if "$reactor" --storage "$db" show "$id" | grep -q "status   completed"; then break; fi
  sleep 0.1
done
"$reactor" --storage "$db" show "$id"
"$reactor" --storage "$db" show "$id" | grep -q "status   completed"
fail=0
check() {  # kind step expected
  local got; got=$(count "$1" "$id:$2")
  if [[ $got -ne $3 ]]; then echo "crash_recovery: $1 $2 ran $got times, expected $3" >&2; fail=1; fi
}
check S reserve 1; check E reserve 1
check S charge 2;  check E charge 1
check S ship 1;    check E ship 1
[[ $fail -eq 0 ]] && echo "crash_recovery: resumed at charge after SIGKILL; reserve and ship ran once"
exit $fail
