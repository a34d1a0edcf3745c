#!/usr/bin/env bash
# A program of its own reactors built on reactor::cli_main (travel_cli.cpp, TravelBooking) has
# every command for them: start persists a run of its reactor, its worker serves it, runs and show
# read it back; the examples the shipped `reactor` registers are not there.
reactor=$1  # travel-cli: worker_env.sh calls the program under test $reactor
source "$(dirname "$0")/worker_env.sh"

"$reactor" --help >"$dir/help" || bad "--help failed"
for command in start worker runs show sweep enqueue; do
  grep -q "^  $command" "$dir/help" || bad "--help does not list $command"
done
grep -q "^  demo" "$dir/help" && bad "--help lists demo, a command of the shipped reactor only"

id=$("$reactor" start TravelBooking --storage "$db" --background \
  --input '{"trip_id": 3, "traveller": "Ada"}') || bad "start TravelBooking --background failed"
"$reactor" runs --storage "$db" --reactor TravelBooking --json |
  grep -q "\"id\":\"$id\",\"reactor\":\"TravelBooking\",\"status\":\"enqueued\"" ||
  bad "runs --reactor TravelBooking does not list run $id as enqueued"

worker
wait_completed "$id" || bad "the worker did not complete run $id"
"$reactor" show "$id" --storage "$db" --json >"$dir/show.json"
grep -q '"flight": "FL-3"' "$dir/show.json" && grep -q '"hotel": "HT-3"' "$dir/show.json" &&
  grep -q '"traveller": "Ada"' "$dir/show.json" ||
  { bad "run $id did not return its booking:"; cat "$dir/show.json" >&2; }
grep -q "^travel-cli worker: serving $db, queues TravelBooking, 1 thread(s)" \
  "$dir/worker.log" || { bad "the worker's first line does not say what it serves:"; cat "$dir/worker.log" >&2; }
stop_worker "${pids[-1]}" TERM
[[ $stopped_rc -eq 0 ]] || bad "the worker exited $stopped_rc on SIGTERM"
grep -q "^travel-cli worker: stopped (SIGTERM) after 1 deliveries (1 runs finished)" "$dir/worker.log" ||
  { bad "the worker's last line does not say what it did:"; cat "$dir/worker.log" >&2; }

"$reactor" start TravelBooking --storage "$db" --input '{"trip_id": 4, "traveller": "Bo"}' >"$dir/out" ||
  bad "start TravelBooking in the foreground failed"
grep -q "completed" "$dir/out" || bad "start TravelBooking in the foreground did not complete"
rc=0
"$reactor" start OrderSaga --storage "$db" --input '{"order_id": 1, "amount": 1}' >/dev/null 2>"$dir/err" || rc=$?
[[ $rc -eq 2 ]] && grep -q "OrderSaga" "$dir/err" ||
  bad "start OrderSaga (not registered here) exited $rc, expected 2 naming it"
rc=0
"$reactor" start TravelBooking --storage "$db" --input '{"trip_id": 0}' >/dev/null 2>"$dir/err" || rc=$?
[[ $rc -eq 2 ]] || bad "start TravelBooking with invalid inputs exited $rc, expected 2"

[[ $fail -eq 0 ]] && echo "cli_own_reactors: travel-cli started, served, listed and showed its own TravelBooking runs"
exit $fail
