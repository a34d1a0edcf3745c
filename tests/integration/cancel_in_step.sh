#!/usr/bin/env bash
# Cancel while a worker is inside a step, with real processes (issue 24): `reactor cancel` seizes
# the run's lease, so the worker's commit of the step in flight is refused as a lost lease's and
# it starts no later step; the run stays cancelled, nothing is rolled back, and a resume or a
# second cancel is refused.
reactor=$1
source "$(dirname "$0")/worker_env.sh"
# Steps of two seconds each: the cancel lands inside charge with time to spare.
export REACTOR_DEMO_STEP_MS=2000

id=$(start_order)
worker
wait_started "$id:charge" || { echo "cancel_in_step: charge never started" >&2; exit 1; }
"$reactor" --storage "$db" cancel "$id" --reason "customer called" >"$dir/out" 2>"$dir/err" ||
  { bad "cancel exited $?: $(cat "$dir/err")"; }
grep -q "cancelled" "$dir/out" || bad "cancel did not say so: $(cat "$dir/out")"
[[ $(status_of "$id") == cancelled ]] || bad "status $(status_of "$id") right after the cancel"

# The worker finishes charge's body, then its commit is refused: it says so.
for _ in $(seq 1 300); do
  grep -q "of run $id lease_lost" "$dir/worker.log" && break
  sleep 0.1
done
grep -q "of run $id lease_lost" "$dir/worker.log" || bad "the worker never met the lost lease"
[[ $(count E "$id:charge") -eq 1 ]] || bad "charge's body did not finish once"
[[ $(count S "$id:ship") -eq 0 ]] || bad "ship started after the cancel"
[[ $(count U "$id:reserve") -eq 0 && $(count U "$id:charge") -eq 0 ]] || bad "something was undone"
[[ $(status_of "$id") == cancelled ]] || bad "status $(status_of "$id") after the worker stopped"
"$reactor" --storage "$db" show "$id" | grep -q "customer called" || bad "the reason is not shown"
wait_no_jobs "$id" || bad "a job of the cancelled run is left"

# Ended for good: a second cancel and a resume are refused (exit 3), naming the status.
rc=0; "$reactor" --storage "$db" cancel "$id" 2>"$dir/err" || rc=$?
[[ $rc -eq 3 ]] && grep -q "cancelled" "$dir/err" || bad "second cancel: exit $rc, $(cat "$dir/err")"
rc=0; "$reactor" --storage "$db" resume "$id" 2>"$dir/err" || rc=$?
[[ $rc -eq 3 ]] || bad "resume of a cancelled run: exit $rc"
rc=0; "$reactor" --storage "$db" cancel 00000000-0000-4000-8000-000000000000 2>"$dir/err" || rc=$?
[[ $rc -eq 2 ]] || bad "cancel of an unknown run: exit $rc"

[[ $fail -eq 0 ]] && echo "cancel_in_step: the worker stopped at its next commit; no later step ran"
exit $fail
