#!/usr/bin/env bash
# Periodic and scheduled starts with real processes (docs/schedules.md).
#  1. A schedule of a 1 s period fired by three worker processes at once: ten periods in a row
#     give exactly ten runs — one per period, none missing between the first and the last, none
#     executed twice (the ledger: each run's first step started once).
#  2. `start --in 3s`: the run is `scheduled`; a job for it delivered at once (`reactor
#     enqueue`) is put back, and the run starts only when due, once. `--at` stores a run
#     scheduled; bad values of either are usage errors.
reactor=$1
source "$(dirname "$0")/worker_env.sh"
export REACTOR_DEMO_STEP_MS=20
R() { "$reactor" --storage "$db" "$@"; }

# The store made, the schedule's period added; then three workers fire it.
R schedules --add tick --reactor OrderSaga --every 1s --inputs '{"order_id": 1, "amount": 5}' \
  >"$dir/added" || { echo "schedule_workers: --add failed" >&2; exit 1; }
grep -q "^tick .*OrderSaga .*every 1s .*fire_once" "$dir/added" ||
  { echo "schedule_workers: the listing does not show the schedule:" >&2; cat "$dir/added" >&2; exit 1; }
worker; worker; worker

# tick_ids: the runs of the schedule, by period.
tick_ids() { R runs --reactor OrderSaga --limit 100000 --json | grep -o '"id":"tick@[^"]*"' |
  sed -E 's/"id":"(.*)"/\1/' | sort; }
for _ in $(seq 1 300); do  # bounded: 30 s
  [[ $(tick_ids | wc -l) -ge 11 ]] && break
  sleep 0.1
done
for p in "${pids[@]}"; do stop_worker "$p" TERM; done
tick_ids >"$dir/ticks"
n=$(wc -l <"$dir/ticks")
[[ $n -ge 11 ]] || { echo "schedule_workers: only $n runs of the schedule in 30 s" >&2; exit 1; }

# No gap: every period from the first to the last has its run, one each (ids are unique by
# construction; a second run of a period would be a second execution under the same id).
# epoch ID: the Unix seconds of a run id's period ("tick@20261203T190000Z", ISO 8601 basic).
epoch() { date -u -d "$(sed -E 's/^tick@(....)(..)(..)T(..)(..)(..)Z$/\1-\2-\3 \4:\5:\6/' <<<"$1")" +%s; }
first=$(head -1 "$dir/ticks"); last=$(tail -1 "$dir/ticks")
span=$(($(epoch "$last") - $(epoch "$first") + 1))
[[ $span -eq $n ]] || bad "$n runs for the $span periods from $first to $last: a gap"
# Ten periods in a row, from the first: exactly ten runs, each started once, all completed.
t0=$(epoch "$first")
for k in $(seq 0 9); do
  id="tick@$(date -u -d "@$((t0 + k))" +%Y%m%dT%H%M%SZ)"
  grep -qx "$id" "$dir/ticks" || bad "no run for period $id"
  [[ $(count S "$id:reserve") -eq 1 ]] || bad "$id: reserve started $(count S "$id:reserve") times"
  [[ $(status_of "$id") == completed ]] || bad "$id is $(status_of "$id"), not completed"
done
[[ $(grep -c "^tick@" "$dir/ticks") -eq $n ]] || bad "unexpected ids"
# (A run of the last periods may have been in flight when the workers stopped: handed back,
# not completed. The ten above must be.)
R schedules >"$dir/listed"
last_text=$(date -u -d "@$(epoch "$last")" +%Y-%m-%dT%H:%M:%SZ)
grep -q "^tick .*$last_text" "$dir/listed" || { bad "the listing's last fired is not $last_text"; cat "$dir/listed" >&2; }

# 2. A scheduled start, delivered early by hand: put back until due.
R schedules --add tick --reactor OrderSaga --cron "0 0 1 1 *" \
  --inputs '{"order_id": 1, "amount": 5}' >/dev/null  # quiet from now on
id=$(R start OrderSaga --input '{"order_id": 2, "amount": 5}' --in 3s)
[[ $(status_of "$id") == scheduled ]] || bad "start --in 3s: $(status_of "$id"), not scheduled"
R runs --status scheduled | grep -q "$id" || bad "runs --status scheduled does not list $id"
R enqueue "$id" >/dev/null
worker
sleep 1
[[ $(status_of "$id") == scheduled ]] || bad "an early delivery started the run: $(status_of "$id")"
[[ $(count S "$id:reserve") -eq 0 ]] || bad "an early delivery ran reserve"
wait_completed "$id" || bad "the scheduled run did not complete once due"
[[ $(count S "$id:reserve") -eq 1 ]] || bad "reserve of the scheduled run started $(count S "$id:reserve") times"
# --at: stored scheduled, its status in --json; listed by `schedules --json`.
at=$(R start OrderSaga --input '{"order_id": 3, "amount": 5}' --at 2099-01-01T00:00:00Z --json)
grep -q '"status":"scheduled"' <<<"$at" || bad "start --at --json: $at"
listed=$(R schedules --json)
grep -q '"cron":"0 0 1 1 \*"' <<<"$listed" && grep -q '"name":"tick"' <<<"$listed" ||
  bad "schedules --json: $listed"
refused "--in bad" "is no delay" --storage "$db" start OrderSaga --in 10x
refused "--at bad" "is no ISO 8601 time" --storage "$db" start OrderSaga --at yesterday

[[ $fail -eq 0 ]] &&
  echo "schedule_workers: three workers, $n periods, $n runs, each once; a scheduled start waited"
exit $fail
