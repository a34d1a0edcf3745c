#!/usr/bin/env bash
# Bad stored records, with real processes: runs whose header holds garbage
# JSON, whose header the store itself cannot read (Redis: not JSON at all;
# SQLite: a status this build does not know), whose step record holds
# garbage, or whose header claims a record schema version newer than this
# build knows. On its first delivery each is
# marked failed with reason corrupt_record (which `reactor show` reports,
# though the records stay unreadable) and its job acknowledged; no step of
# theirs runs; and the same worker then completes a normal run.
reactor=$1
source "$(dirname "$0")/worker_env.sh"

# Planted before any worker runs, so the first delivery meets them.
garbled=$(start_order 31);  store_corrupt_header "$garbled"
unreadable=$(start_order 35); store_garble_header "$unreadable"
bad_step=$(start_order 32); store_corrupt_step "$bad_step" 1
newer=$(start_order 33);    store_set_schema_version "$newer" 99
worker
w=${pids[0]}

fail=0
for run in "$garbled" "$unreadable" "$bad_step" "$newer"; do
  wait_status "$run" failed || { echo "bad_records: run $run is not failed" >&2; exit 1; }
  "$reactor" --storage "$db" show "$run"
  [[ $(error_kind_of "$run") == corrupt_record ]] ||
    { echo "bad_records: run $run did not fail with corrupt_record" >&2; fail=1; }
  wait_no_jobs "$run" || { echo "bad_records: the job of run $run was not acknowledged" >&2; fail=1; }
  [[ $(grep -c " $run:" "$dir/ledger" 2>/dev/null) -eq 0 ]] ||
    { echo "bad_records: a step of unreadable run $run ran" >&2; fail=1; }
  grep -q "of run $run failed_run" "$dir/worker.log" ||
    { echo "bad_records: the worker did not report failing run $run" >&2; fail=1; }
done
"$reactor" --storage "$db" show "$newer" | grep -q "schema_version 99" ||
  { echo "bad_records: the error does not name the schema version" >&2; fail=1; }

good=$(start_order 34)
wait_completed "$good" || { echo "bad_records: the worker did not complete a normal run" >&2; exit 1; }
[[ $(count E "$good:ship" "$w") -eq 1 ]] || { echo "bad_records: another worker ran it" >&2; fail=1; }
kill -0 "$w" || { echo "bad_records: the worker died" >&2; fail=1; }
[[ $fail -eq 0 ]] &&
  echo "bad_records: unreadable runs failed with corrupt_record, jobs acknowledged; the worker served on"
exit $fail
