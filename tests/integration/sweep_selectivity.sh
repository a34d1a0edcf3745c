#!/usr/bin/env bash
# The recovery sweep is selective, with real processes: of five runs —
# completed, failed (a declined order, compensated), halted (a gift with no
# recipient), running under the live lease of a worker inside a slow step,
# and running with no lease because its worker was killed with SIGKILL —
# `reactor sweep` re-enqueues only the last. The workers' own sweepers are
# kept out of the way (one sweep window for the whole test, claimed before
# anything goes wrong). The re-enqueued run is then finished by a new worker,
# while the live run is left to its owner.
reactor=$1
source "$(dirname "$0")/worker_env.sh"
sweep_interval=10000000

# Terminal runs, run to their end by `reactor start` itself: no job left behind.
completed=$(REACTOR_DEMO_STEP_MS=0 run_now OrderSaga '{"order_id": 7, "amount": 300}')
failed=$(REACTOR_DEMO_STEP_MS=0 run_now OrderSaga '{"order_id": 10, "amount": 300}')
halted=$(REACTOR_DEMO_STEP_MS=0 run_now GiftOrder '{"order_id": 11}')

# The live run: its worker stays inside `reserve` for a minute, lease renewed.
live=$(start_order 21)
REACTOR_DEMO_STEP_MS=60000 worker
owner=${pids[0]}
wait_started "$live:reserve" || { echo "sweep: the live run never started" >&2; exit 1; }

# The orphan: its worker (the only other one) is killed inside a step.
orphan=$(start_order 22)
worker
victim=${pids[1]}
wait_started "$orphan:charge" || { echo "sweep: the orphan never reached charge" >&2; exit 1; }
kill_worker "$victim"
sleep 1.5  # its 1 s lease lapses; nothing can renew it any more

fail=0
expect() {  # run status jobs
  local got; got=$(status_of "$1")
  [[ $got == "$2" ]] || { echo "sweep: run $1 is $got, expected $2" >&2; fail=1; }
  got=$(store_jobs "$1")
  [[ $got -eq $3 ]] || { echo "sweep: run $1 has $got jobs, expected $3" >&2; fail=1; }
}
expect "$completed" completed 0
expect "$failed" failed 0
expect "$halted" halted 0
terminal_lines() { grep -c " $completed:\| $failed:\| $halted:" "$dir/ledger"; }
terminal_before=$(terminal_lines)
live_jobs=$(store_jobs "$live")
orphan_jobs=$(store_jobs "$orphan")
[[ $fail -eq 0 ]] || exit 1

out=$("$reactor" --storage "$db" sweep)
echo "$out"
[[ $out == "requeued 1 run(s)"* ]] || { echo "sweep: expected exactly one run requeued" >&2; fail=1; }
expect "$completed" completed 0
expect "$failed" failed 0
expect "$halted" halted 0
expect "$live" running "$live_jobs"
# The orphan's job, still in the killed worker's delivery, is delivered again at once: the sweep
# adds no second job beside it.
expect "$orphan" running "$orphan_jobs"
[[ $fail -eq 0 ]] || exit 1

# The redelivered job is real work: a new worker finishes the orphan, and only
# snoozes on the live run, whose step nobody but its owner ever started.
worker
wait_completed "$orphan" || { echo "sweep: the requeued orphan did not complete" >&2; exit 1; }
for step in reserve charge ship; do
  [[ $(count E "$orphan:$step") -ge 1 ]] || { echo "sweep: orphan's $step never finished" >&2; fail=1; }
done
[[ $(count S "$orphan:reserve") -eq 1 ]] || { echo "sweep: orphan's reserve ran again" >&2; fail=1; }
[[ $(count S "$live:reserve") -eq 1 && $(count S "$live:reserve" "$owner") -eq 1 ]] ||
  { echo "sweep: someone else started the live run's step" >&2; fail=1; }
[[ $(status_of "$live") == running ]] || { echo "sweep: the live run was disturbed" >&2; fail=1; }
[[ $(terminal_lines) -eq $terminal_before ]] ||
  { echo "sweep: a terminal run ran a step after the sweep" >&2; fail=1; }
[[ $fail -eq 0 ]] &&
  echo "sweep_selectivity: only the run without a live lease was re-enqueued, and then finished"
exit $fail
