#!/usr/bin/env bash
# AsyncOrder on the command line (docs/async.md): `reactor start AsyncOrder` runs reserve and
# charge in this process, hands the rest off and prints the run id; a worker process runs ship,
# the unit notify (nobody reads it) and the child Invoice (render → store) that close reads.
# The ledger says where each step ran (its pid) and that each ran once; `show` lists the units
# under the run and where each step ran, and a unit's run names its parent. An order whose id
# is a multiple of 10 is declined at charge, in the caller: failed, compensated, no hand-off.
reactor=$1
source "$(dirname "$0")/worker_env.sh"

# Inputs from a file, the option after the command.
echo '{"order_id": 7, "amount": 300, "step_ms": 10}' >"$dir/order.json"
"$reactor" start AsyncOrder --input "@$dir/order.json" --storage "$db" >"$dir/start" 2>&1 ||
  { bad "start AsyncOrder failed"; cat "$dir/start" >&2; }
id=$(awk '/^run / { sub(":", "", $2); print $2 }' "$dir/start")
[[ -n $id ]] || bad "start AsyncOrder printed no run id"
grep -q "^run $id: running$" "$dir/start" || bad "start does not say the run goes on"
grep -q "handed off after charge" "$dir/start" || bad "start does not say it handed off after charge"
caller=$(awk -v k="$id:charge" '$1 == "E" && $2 == k { print $3 }' "$dir/ledger")
[[ -n $caller ]] || bad "charge did not run in the caller"
[[ $(count S "$id:ship") -eq 0 ]] || bad "ship ran in the caller"

worker
wait_completed "$id" || { bad "AsyncOrder $id did not complete"; "$reactor" --storage "$db" show "$id" >&2; }
wpid=${pids[0]}
# Once each, and where: reserve and charge in the caller, the rest in the worker.
for step in reserve charge; do
  [[ $(count E "$id:$step" "$caller") -eq 1 ]] || bad "$step did not run once in the caller"
done
for key in ship "notify[0]/notify" "invoice[0]/render" "invoice[0]/store" close; do
  [[ $(count S "$id:$key") -eq 1 ]] || bad "$key did not start once"
  [[ $(count E "$id:$key" "$wpid") -eq 1 ]] || bad "$key did not run in the worker ($wpid)"
done

"$reactor" --storage "$db" show "$id" >"$dir/show" 2>&1 || bad "show $id failed"
grep -q '^value    {"invoice":{"amount":300,"invoice_id":"inv-7","pdf":"invoice-7.pdf"},"parcel":"parcel-7"}$' "$dir/show" ||
  bad "show $id has not close's value"
grep -Eq "^  charge +completed +attempts=1 on=.*:$caller$" "$dir/show" || bad "show does not say charge ran in the caller"
grep -Eq "^  ship +completed +attempts=1 on=.*:$wpid$" "$dir/show" || bad "show does not say ship ran in the worker"
grep -q "^units$" "$dir/show" || bad "show $id has no units section"
grep -Eq "^  notify +completed +run=$id:notify\[0\] on=.*:$wpid$" "$dir/show" || bad "show does not list the unit notify"
grep -Eq "^  invoice +completed +run=$id:invoice\[0\] on=.*:$wpid$" "$dir/show" || bad "show does not list the child invoice"
grep -q "^trace    ran reserve, charge; handed off after charge; ran ship; dispatched notify, invoice;" "$dir/show" ||
  bad "show $id: the trace does not say where it handed off and what it dispatched"
if ((fail)); then cat "$dir/show" >&2; fi
"$reactor" --storage "$db" show "$id:invoice[0]" >"$dir/child" 2>&1 || bad "show of the child failed"
grep -q "^reactor  Invoice$" "$dir/child" || bad "show of the child does not name Invoice"
grep -q "^unit of  run $id (step invoice)$" "$dir/child" || bad "show of the child does not name its parent"
"$reactor" --storage "$db" show "$id" --json | tr -d ' \n' >"$dir/flat.json"
grep -q "\"units\":\[{\"reactor\":\"AsyncOrder.notify\",\"run_id\":\"$id:notify\[0\]\",\"status\":\"completed\",\"step\":\"notify\"}" "$dir/flat.json" ||
  bad "show --json has no units naming notify's run"

# Declined in the caller: failed, charge compensated and reserve undone there, nothing handed off.
rc=0
"$reactor" --storage "$db" start AsyncOrder --input '{"order_id": 10, "amount": 300}' >"$dir/declined" 2>&1 || rc=$?
[[ $rc -eq 1 ]] || bad "a declined AsyncOrder exited $rc, expected 1"
declined=$(awk '/^run / { sub(":", "", $2); print $2 }' "$dir/declined")
grep -q "^run $declined: failed$" "$dir/declined" || bad "a declined AsyncOrder did not fail"
grep -q "handed off" "$dir/declined" && bad "a declined AsyncOrder was handed off"
[[ $(count C "$declined:charge") -eq 1 ]] || bad "the declined charge was not compensated once"
[[ $(count U "$declined:reserve") -eq 1 ]] || bad "the declined order's reserve was not undone once"
[[ $(count S "$declined:ship") -eq 0 ]] || bad "the declined order shipped"

[[ $fail -eq 0 ]] && echo "cli_async: AsyncOrder hands off after charge; ship, notify and Invoice run once in the worker; show lists the units and where each step ran"
exit $fail
