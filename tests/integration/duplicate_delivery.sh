#!/usr/bin/env bash
# Duplicate delivery with real processes: while worker A executes a run, an
# operator enqueues a second job for it (`reactor enqueue`), which worker B
# takes at once. B finds the run's lease held and snoozes the job; once A has
# finished, the duplicate finds the run ended and is acknowledged without
# running anything. Each step body ran once, and no two executions of a step
# ever overlapped.
reactor=$1
source "$(dirname "$0")/worker_env.sh"
# Steps of a second each: B starts, and meets the run still held, with time to spare.
export REACTOR_DEMO_STEP_MS=1000

id=$(start_order)
worker --snooze-delay 0.2
a=${pids[0]}
wait_started "$id:reserve" || { echo "duplicate: reserve never started" >&2; exit 1; }
"$reactor" --storage "$db" enqueue "$id"
worker --snooze-delay 0.2
wait_completed "$id" || { echo "duplicate: the run did not complete" >&2; exit 1; }
wait_no_jobs "$id" || { echo "duplicate: a job of the finished run was never acknowledged" >&2; exit 1; }

fail=0
for step in reserve charge ship; do
  s=$(count S "$id:$step"); e=$(count E "$id:$step")
  if [[ $s -ne 1 || $e -ne 1 ]]; then
    echo "duplicate: $step started $s and finished $e times, expected once" >&2; fail=1
  fi
  [[ $(count S "$id:$step" "$a") -eq 1 ]] || { echo "duplicate: A did not run $step" >&2; fail=1; }
done
# Between a step's S and its E no other S of the same key: never two at once.
overlaps=$(awk '$1 == "S" { if (open[$2]++) n++ } $1 == "E" { open[$2]-- } END { print n + 0 }' \
  "$dir/ledger")
[[ $overlaps -eq 0 ]] || { echo "duplicate: $overlaps overlapping executions" >&2; fail=1; }
grep -q "of run $id snoozed" "$dir/worker.log" ||
  { echo "duplicate: no worker reported snoozing the duplicate" >&2; fail=1; }
grep -q "of run $id acknowledged" "$dir/worker.log" ||
  { echo "duplicate: no worker acknowledged the duplicate of the ended run" >&2; fail=1; }

# `reactor enqueue` of a run nobody stored is an error, and enqueues nothing.
unknown=00000000-0000-4000-8000-000000000000
if "$reactor" --storage "$db" enqueue "$unknown" 2>"$dir/enqueue.err"; then
  echo "duplicate: enqueue of an unknown run succeeded" >&2; fail=1
fi
grep -q "not found" "$dir/enqueue.err" || { echo "duplicate: enqueue did not say why" >&2; fail=1; }
[[ $(store_jobs "$unknown") -eq 0 ]] || { echo "duplicate: a job for an unknown run" >&2; fail=1; }

[[ $fail -eq 0 ]] &&
  echo "duplicate_delivery: the duplicate snoozed, then found the run ended; every step ran once"
exit $fail
