#!/usr/bin/env bash
# `reactor worker`'s part of shutting down: one line when it starts (the store, password masked;
# its queues; its threads), --shutdown-timeout; the first SIGTERM stops it gracefully, a second
# one during that stop stops it at once (Worker::stop_now); one line when it stops, saying how
# and what it did. Whatever the stop, the run in flight is not lost: another worker ends it.
reactor=$1
source "$(dirname "$0")/worker_env.sh"
# Steps long enough that a run is surely still in flight when the second signal comes.
export REACTOR_DEMO_STEP_MS=3000

# wait_log PATTERN: waits (bounded, 20 s) until the worker log has a line matching PATTERN.
wait_log() {
  for _ in $(seq 1 200); do
    grep -q -- "$1" "$dir/worker.log" 2>/dev/null && return 0
    sleep 0.1
  done
  return 1
}

rc=0
"$reactor" worker --storage "$db" --shutdown-timeout -1 2>"$dir/refused.log" || rc=$?
[[ $rc -eq 2 ]] && grep -q -- "--shutdown-timeout" "$dir/refused.log" ||
  bad "--shutdown-timeout -1 exited $rc, expected 2 naming it"

run=$(start_order 61)
worker --shutdown-timeout 20
first=${pids[-1]}
wait_log "worker: serving " || bad "the worker printed no line when it started"
line=$(grep "worker: serving " "$dir/worker.log" | head -1 || true)
[[ $line == *", queues AsyncOrder, FanOutSum, GiftOrder, OrderSaga, RefundApproval, Shipment, TransferFunds, 1 thread(s), pid $first" ]] ||
  bad "the start line does not name the queues, threads and pid: $line"
if [[ $db =~ ://[^/@]*:([^/@]+)@ ]]; then
  password=${BASH_REMATCH[1]}
  grep -qF "$password" "$dir/worker.log" && bad "the worker log holds the store's password"
  [[ $line == *"://***@"* ]] || bad "the start line does not name the store, masked: $line"
else
  [[ $line == *"serving $db,"* ]] || bad "the start line does not name the store: $line"
fi

# Two signals while a step runs: a graceful stop, then at once.
wait_started "$run:reserve" || bad "the worker did not start run $run"
kill -TERM "$first"
wait_log "SIGTERM: stopping; runs in flight finish their step and are handed back (at most 20 s" ||
  bad "no line says the first SIGTERM began a graceful stop"
kill -TERM "$first"
wait_log "SIGTERM again: handing the runs in flight back now" ||
  bad "no line says the second SIGTERM stops at once"
stop_worker "$first"
[[ $stopped_rc -eq 0 ]] || bad "the worker exited $stopped_rc after two SIGTERMs"
grep -q "worker: stopped (SIGTERM, then at once on a second signal) after " "$dir/worker.log" ||
  bad "the last line does not say the worker stopped at once on a second signal"

# Another worker ends the run, and stops gracefully on one SIGINT.
worker
second=${pids[-1]}
wait_completed "$run" || bad "run $run was not completed after the first worker stopped"
kill -INT "$second"
wait_log "SIGINT: stopping" || bad "no line says SIGINT began a graceful stop"
stop_worker "$second"
[[ $stopped_rc -eq 0 ]] || bad "the worker exited $stopped_rc on SIGINT"
grep -q "worker: stopped (SIGINT) after " "$dir/worker.log" ||
  bad "the last line of the second worker does not say it stopped on SIGINT"
[[ $(count E "$run:ship") -ge 1 ]] || bad "run $run never ended its last step"

# One SIGTERM while a step runs: the step finishes and the run is released unfinished (a
# delivery `released`), never told as a job this worker does not serve; another worker ends it.
third_run=$(start_order 62)
worker --shutdown-timeout 20
third=${pids[-1]}
wait_started "$third_run:reserve" || bad "the third worker did not start run $third_run"
kill -TERM "$third"
stop_worker "$third"
[[ $stopped_rc -eq 0 ]] || bad "the worker exited $stopped_rc on one SIGTERM"
grep -q "not served here" "$dir/worker.log" && bad "a run released at shutdown was told as not served here"
worker
wait_completed "$third_run" || bad "run $third_run was not completed after a graceful stop"

[[ $fail -eq 0 ]] && echo "cli_worker_shutdown: start and stop lines; SIGTERM graceful, a second at once; SIGINT graceful; runs $run and $third_run completed"
exit $fail
