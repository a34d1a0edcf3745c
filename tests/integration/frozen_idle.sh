#!/usr/bin/env bash
# A worker frozen (SIGSTOP) while idle — on Redis its blocking fetch is pending and is answered
# while it is frozen: it is handed a job and the run's 1 s lease — then another worker finishes
# the run, then the first is thawed. It must start no step body of that run: its lease's
# deadline, counted from before its request, has passed, and the fenced extension it must make
# first is refused. The ledger shows no side effect from the thawed worker.
reactor=$1
source "$(dirname "$0")/worker_env.sh"

worker
a=${pids[0]}
sleep 0.5  # idle: waiting for a job
freeze_worker "$a"
id=$(start_order)
sleep 1.5  # past the 1 s lease A may have been granted
worker
b=${pids[1]}
wait_completed "$id" || { echo "frozen_idle: B did not finish the run" >&2; exit 1; }
kill -CONT "$a"
sleep 2
fail=0
for step in reserve charge ship; do
  [[ $(count S "$id:$step" "$a") -eq 0 ]] ||
    { echo "frozen_idle: the thawed worker ran $step of a run it no longer held" >&2; fail=1; }
  [[ $(count S "$id:$step" "$b") -eq 1 ]] || { echo "frozen_idle: B did not run $step once" >&2; fail=1; }
done
[[ $fail -eq 0 ]] && echo "frozen_idle: the thawed worker ran no step body"
exit $fail
