#!/usr/bin/env bash
# A caller never hangs on work only a worker can do (issue 23, item 2), through the CLI of a
# user's program (crash-loop-cli's Receipt: reserve, an async_step bill, close reads bill):
#   - no worker serves the queue: a synchronous `start` says so before it would wait, hands the
#     run off at once (`it goes on in a worker: ... show ID`, no 30 s wait, no error), and a
#     worker started later completes it, bill run once;
#   - `start --wait --async-wait-timeout 1` with no worker: the reader fails after 1 s, the error
#     printed once (no doubled kind), the run failed and rolled back at once (reserve undone);
#     a worker started later runs nothing of the unit (its run fails owner_ended);
#   - the same with Trip, whose fan_out(2) map of emails was dispatched beside the unit: the
#     run does not wait for the emails either — no worker started them, so they are filed never
#     run (show's maps line: cancelled=2) — and a worker started later runs none of them;
#   - with a worker serving the queue, `start` waits for the unit and completes in the caller.
reactor=$1  # crash-loop-cli
source "$(dirname "$0")/worker_env.sh"

# start_receipt ARGS...: a synchronous start, bounded; its stdout and stderr in $dir/out.
start_receipt() {
  timeout 20 "$reactor" start Receipt --storage "$db" "$@" >"$dir/out" 2>&1 || true
}
run_of() { awk '/^run / { sub(":", "", $2); print $2; exit }' "$dir/out"; }

# 1. Nobody serves the queue: no wait.
began=$SECONDS
start_receipt
handed=$(run_of)
((SECONDS - began < 10)) || bad "start waited $((SECONDS - began)) s with no worker to wait for"
grep -q "no worker serves queue 'Receipt'" "$dir/out" || bad "start did not say that no worker serves the queue"
grep -q "it goes on in a worker" "$dir/out" || bad "start did not say the run goes on in a worker"
grep -q "async_wait_timeout" "$dir/out" && bad "start waited for the unit and timed out"
[[ $(status_of "$handed") == waiting ]] || bad "the handed-off run is $(status_of "$handed"), not waiting"
if ((fail)); then cat "$dir/out" >&2; fi

# 2. --wait with nobody there: the reader gives up after 1 s; the run rolls back at once.
start_receipt --wait --async-wait-timeout 1
waited=$(run_of)
[[ $(grep -c "did not finish within 1 s" "$dir/out") -ge 1 ]] || bad "--wait did not time out naming the unit"
grep -q "async_wait_timeout: async_wait_timeout" "$dir/out" && bad "the error repeats its kind"
[[ $(grep -c "start: async_wait_timeout" "$dir/out") -eq 1 ]] ||
  bad "the error is not printed once on stderr"
[[ $(status_of "$waited") == failed ]] || bad "the run that timed out is $(status_of "$waited"), not failed"
[[ $(error_kind_of "$waited") == async_wait_timeout ]] || bad "its error is not async_wait_timeout"
[[ $(count U "$waited:reserve") -eq 1 ]] || bad "its reserve was not undone at once"
if ((fail)); then cat "$dir/out" >&2; fi

# 2b. The same with a fan-out map dispatched beside the unit: it holds nothing up.
began=$SECONDS
timeout 20 "$reactor" start Trip --storage "$db" --wait --async-wait-timeout 1 >"$dir/out" 2>&1 || true
trip=$(run_of)
((SECONDS - began < 10)) || bad "the failing Trip waited $((SECONDS - began)) s for its map"
[[ $(status_of "$trip") == failed ]] || bad "the Trip that timed out is $(status_of "$trip"), not failed"
[[ $(count U "$trip:reserve") -eq 1 ]] || bad "the Trip's reserve was not undone at once"
"$reactor" --storage "$db" show "$trip" >"$dir/show"
grep -Eq "tickets .* cancelled=2" "$dir/show" || bad "show does not count the 2 emails cancelled"
if ((fail)); then cat "$dir/out" "$dir/show" >&2; fi

# A worker now: the handed-off run completes; the unit of the failed one runs nothing.
worker
wait_completed "$handed" || bad "the handed-off run did not complete in a worker"
[[ $(count S "$handed:bill[0]/bill") -eq 1 ]] || bad "the handed-off run's bill did not run once"
wait_status "$waited:bill[0]" failed || bad "the unit of the failed run did not end"
"$reactor" --storage "$db" show "$waited:bill[0]" | grep -q "owner_ended" ||
  bad "the unit of the failed run did not end owner_ended"
[[ $(count S "$waited:bill[0]/bill") -eq 0 ]] || bad "the unit of the failed run ran its bill"
[[ $(count U "$waited:reserve") -eq 1 ]] || bad "the failed run was rolled back again"
wait_status "$trip:bill[0]" failed || bad "the unit of the failed Trip did not end"
for k in 0 1; do
  [[ $(status_of "$trip:tickets[$k]") == failed ]] || bad "email $k is $(status_of "$trip:tickets[$k]")"
  [[ $(count S "$trip:tickets[$k]/email") -eq 0 ]] || bad "email $k of the failed Trip ran"
done

# 3. A worker serves the queue: start waits and completes here.
start_receipt
served=$(run_of)
grep -q "no worker serves" "$dir/out" && bad "start said no worker serves the queue while one does"
[[ $(status_of "$served") == completed ]] || { bad "with a worker, start did not complete the run"; cat "$dir/out" >&2; }
exit $fail
