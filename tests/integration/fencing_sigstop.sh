#!/usr/bin/env bash
# Fencing with real processes: worker A is frozen (SIGSTOP) inside step 2 of
# reactor → charge → ship until its 1 s lease lapses; worker B takes the run
# over and finishes it; then A is thawed (SIGCONT). A's checkpoint carries a
# stale fencing token and is refused: A never starts `ship`, and the stored
# result is B's.
set -euo pipefail
reactor=$1
dir=$(mktemp -d)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill -CONT "$p" 2>/dev/null || true; kill -9 "$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true; done
  rm -rf "$dir"
}
trap cleanup EXIT
export REACTOR_LEDGER=$dir/ledger REACTOR_DEMO_STEP_MS=300
db="sqlite://$dir/runs.db"
worker() { "$reactor" --storage "$db" worker --threads 1 --lease-ttl 1 --sweep-interval 1 2>>"$dir/worker.log" & pids+=($!); }
count() { grep -c "^$1 $2 ${3:-}" "$dir/ledger" 2>/dev/null || true; }

id=$("$reactor" --storage "$db" start OrderSaga --input '{"order_id": 7, "amount": 300}' --background)
worker
a=${pids[0]}
for _ in $(seq 1 200); do  # bounded: 10 s
  [[ $(count S "$id:charge") -ge 1 ]] && break
  sleep 0.05
done
[[ $(count S "$id:charge" "$a") -eq 1 ]] || { echo "fencing: A never started charge" >&2; exit 1; }
kill -STOP "$a"
worker
b=${pids[1]}
for _ in $(seq 1 300); do  # bounded: 30 s
  "$reactor" --storage "$db" show "$id" | grep -q "status   completed" && break
  sleep 0.1
done
"$reactor" --storage "$db" show "$id" | grep -q "status   completed" ||
  { echo "fencing: B did not finish the run" >&2; exit 1; }
kill -CONT "$a"
# Give A time to finish its step body and try to commit (bounded).
for _ in $(seq 1 100); do
  [[ $(count E "$id:charge" "$a") -ge 1 ]] && break
  sleep 0.05
done
sleep 1
fail=0
[[ $(count E "$id:charge" "$a") -eq 1 ]] || { echo "fencing: A did not finish its charge body" >&2; fail=1; }
[[ $(count S "$id:ship" "$a") -eq 0 ]] || { echo "fencing: A went on to ship after losing its lease" >&2; fail=1; }
[[ $(count S "$id:ship" "$b") -eq 1 ]] || { echo "fencing: B did not ship exactly once" >&2; fail=1; }
"$reactor" --storage "$db" show "$id" | grep -q "trace    ran reserve, charge, ship" ||
  { echo "fencing: stored trace is not B's" >&2; fail=1; }
[[ $fail -eq 0 ]] && echo "fencing_sigstop: A's stale writes were refused; the stored run is B's"
exit $fail
