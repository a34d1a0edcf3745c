#!/usr/bin/env bash
# Unknown reactors, with real processes, in the queue of a served reactor
# (OrderSaga), on a worker allowed 2 snoozes for contention:
#   - a run whose stored header names a reactor nobody registered (its job
#     still routed as OrderSaga) fails at once with unknown_reactor, and its
#     job is acknowledged;
#   - a job that itself names an unregistered reactor (its header too) is
#     handed back and reported as often as it takes — past the snooze cap,
#     since during a rolling deploy another worker will serve it — and its
#     run is left as it was.
# No step of either runs, and the worker completes a normal run meanwhile.
reactor=$1
source "$(dirname "$0")/worker_env.sh"

renamed=$(start_order 41)
store_set_header_reactor "$renamed" NoSuchSaga
stranger=$(start_order 42)
store_set_job_reactor "$stranger" NoSuchSaga
store_set_header_reactor "$stranger" NoSuchSaga
worker --snooze-delay 0.1 --snooze-max-attempts 2
w=${pids[0]}

fail=0
wait_status "$renamed" failed || { echo "unknown_reactor: run $renamed did not fail" >&2; exit 1; }
"$reactor" --storage "$db" show "$renamed"
[[ $(error_kind_of "$renamed") == unknown_reactor ]] ||
  { echo "unknown_reactor: run $renamed did not fail with unknown_reactor" >&2; fail=1; }
wait_no_jobs "$renamed" || { echo "unknown_reactor: the job of $renamed was not acknowledged" >&2; fail=1; }

handed_back() { grep -c "for reactor 'NoSuchSaga' is not served here; handed back" "$dir/worker.log" || true; }
for _ in $(seq 1 300); do  # bounded: 30 s
  [[ $(handed_back) -gt 2 ]] && break
  sleep 0.1
done
[[ $(handed_back) -gt 2 ]] ||
  { echo "unknown_reactor: the stranger's job was handed back $(handed_back) times, expected more than the cap (2)" >&2; fail=1; }
[[ $(status_of "$stranger") == enqueued && $(store_jobs "$stranger") -eq 1 ]] ||
  { echo "unknown_reactor: the stranger's run or job was touched" >&2; fail=1; }

for run in "$renamed" "$stranger"; do
  [[ $(grep -c " $run:" "$dir/ledger" 2>/dev/null) -eq 0 ]] ||
    { echo "unknown_reactor: a step of run $run ran" >&2; fail=1; }
done
good=$(start_order 43)
wait_completed "$good" || { echo "unknown_reactor: the worker did not complete a normal run" >&2; exit 1; }
kill -0 "$w" || { echo "unknown_reactor: the worker died" >&2; fail=1; }
[[ $fail -eq 0 ]] &&
  echo "unknown_reactor: a header naming an unknown reactor failed at once; a job naming one was handed back $(handed_back) times, untouched"
exit $fail
