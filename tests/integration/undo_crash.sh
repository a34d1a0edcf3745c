#!/usr/bin/env bash
# Undo killed halfway and resumed, with real processes (issue 24): `reactor undo` of a completed
# order is SIGKILLed inside its second undo, after the first was committed; the run stays
# rolling back (a second `undo` is refused), and once its lease lapses a worker's sweeper hands it
# on, and the worker finishes it: each undo ran once, and the run ends cancelled.
reactor=$1
source "$(dirname "$0")/worker_env.sh"
export REACTOR_DEMO_STEP_MS=0

id=$(run_now OrderSaga '{"order_id": 7, "amount": 300}')
[[ $(status_of "$id") == completed ]] || { echo "undo_crash: the order did not complete" >&2; exit 1; }

# Each undo sleeps 2 s before it leaves its mark: the kill lands inside reserve's.
REACTOR_DEMO_UNDO_MS=2000 "$reactor" --storage "$db" undo "$id" >"$dir/undo.out" 2>&1 &
undoer=$!
pids+=("$undoer")
undone_committed() {
  "$reactor" --storage "$db" show "$id" --json | tr -d ' \n' | grep -q '"status":"undone","step":"charge"\|"step":"charge","status":"undone"'
}
for _ in $(seq 1 100); do
  undone_committed && break
  sleep 0.1
done
undone_committed || { echo "undo_crash: charge's undo was never committed" >&2; exit 1; }
kill_worker "$undoer"
[[ $(count U "$id:charge") -eq 1 ]] || bad "charge undone $(count U "$id:charge") times before the kill"
[[ $(count U "$id:reserve") -eq 0 ]] || bad "reserve's undo finished before the kill"
[[ $(status_of "$id") == rolling_back ]] || bad "status $(status_of "$id") after the kill"
rc=0; "$reactor" --storage "$db" undo "$id" 2>"$dir/err" || rc=$?
[[ $rc -eq 3 ]] && grep -q "rolling back" "$dir/err" || bad "undo while rolling back: exit $rc"

worker
wait_status "$id" cancelled || bad "the worker did not finish the undo: $(status_of "$id")"
[[ $(count U "$id:charge") -eq 1 ]] || bad "charge undone $(count U "$id:charge") times"
[[ $(count U "$id:reserve") -eq 1 ]] || bad "reserve undone $(count U "$id:reserve") times"
[[ $(error_kind_of "$id") == undone ]] || bad "error kind $(error_kind_of "$id")"

# A retry of the undone order: a new run of the same inputs, linked both ways, run by the worker.
retry=$("$reactor" --storage "$db" retry "$id") || bad "retry exited $?"
wait_completed "$retry" || bad "the retry did not complete: $(status_of "$retry")"
"$reactor" --storage "$db" show "$retry" --json | tr -d " \n" | grep -q "\"retried_from\":\"$id\"" ||
  bad "the retry does not name $id"
"$reactor" --storage "$db" show "$id" --json | tr -d " \n" | grep -q "\"retries\":\[\"$retry\"\]" ||
  bad "$id does not list its retry"

[[ $fail -eq 0 ]] && echo "undo_crash: killed halfway, resumed by a worker; each undo ran once"
exit $fail
