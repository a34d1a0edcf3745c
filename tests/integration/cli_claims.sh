#!/usr/bin/env bash
# Claims on the command line (docs/maps.md, "Claims"): a FanOutSum of 30 elements, batch 8, in
# claims of 4 (its `claim` input) through a worker process. It completes with sum 900; `runs
# --all` lists its 8 claims ([0..3] … [28..29]) and no element run; `show` of an element reads it
# from its slot (value, step); `show` of a claim names its elements, map and owner; an element
# past the end is unknown; `cancel` of an element or a claim names the run to act on; a claim
# size of 0 fails the run, naming it.
reactor=$1
source "$(dirname "$0")/worker_env.sh"

id=$(start_background FanOutSum '{"count": 30, "batch_size": 8, "claim": 4}') ||
  bad "start FanOutSum failed"
worker
wait_completed "$id" || { bad "FanOutSum $id did not complete"; "$reactor" --storage "$db" show "$id" >&2; }

"$reactor" --storage "$db" show "$id" >"$dir/show" 2>&1 || bad "show $id failed"
grep -q '^value    {"count":30,"sum":900}$' "$dir/show" || bad "show $id has not the value {count 30, sum 900}"
grep -Eq "^  sum +settled +total=30 done=30 failed=0 in_flight=0 rolled_back=0 batch=8 interrupted=0 cancelled=0$" "$dir/show" ||
  bad "show $id does not print the map's progress (total 30, done 30, settled)"

"$reactor" runs --all --storage "$db" >"$dir/out" 2>&1 || bad "runs --all failed"
[[ $(grep -c " FanOutSum.element " "$dir/out") -eq 8 ]] || bad "runs --all does not list 8 claims"
for claim in 0..3 4..7 28..29; do
  grep -q "^$id:sum\[$claim\] .* completed " "$dir/out" || bad "runs --all does not list claim [$claim] completed"
done
grep -Eq "^$id:sum\[[0-9]+\] " "$dir/out" && bad "runs --all lists an element run: claims make none"
if ((fail)); then cat "$dir/out" >&2; fi

element="$id:sum[5]"
"$reactor" --storage "$db" show "$element" >"$dir/show" 2>&1 || bad "show $element failed"
grep -q "^status   completed$" "$dir/show" || bad "show $element is not completed"
grep -q "^element  5 of map $id:sum (owner run $id)$" "$dir/show" || bad "show $element does not name its map and owner"
grep -q "^value    11$" "$dir/show" || bad "show $element has not the value 11"
grep -Eq "^  add +completed +attempts=1" "$dir/show" || bad "show $element does not list its step (its reactor has an undo)"
claim="$id:sum[4..7]"
"$reactor" show "$claim" --storage "$db" >"$dir/claim" 2>&1 || bad "show $claim failed"
grep -q "^claim    elements 4..7 of map $id:sum (owner run $id)$" "$dir/claim" || bad "show $claim does not name its elements, map and owner"
if ((fail)); then cat "$dir/show" "$dir/claim" >&2; fi

rc=0
"$reactor" --storage "$db" show "$id:sum[30]" 2>"$dir/err" >/dev/null || rc=$?
[[ $rc -eq 2 ]] || bad "show of a 31st element exited $rc, expected 2"
for part in "$element" "$claim"; do
  rc=0
  "$reactor" --storage "$db" cancel "$part" 2>"$dir/err" >/dev/null || rc=$?
  [[ $rc -ne 0 ]] || bad "cancel $part succeeded"
  grep -q "act on its run $id" "$dir/err" || { bad "cancel $part does not name run $id:"; cat "$dir/err" >&2; }
done

zero=$(start_background FanOutSum '{"count": 3, "claim": 0}' 2>"$dir/err") || true
if [[ -n $zero ]]; then
  bad "a claim of 0 was accepted: $zero"
else
  grep -q "claim" "$dir/err" || { bad "a claim of 0 is refused without naming it:"; cat "$dir/err" >&2; }
fi

[[ $fail -eq 0 ]] && echo "cli_claims: FanOutSum in claims of 4 sums 900; runs --all lists 8 claims; show reads an element from its slot and names a claim's elements"
exit $fail
