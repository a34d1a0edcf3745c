#!/usr/bin/env bash
# `reactor demo --map`: 2,000 elements of a FanOutSum on two worker processes, one SIGKILLed
# mid-map. Bounded (90 s); it must report the sum 2,000² = 4,000,000, the kill, and a live
# progress line that reached 2,000/2,000; and `show` of its run prints the settled map.
set -euo pipefail
reactor=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail=0
bad() {
  echo "cli_demo_map: $*" >&2
  fail=1
}

rc=0
# Its store goes under $TMPDIR: this test's own directory, removed afterwards.
TMPDIR=$dir timeout 90 "$reactor" demo --map >"$dir/out" 2>&1 || rc=$?
[[ $rc -eq 0 ]] || bad "demo --map exited $rc"
grep -q "^sum: 4,000,000 (expected 2,000² = 4,000,000: right)$" "$dir/out" || bad "demo --map does not report the sum 4,000,000"
grep -q "SIGKILL sent to a worker mid-map" "$dir/out" || bad "demo --map killed no worker"
grep -q "done 2,000/2,000  in flight   0  failed 0  rolled back 0  settled" "$dir/out" ||
  bad "demo --map's progress line did not reach 2,000/2,000 settled"
grep -q "^ledger: element steps started again after the kill: [0-4] " "$dir/out" ||
  bad "demo --map does not say what the ledger shows"
# The trace: the map dispatched then collected, and between them the element executions lost
# with the killed worker — at least those the ledger shows started again.
trace=$(sed -n 's/^trace: //p' "$dir/out")
[[ $trace =~ ^dispatched\ sum\;\ (lost\ [^\;]*\;\ )?ran\ sum$ ]] ||
  bad "demo --map's trace does not read 'dispatched sum; [lost …; ]ran sum'"
restarted=$(sed -n 's/^ledger: element steps started again after the kill: \([0-9]*\) .*/\1/p' "$dir/out")
lost=$(grep -o 'sum\[[0-9]*\]/add' <<<"$trace" | wc -l)
((lost >= ${restarted:-0})) || bad "the trace lists $lost lost executions, the ledger $restarted started again"

# The store it leaves, as it says to inspect it.
show=$(sed -n 's/^the run and its map: //p' "$dir/out")
if [[ -n $show ]]; then
  # shellcheck disable=SC2086
  "$reactor" ${show#reactor } >"$dir/show" 2>&1 || bad "$show failed"
  grep -Eq "^  sum +settled +total=2000 done=2000 failed=0 in_flight=0" "$dir/show" ||
    { bad "$show does not print the settled map:"; cat "$dir/show" >&2; }
else
  bad "demo --map does not say how to show its run"
fi
if ((fail)); then cat "$dir/out" >&2; fi
[[ $fail -eq 0 ]] && echo "cli_demo_map: 2,000 elements summed to 4,000,000 through a SIGKILL"
exit $fail
