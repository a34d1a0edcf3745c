#!/usr/bin/env bash
# Crash mid-step, on SQLite, with real processes: a worker is killed with
# SIGKILL inside step 2 (charge) of reserve → charge → ship; a new worker
# takes the run over once the lease (1 s) lapses. The side-effect ledger must
# show reserve once, charge started twice (the step in flight) and finished
# once, ship once, and the run completed.
reactor=$1
source "$(dirname "$0")/worker_env.sh"

id=$(start_order)
worker
victim=${pids[0]}
wait_started "$id:charge" || { echo "crash_recovery: charge never started" >&2; exit 1; }
kill_worker "$victim"
worker
wait_completed "$id" || { echo "crash_recovery: the run did not complete" >&2; exit 1; }
"$reactor" --storage "$db" show "$id"

fail=0
check() {  # kind step expected
  local got; got=$(count "$1" "$id:$2")
  if [[ $got -ne $3 ]]; then echo "crash_recovery: $1 $2 ran $got times, expected $3" >&2; fail=1; fi
}
check S reserve 1; check E reserve 1
check S charge 2;  check E charge 1
check S ship 1;    check E ship 1
[[ $fail -eq 0 ]] && echo "crash_recovery: resumed at charge after SIGKILL; reserve and ship ran once"
exit $fail
