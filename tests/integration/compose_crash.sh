#!/usr/bin/env bash
# Crash inside a composed child, with real processes: GiftOrder is reserve →
# shipment (a composed Shipment: pack → label → dispatch) → notify. A worker
# is killed with SIGKILL inside the child's 2nd step (label); a new worker
# resumes the run at label, not at the child's start: the ledger shows pack
# once, label started twice and finished once, dispatch once, the parent's
# steps once, nothing undone, and the run completed.
reactor=$1
source "$(dirname "$0")/worker_env.sh"

id=$(start_background GiftOrder '{"order_id": 7, "recipient": "Ada"}')
worker
victim=${pids[0]}
wait_started "$id:shipment/label" || { echo "compose_crash: label never started" >&2; exit 1; }
kill_worker "$victim"
worker
wait_completed "$id" || { echo "compose_crash: the run did not complete" >&2; exit 1; }
"$reactor" --storage "$db" show "$id"

fail=0
check() {  # kind step expected
  local got; got=$(count "$1" "$id:$2")
  if [[ $got -ne $3 ]]; then echo "compose_crash: $1 $2 ran $got times, expected $3" >&2; fail=1; fi
}
check S reserve 1;           check E reserve 1
check S shipment/pack 1;     check E shipment/pack 1
check S shipment/label 2;    check E shipment/label 1
check S shipment/dispatch 1; check E shipment/dispatch 1
check S notify 1;            check E notify 1
[[ $(grep -c "^[CU] " "$dir/ledger") -eq 0 ]] || { echo "compose_crash: something was undone" >&2; fail=1; }
[[ $fail -eq 0 ]] &&
  echo "compose_crash: resumed inside the child at label after SIGKILL; every other step ran once"
exit $fail
