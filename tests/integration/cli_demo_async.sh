#!/usr/bin/env bash
# `reactor demo --async`: AsyncOrder runs handed off after charge to two worker processes.
# Bounded (90 s); it must exit 0, say every good order completed with its invoice and the
# declined one failed without a hand-off, that reserve and charge ran in the caller and the rest
# in workers, and that no step started twice; `show` of a run it names lists its units.
set -euo pipefail
reactor=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail=0
bad() {
  echo "cli_demo_async: $*" >&2
  fail=1
}

rc=0
# Its store goes under $TMPDIR: this test's own directory, removed afterwards.
TMPDIR=$dir timeout 90 "$reactor" demo --async >"$dir/out" 2>&1 || rc=$?
[[ $rc -eq 0 ]] || bad "demo --async exited $rc"
[[ $(grep -c "running  ran reserve, charge; handed off after charge$" "$dir/out") -eq 3 ]] ||
  bad "demo --async did not hand off the three good orders after charge"
grep -q "^order 10  failed   ran reserve, charge; compensated charge; undid reserve$" "$dir/out" ||
  bad "demo --async's order 10 was not declined in the caller"
[[ $(grep -c ": completed$" "$dir/out") -eq 3 ]] || bad "demo --async: three orders did not complete"
[[ $(grep -c '"invoice_id":"inv-' "$dir/out") -eq 3 ]] || bad "demo --async: the invoices are not in the values"
[[ $(grep -c "^  charge  *here (the caller)$" "$dir/out") -eq 4 ]] || bad "demo --async: charge did not run in the caller"
[[ $(grep -c "^  invoice\[0\]/store  *worker [0-9]*$" "$dir/out") -eq 3 ]] || bad "demo --async: Invoice did not run in a worker"
grep -q "^steps started more than once: 0; ended otherwise than expected: 0$" "$dir/out" ||
  bad "demo --async reports steps started twice or runs ended otherwise"

show=$(sed -n 's/^a run, its units and where each step ran: reactor //p' "$dir/out")
if [[ -n $show ]]; then
  # shellcheck disable=SC2086
  "$reactor" $show >"$dir/show" 2>&1 || bad "reactor $show failed"
  grep -Eq "^  invoice +completed +run=.*:invoice\[0\] on=" "$dir/show" || bad "show does not list the child invoice"
else
  bad "demo --async does not say how to show a run"
fi
if ((fail)); then cat "$dir/out" >&2; fi
[[ $fail -eq 0 ]] && echo "cli_demo_async: 3 orders handed off and completed with their invoices, order 10 declined in the caller, no step twice"
exit $fail
