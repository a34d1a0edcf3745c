#!/usr/bin/env bash
# Small consistencies of the command line: `start --background --json` prints {"id", "status"};
# `enqueue` of a run that ended is refused, naming its status, unless --force; a worker started
# after a crash tells the stale jobs it acknowledges in one summary line, not one per job; and a
# worker never says that a run it executes itself is "held by another execution".
reactor=$1
source "$(dirname "$0")/worker_env.sh"
export REACTOR_DEMO_STEP_MS=0
printf '{"order_id": 7, "amount": 300}' >"$dir/order.json"

# --- start --background --json
"$reactor" start OrderSaga --storage "$db" --input-file "$dir/order.json" --background --json \
  >"$dir/out" 2>"$dir/err" || bad "start --background --json failed"
grep -Eq '^\{"id":"[0-9a-f-]{36}","status":"enqueued"\}$' "$dir/out" ||
  { bad "start --background --json does not print {\"id\", \"status\"}:"; cat "$dir/out" >&2; }
first=$(sed -E 's/.*"id":"([^"]+)".*/\1/' "$dir/out")

# --- five runs to their end, on a worker that is then SIGKILLed
ids=("$first")
for order in 2 3 4 5; do ids+=("$(start_order "$order")"); done
worker
for id in "${ids[@]}"; do wait_completed "$id" || bad "run $id did not complete"; done
kill_worker "${pids[0]}"

# --- enqueue of a run that ended: refused, naming its status; --force enqueues it anyway
rc=0
"$reactor" enqueue "$first" --storage "$db" >"$dir/out" 2>"$dir/err" || rc=$?
[[ $rc -eq 2 ]] || bad "enqueue of a completed run exited $rc, expected 2"
grep -q "is completed" "$dir/err" && grep -q -- "--force" "$dir/err" ||
  { bad "enqueue of a completed run does not name its status and --force:"; cat "$dir/err" >&2; }
[[ $(store_jobs "$first") -eq 0 ]] || bad "a refused enqueue left a job"
for id in "${ids[@]}"; do
  "$reactor" enqueue "$id" --storage "$db" --force >/dev/null || bad "enqueue --force of $id failed"
done
[[ $(store_jobs "$first") -eq 1 ]] || bad "enqueue --force left $(store_jobs "$first") jobs, not 1"

# --- the worker after the crash: five stale jobs, one summary line
: >"$dir/worker.log"
worker
for id in "${ids[@]}"; do wait_no_jobs "$id" || bad "the stale job of $id was not acknowledged"; done
for _ in $(seq 1 50); do  # bounded: 5 s (the summary follows a quiet second)
  grep -q "acknowledged 5 stale jobs" "$dir/worker.log" && break
  sleep 0.1
done
[[ $(grep -c "acknowledged 5 stale jobs" "$dir/worker.log") -eq 1 ]] ||
  bad "the worker did not tell the 5 stale jobs in one summary line"
[[ $(grep -c " acknowledged: " "$dir/worker.log") -le 1 ]] ||
  bad "the worker told the stale jobs one line each"
if ((fail)); then cat "$dir/worker.log" >&2; fi
stop_worker "${pids[0]}" TERM

# --- a worker's own duplicate: two threads, one executing the run, the other fetching its
# duplicate (an operator's enqueue), which snoozes on the lease until the run has ended.
export REACTOR_DEMO_STEP_MS=1000
: >"$dir/worker.log"
worker_threads=2 worker --snooze-delay 0.2
id=$(start_order 9)
wait_started "$id:reserve" || bad "reserve never started"
"$reactor" enqueue "$id" --storage "$db" >/dev/null || bad "enqueue of a running run failed"
wait_completed "$id" || bad "run $id did not complete"
wait_no_jobs "$id" || bad "the duplicate of run $id was never acknowledged"
grep -q "held by another execution" "$dir/worker.log" &&
  { bad "the worker said its own run is held by another execution:"; cat "$dir/worker.log" >&2; }
for step in reserve charge ship; do
  [[ $(count S "$id:$step") -eq 1 ]] || bad "$step ran $(count S "$id:$step") times, not once"
done

[[ $fail -eq 0 ]] &&
  echo "cli_consistency: --background --json; enqueue of an ended run refused without --force; stale jobs in one line; no own run held by another"
exit $fail
