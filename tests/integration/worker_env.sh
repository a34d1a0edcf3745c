# Shared by the process-level tests: a temp SQLite store and ledger, worker
# processes started and always stopped by PID, and ledger queries.
# Source it after setting `reactor` (the CLI binary).
set -euo pipefail
dir=$(mktemp -d)
pids=()
cleanup() {
  for p in "${pids[@]}"; do
    kill -CONT "$p" 2>/dev/null || true
    kill -9 "$p" 2>/dev/null || true
    wait "$p" 2>/dev/null || true
  done
  rm -rf "$dir"
}
trap cleanup EXIT
export REACTOR_LEDGER=$dir/ledger REACTOR_DEMO_STEP_MS=300
db="sqlite://$dir/runs.db"

# Starts a worker with a 1 s lease and sweep interval; its PID is appended to pids.
worker() {
  "$reactor" --storage "$db" worker --threads 1 --lease-ttl 1 --sweep-interval 1 \
    2>>"$dir/worker.log" &
  pids+=($!)
}
# count KIND STEP_KEY [PID]: ledger lines of that kind (S, E, C, U) for that step.
count() { grep -c "^$1 $2 ${3:-}" "$dir/ledger" 2>/dev/null || true; }
start_order() {
  "$reactor" --storage "$db" start OrderSaga --input '{"order_id": 7, "amount": 300}' --background
}
# Waits (bounded, 10 s) until the step with this key has started.
wait_started() {
  for _ in $(seq 1 200); do
    [[ $(count S "$1") -ge 1 ]] && return 0
    sleep 0.05
  done
  return 1
}
# Waits (bounded, 30 s) until run $1 is completed.
wait_completed() {
  for _ in $(seq 1 300); do
    "$reactor" --storage "$db" show "$1" | grep -q "status   completed" && return 0
    sleep 0.1
  done
  return 1
}
