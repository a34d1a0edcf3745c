#!/usr/bin/env bash
# A worker killed inside a step, its job leased for a visibility timeout of 60 s: the sweeper
# makes the dead worker's job deliverable again once its 1 s lease lapses, so the interrupted
# step runs again within lease ttl + one sweep interval (bounded here at 10 s), never after the
# visibility timeout; and it does so with the dead worker's job, not a second one.
reactor=$1
source "$(dirname "$0")/worker_env.sh"

id=$(start_order)
worker --visibility-timeout 60
victim=${pids[0]}
wait_started "$id:charge" || { echo "recovery_visibility: charge never started" >&2; exit 1; }
kill_worker "$victim"
worker --visibility-timeout 60
again=0
for _ in $(seq 1 100); do  # 10 s
  if [[ $(count S "$id:charge") -ge 2 ]]; then again=1; break; fi
  sleep 0.1
done
[[ $again -eq 1 ]] || { echo "recovery_visibility: charge did not run again within 10 s" >&2; exit 1; }
wait_completed "$id" || { echo "recovery_visibility: the run did not complete" >&2; exit 1; }
wait_no_jobs "$id" || { echo "recovery_visibility: a job of the run was left behind" >&2; exit 1; }
echo "recovery_visibility: the interrupted step ran again within 10 s; no job left over"
