#!/usr/bin/env bash
# Interrupts with real processes (issue 24), RefundApproval driven through the CLI as a user
# types it:
#  - paused runs survive a SIGKILL of every worker, and each is resumed once by a worker started
#    after (one by correlation id, one by --step with --payload-file);
#  - `runs --status paused` lists each waiting interrupt with its correlation id and deadline;
#  - two `reactor resume` processes race for one interrupt: one wins, the other is refused
#    (already_exists), and the step after the interrupt runs once (ledger);
#  - an active timeout whose deadline passes while no worker runs rolls the run back once a
#    worker starts; its reservation is released once.
reactor=$1
source "$(dirname "$0")/worker_env.sh"
export REACTOR_DEMO_STEP_MS=0
fail=0
bad() { echo "interrupts: $*" >&2; fail=1; }
refund() { start_background RefundApproval "{\"order_id\": $1, \"amount\": 25${2:+, \"timeout_s\": $2}}"; }

a=$(refund 11) && b=$(refund 12) && c=$(refund 13) && d=$(refund 14 1) || bad "a start failed"
worker
worker
for id in "$a" "$b" "$c" "$d"; do wait_status "$id" paused || bad "run $id is $(status_of "$id"), not paused"; done
"$reactor" --storage "$db" runs --status paused >"$dir/paused"
grep -q "waits at approve  correlation refund-11  deadline" "$dir/paused" ||
  { bad "runs --status paused does not show refund-11's interrupt:"; cat "$dir/paused" >&2; }
for p in "${pids[@]}"; do kill_worker "$p"; done

sleep 1.5  # d's 1 s active deadline passes while no worker runs
[[ $(status_of "$d") == paused ]] || bad "with no worker, run $d is $(status_of "$d"), not paused"
"$reactor" --storage "$db" resume --correlation refund-11 --payload '{"approved": true, "by": "ann"}' \
  >/dev/null || bad "resume by correlation id refund-11 failed"
echo '{"approved": false, "by": "bob"}' >"$dir/no.json"
"$reactor" resume "$b" --step approve --payload-file "$dir/no.json" --storage "$db" >/dev/null ||
  bad "resume of $b by --step with --payload-file failed"

# Two processes resume c at once: exactly one wins.
for k in 1 2; do
  { "$reactor" --storage "$db" resume "$c" --step approve \
      --payload '{"approved": true, "by": "racer'$k'"}' >"$dir/race$k.out" 2>"$dir/race$k.err"
    echo $? >"$dir/race$k.rc"; } &
done
wait
wins=$(cat "$dir"/race*.rc | grep -c '^0$' || true)
refused=$(grep -l already_exists "$dir"/race*.err | wc -l)
[[ $wins -eq 1 && $refused -eq 1 ]] ||
  { bad "the race: $wins won, $refused refused already_exists (want 1 and 1):"; cat "$dir"/race*.err >&2; }

worker
wait_status "$a" completed || bad "run $a (approved) is $(status_of "$a"), not completed"
wait_status "$b" failed || bad "run $b (rejected) is $(status_of "$b"), not failed"
wait_status "$c" completed || bad "run $c (raced) is $(status_of "$c"), not completed"
wait_status "$d" failed || bad "run $d (timed out) is $(status_of "$d"), not failed"
[[ $(error_kind_of "$d") == timeout ]] || bad "run $d failed $(error_kind_of "$d"), not timeout"
for id in "$a" "$c"; do
  [[ $(count S "$id:refund") -eq 1 ]] || bad "run $id refunded $(count S "$id:refund") times, not once"
done
[[ $(count S "$b:refund") -eq 1 ]] || bad "run $b tried its refund $(count S "$b:refund") times"
for id in "$b" "$d"; do
  [[ $(count U "$id:check") -eq 1 ]] || bad "run $id released its reservation $(count U "$id:check") times, not once"
done
for id in "$a" "$b" "$c" "$d"; do
  [[ $(count S "$id:check") -eq 1 ]] || bad "run $id checked $(count S "$id:check") times, not once"
done
rc=0
"$reactor" --storage "$db" resume "$a" --step approve --payload '{"approved": true, "by": "x"}' \
  2>"$dir/late.err" >/dev/null || rc=$?
[[ $rc -eq 3 ]] && grep -q "has ended completed" "$dir/late.err" ||
  { bad "a resume of the completed run exited $rc:"; cat "$dir/late.err" >&2; }
rc=0
"$reactor" --storage "$db" resume "$a" --payload '{}' 2>"$dir/usage.err" >/dev/null || rc=$?
[[ $rc -eq 3 ]] || bad "a resume of a completed run naming no step exited $rc, not 3 (no resumable halt)"

rc=0
"$reactor" --storage "$db" resume --step approve --payload '{}' 2>/dev/null >/dev/null || rc=$?
[[ $rc -eq 2 ]] || bad "a resume naming no run nor correlation id exited $rc, not 2"

[[ $fail -eq 0 ]] && echo "interrupts: 4 paused runs survived their workers; each went on once"
exit $fail
