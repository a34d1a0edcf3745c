#!/usr/bin/env bash
# A background OrderSaga on SQLite: persisted as enqueued with its job, then
# run to completion by a worker process, then shown by `reactor show`.
set -euo pipefail
reactor=$1
dir=$(mktemp -d)
worker_pid=""
cleanup() {
  [[ -n $worker_pid ]] && kill "$worker_pid" 2>/dev/null && wait "$worker_pid" 2>/dev/null
  rm -rf "$dir"
}
trap cleanup EXIT
db="sqlite://$dir/runs.db"

id=$("$reactor" --storage "$db" start OrderSaga --input '{"order_id": 7, "amount": 300}' --background)
"$reactor" --storage "$db" runs --json | grep -q "\"id\":\"$id\".*\"status\":\"enqueued\""

"$reactor" --storage "$db" worker --threads 1 --lease-ttl 1 --sweep-interval 1 &
worker_pid=$!
for _ in $(seq 1 100); do  # bounded: 10 s
  if "$reactor" --storage "$db" show "$id" | grep -q "status   completed"; then
    "$reactor" --storage "$db" show "$id" | grep -q "trace    ran reserve, charge, ship"
    echo "cli_background: run $id completed through a worker process"
    exit 0
  fi
  sleep 0.1
done
echo "cli_background: run $id did not complete" >&2
"$reactor" --storage "$db" show "$id" >&2 || true
exit 1
