#!/usr/bin/env bash
# `reactor start --id KEY`: a business key as the run id makes a start idempotent, as a harness
# that retries its start command relies on. Started twice in the background, the run has one job
# and runs once; started again in the foreground once it ended, the stored result comes back and
# no step runs again; other inputs under the same id are refused (exit 2, run_id_conflict, naming
# the id), and the stored run is untouched.
reactor=$1
source "$(dirname "$0")/worker_env.sh"
export REACTOR_DEMO_STEP_MS=0
order='{"order_id": 7, "amount": 300}'

for attempt in 1 2; do
  id=$("$reactor" --storage "$db" start OrderSaga --background --input "$order" --id ORDER-7) ||
    bad "background start $attempt under ORDER-7 failed"
  [[ $id == ORDER-7 ]] || bad "background start $attempt printed '$id', not ORDER-7"
done
[[ $(store_jobs ORDER-7) -eq 1 ]] || bad "two background starts left $(store_jobs ORDER-7) jobs, not 1"
worker
wait_completed ORDER-7 || bad "the run did not complete"
"$reactor" start OrderSaga --id ORDER-7 --storage "$db" --input "$order" >"$dir/again" ||
  bad "the foreground start of the ended run failed"
grep -q "completed" "$dir/again" || { bad "the foreground start did not give the stored run:"; cat "$dir/again" >&2; }
for step in reserve charge ship; do
  [[ $(count S "ORDER-7:$step") -eq 1 ]] || bad "$step ran $(count S "ORDER-7:$step") times, not once"
done

rc=0
"$reactor" start OrderSaga --storage "$db" --id ORDER-7 --background \
  --input '{"order_id": 7, "amount": 999}' >/dev/null 2>"$dir/err" || rc=$?
[[ $rc -eq 2 ]] && grep -q "ORDER-7" "$dir/err" ||
  { bad "other inputs under ORDER-7 (background) exited $rc, expected 2 naming the id:"; cat "$dir/err" >&2; }
rc=0
"$reactor" start OrderSaga --storage "$db" --id ORDER-7 \
  --input '{"order_id": 7, "amount": 999}' >/dev/null 2>"$dir/err" || rc=$?
[[ $rc -eq 2 ]] && grep -q "run_id_conflict" "$dir/err" ||
  { bad "other inputs under ORDER-7 (foreground) exited $rc, expected 2 with run_id_conflict:"; cat "$dir/err" >&2; }
[[ $(status_of ORDER-7) == completed ]] || bad "the stored run is $(status_of ORDER-7) after the conflicts"
[[ $(count S "ORDER-7:reserve") -eq 1 ]] || bad "a conflicting start ran a step"

[[ $fail -eq 0 ]] && echo "idempotent_start: ORDER-7 ran once; other inputs under it were refused"
exit $fail
