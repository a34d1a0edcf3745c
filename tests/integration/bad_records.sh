#!/usr/bin/env bash
# Bad stored records, with real processes: runs whose header holds garbage
# JSON, whose header the store itself cannot read (Redis: not JSON at all;
# SQLite: a status this build does not know), whose step record holds
# garbage, or whose header claims a record schema version newer than this
# build knows; and the records of issue 16, item 19, each of which used to
# take every worker down (abort, stack overflow, gigabytes, out-of-bounds
# writes) or bounce for ever: a step row and a fingerprint with a byte that
# is not UTF-8, a value nested 10,000 deep, a version-1 header counting
# 35,012,021 steps, a step_count short of the graph, a failed_step of
# 100000, an integer past 64 bits, 100,000 chained child headers, and on
# Redis rows-hash fields no build writes. On its first delivery each is
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
count='"step_count":3'
utf8_step=$(start_order 40);   store_set_step "$utf8_step" 1 $'{"attempts":"\xff"}'
utf8_column=$(start_order 41); store_corrupt_fingerprint "$utf8_column"
deep=$(start_order 42)
store_replace_in_body "$deep" '"value":null' "\"value\":$(printf '[%.0s' {1..10000})$(printf ']%.0s' {1..10000})"
deep_step=$(start_order 43)
store_set_step "$deep_step" 0 "{\"attempts\":1,\"body_started\":true,\"completion_seq\":1,\"error\":\"\",\
\"finished_at_ms\":1,\"name\":\"reserve\",\"result\":$(printf '{"a":%.0s' {1..10000})1$(printf '}%.0s' {1..10000}),\
\"retry_at_ms\":0,\"started_at_ms\":1,\"status\":\"completed\"}"
counted=$(start_order 44);     store_set_schema_version "$counted" 1
store_replace_in_body "$counted" "$count" '"step_count":35012021'
short=$(start_order 45);       store_replace_in_body "$short" "$count" '"step_count":1'
past_end=$(start_order 46);    store_replace_in_body "$past_end" '"failed_step":null' '"failed_step":100000'
huge=$(start_order 47)
store_replace_in_body "$huge" '"next_completion_seq":1' '"next_completion_seq":79615011486150111348'
chained=$(start_order 48);     store_chain_children "$chained" 100000
bad=("$garbled" "$unreadable" "$bad_step" "$newer" "$utf8_step" "$utf8_column" "$deep" "$deep_step"
  "$counted" "$short" "$past_end" "$huge" "$chained")
if [[ $db == redis:* ]]; then
  # Field names of the rows hash: a step field whose index is not a number, one under 2 bytes.
  bad_field=$(start_order 49);   store_set_rows_field "$bad_field" "s:$bad_field#x"
  short_field=$(start_order 50); store_set_rows_field "$short_field" s
  bad+=("$bad_field" "$short_field")
fi
worker
w=${pids[0]}

fail=0
for run in "${bad[@]}"; do
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

# Inputs past the limits are refused where they come in (`start`, with and without --background):
# exit 2, naming the limit; nothing is stored.
deep_input="{\"order_id\":7,\"amount\":1,\"x\":$(printf '[%.0s' {1..10000})$(printf ']%.0s' {1..10000})}"
for mode in --background ""; do
  # shellcheck disable=SC2086  # $mode is one flag or none
  if out=$("$reactor" --storage "$db" start OrderSaga --input "$deep_input" $mode 2>&1); then
    echo "bad_records: start ${mode:-(in the foreground)} accepted inputs nested 10,000 deep" >&2
    fail=1
  elif [[ $out != *"nested deeper than 512 levels"* ]]; then
    echo "bad_records: start ${mode:-(in the foreground)} did not name the depth limit: $out" >&2
    fail=1
  fi
done

good=$(start_order 34)
wait_completed "$good" || { echo "bad_records: the worker did not complete a normal run" >&2; exit 1; }
[[ $(count E "$good:ship" "$w") -eq 1 ]] || { echo "bad_records: another worker ran it" >&2; fail=1; }
kill -0 "$w" || { echo "bad_records: the worker died" >&2; fail=1; }
[[ $fail -eq 0 ]] &&
  echo "bad_records: unreadable runs failed with corrupt_record, jobs acknowledged; the worker served on"
exit $fail
