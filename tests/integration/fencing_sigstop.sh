#!/usr/bin/env bash
# Fencing with real processes: worker A is frozen (SIGSTOP) inside step 2 of
# reserve → charge → ship until its 1 s lease lapses; worker B takes the run
# over and finishes it; then A is thawed (SIGCONT). A's checkpoint carries a
# stale fencing token and is refused: A never starts `ship`, and the stored
# result is B's.
reactor=$1
source "$(dirname "$0")/worker_env.sh"

id=$(start_order)
worker
a=${pids[0]}
wait_started "$id:charge" || { echo "fencing: charge never started" >&2; exit 1; }
[[ $(count S "$id:charge" "$a") -eq 1 ]] || { echo "fencing: A did not start charge" >&2; exit 1; }
freeze_worker "$a"
worker
b=${pids[1]}
wait_completed "$id" || { echo "fencing: B did not finish the run" >&2; exit 1; }
kill -CONT "$a"
# Give A time to finish its step body and try to commit (bounded).
for _ in $(seq 1 100); do
  [[ $(count E "$id:charge" "$a") -ge 1 ]] && break
  sleep 0.05
done
sleep 1
fail=0
[[ $(count E "$id:charge" "$a") -eq 1 ]] || { echo "fencing: A did not finish its charge body" >&2; fail=1; }
[[ $(count S "$id:ship" "$a") -eq 0 ]] || { echo "fencing: A went on to ship after losing its lease" >&2; fail=1; }
[[ $(count S "$id:ship" "$b") -eq 1 ]] || { echo "fencing: B did not ship exactly once" >&2; fail=1; }
# B's trace, with A's execution of charge, lost when A lost the run, recorded by B.
"$reactor" --storage "$db" show "$id" | grep -q "trace    ran reserve; lost charge; ran charge, ship" ||
  { echo "fencing: stored trace is not B's" >&2; "$reactor" --storage "$db" show "$id" >&2; fail=1; }
# `show` marks the re-executed step.
"$reactor" --storage "$db" show "$id" | grep -Eq "^  charge +completed +attempts=2 interrupted=1 on=[^ ]+$" ||
  { echo "fencing: show does not mark charge as re-executed" >&2; "$reactor" --storage "$db" show "$id" >&2; fail=1; }
[[ $fail -eq 0 ]] && echo "fencing_sigstop: A's stale writes were refused; the stored run is B's"
exit $fail
