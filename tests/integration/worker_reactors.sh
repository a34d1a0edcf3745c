#!/usr/bin/env bash
# `reactor worker --reactors`: a worker serves only the runs of the reactors
# it is given. One serving Shipment leaves an OrderSaga run enqueued and its
# job in place; one serving OrderSaga completes it. An unknown name is refused
# at start-up (exit 2, naming it), before the worker takes anything.
reactor=$1
source "$(dirname "$0")/worker_env.sh"

fail=0
refused=0
timeout 10 "$reactor" --storage "$db" worker --reactors OrderSaga,NoSuchSaga 2>"$dir/refused.log" ||
  refused=$?
[[ $refused -eq 2 ]] ||
  { echo "worker_reactors: a worker for an unknown reactor exited $refused, expected 2" >&2; fail=1; }
grep -q "unknown reactor 'NoSuchSaga'" "$dir/refused.log" ||
  { echo "worker_reactors: the refusal does not name the unknown reactor:" >&2; cat "$dir/refused.log" >&2; fail=1; }

run=$(start_order 51)
worker --reactors Shipment
sleep 1.5  # a worker polls at least every 50 ms: dozens of chances to take the run
[[ $(status_of "$run") == enqueued && $(grep -c " $run:" "$dir/ledger" 2>/dev/null) -eq 0 ]] ||
  { echo "worker_reactors: a worker serving Shipment touched an OrderSaga run" >&2; fail=1; }
worker --reactors OrderSaga
wait_completed "$run" || { echo "worker_reactors: the OrderSaga worker did not complete $run" >&2; exit 1; }
[[ $fail -eq 0 ]] &&
  echo "worker_reactors: an unknown reactor was refused; the Shipment worker left the OrderSaga run alone; the OrderSaga worker completed it"
exit $fail
