#!/usr/bin/env bash
# Coordination with real processes (issue 25, docs/coordination.md): the probe reactors of
# coordination-cli (tests/integration/coordination_cli.cpp) on worker processes of 1 thread,
# 1 s leases, snoozes of 0.1 s (+ up to 0.1 s). Every body appends "enter|exit <tag> <n> <run>
# <pid> <ms>" to the ledger; this script appends "kill <pid>" after it SIGKILLed (and reaped) a
# worker: that worker's bodies in flight ended there.
#  a. lock: 30 runs of one key, bodies of 50 ms, 3 workers, 3 SIGKILLs of a worker inside a body
#     (each replaced): no two bodies overlap, every run completes, re-executions <= kills (and
#     leases lost on a loaded machine, which the workers log: each re-execution has its cause).
#  b. semaphore of 2: 20 runs, bodies of 150 ms, a holder SIGKILLed: at most 2 bodies at once
#     (and 2 reached), the dead holder's token back within its lease TTL and a sweep, every run
#     completes, and afterwards `locks --json` shows none of its tokens held.
#  c. rate limit of 5 per second: a start every 0.1 s for 3 s: no second of the ledger (windows
#     align on the epoch) holds more than 5 bodies; the refused runs complete later (some body
#     begins over a second after its start).
#  d. a minute's period: 10 concurrent starts in one minute (begun with at least 10 s of it
#     left): 1 completes, 9 halt naming the minute's bucket, the store marks it done by that run.
#  e. an ordered lock: 50 runs started in order, 3 workers, 3 SIGKILLs: bodies in start order
#     exactly (an execution lost with its worker is repeated before the next run's body), each
#     repeat caused by a kill or a lost lease.
#  f. a minute's period, its only run SIGKILLed in its body: the bucket stays unmarked; the run,
#     taken over, completes and marks it; a later start in the bucket halts naming it.
#  g. an ordered lock with a poison pill of 2 s: the head's worker frozen (SIGSTOP) in its body,
#     on workers that do not sweep: the next runs skip it and complete in order; once the frozen
#     worker is SIGKILLed and a sweeping worker takes the head over, it completes too.
#  h. a strict ordered lock: run 2 of 4 fails (planted): run 1 completes, 3 and 4 halt naming the
#     chain and run 2; after `ordered-lock reset` a new run completes.
reactor=$1  # coordination-cli
source "$(dirname "$0")/worker_env.sh"
ulimit -c 0
R() { "$reactor" --storage "$db" "$@"; }
test_started=$SECONDS

: >>"$dir/ledger"
probe_worker() {
  worker --snooze-delay 0.1 --snooze-max-attempts 1000000 \
    --max-interrupted-executions 100 --max-deliveries-without-progress 100
}

# max_open TAG: the most bodies of TAG in flight at once, by the ledger's order.
max_open() {
  awk -v tag="$1" '
    $1 == "kill" { for (k in open) if (open[k] == $2) { delete open[k]; n-- } next }
    $2 != tag { next }
    $1 == "enter" { open[$4 " " $5] = $5; if (++n > max) max = n }
    $1 == "exit" && (($4 " " $5) in open) { delete open[$4 " " $5]; n-- }
    END { print max + 0 }' "$dir/ledger"
}
# open_body TAG: "<pid> <run>" of a body of TAG in flight now, if any.
open_body() {
  awk -v tag="$1" '
    $1 == "kill" { for (k in open) if (open[k] == $2) delete open[k]; next }
    $2 != tag { next }
    $1 == "enter" { open[$4 " " $5] = $5 }
    $1 == "exit" { delete open[$4 " " $5] }
    END { for (k in open) { split(k, f, " "); print f[2], f[1]; exit } }' "$dir/ledger"
}
enters() { awk -v tag="$1" '$1 == "enter" && $2 == tag { n++ } END { print n + 0 }' "$dir/ledger"; }
runs_entered() { awk -v tag="$1" '$1 == "enter" && $2 == tag { print $4 }' "$dir/ledger" | sort -u | wc -l; }
# unexplained TAG: the bodies of TAG executed again with no cause: neither was the process of
# the run's previous body SIGKILLed (a "kill" line after it), nor did that execution lose its
# lease (its worker logged "lease_lost": a lease of 1 s can lapse on a loaded machine, and the
# run is then taken over, fenced, and its step executed again). Prints one line per such body.
unexplained() {
  { grep -o "of run [^ ]* lease_lost" "$dir/worker.log" 2>/dev/null || true; } |
    awk '{ print "lost", $3 }' | cat - "$dir/ledger" |
    awk -v tag="$1" '
      $1 == "lost" { lost[$2] = 1; next }
      $1 == "kill" { killed[$2] = 1; next }
      $1 != "enter" || $2 != tag { next }
      ($4 in last) && !(last[$4] in killed) && !($4 in lost) { print "run", $4, "n", $3, "again in", $5 }
      { last[$4] = $5; delete killed[$5] }'
}
is_worker() { local p; for p in "${pids[@]}"; do [[ $p == "$1" ]] && return 0; done; return 1; }

# kill_in_body TAG: SIGKILLs the worker inside a body of TAG (waiting for one at most 5 s, else
# any worker), notes it in the ledger and starts another worker in its place. Sets victim_run.
kills=0
kill_in_body() {
  local victim="" body
  victim_run=""
  for _ in $(seq 1 500); do
    body=$(open_body "$1")
    if [[ -n $body ]] && is_worker "${body%% *}"; then
      victim=${body%% *} victim_run=${body#* }
      break
    fi
    sleep 0.01
  done
  [[ -n $victim ]] || victim=${pids[$((RANDOM % ${#pids[@]}))]}
  kill_worker "$victim"
  echo "kill $victim" >>"$dir/ledger"
  kills=$((kills + 1))
  probe_worker
}

# statuses REACTOR: "<run> <status>" of its runs.
statuses() {
  R runs --reactor "$1" --limit 100000 --json |
    sed -E 's/.*"id":"([^"]+)".*"status":"([^"]+)".*/\1 \2/'
}
# wait_ended REACTOR COUNT SECONDS: until COUNT of its runs ended (completed, failed, halted).
wait_ended() {
  local deadline=$((SECONDS + $3)) n
  while :; do
    n=$(statuses "$1" | grep -c " completed$\| failed$\| halted$" || true)
    [[ $n -ge $2 ]] && return 0
    ((SECONDS < deadline)) || { bad "$1: only $n of $2 runs ended in $3 s"; return 1; }
    sleep 0.2
  done
}
count_status() { statuses "$1" | grep -c " $2$" || true; }

# --- a. one lock key, 3 SIGKILLs ------------------------------------------------------------
t0=$SECONDS
R start-many LockProbe 30 >"$dir/lock_ids" || { echo "coordination: start-many failed" >&2; exit 1; }
probe_worker; probe_worker; probe_worker
for k in 1 2 3; do
  for _ in $(seq 1 300); do  # bounded: 30 s
    [[ $(enters lock) -ge $((k * 7)) ]] && break
    sleep 0.1
  done
  kill_in_body lock
done
wait_ended LockProbe 30 90
[[ $(max_open lock) -le 1 ]] || bad "lock: $(max_open lock) bodies of one key overlapped"
[[ $(count_status LockProbe completed) -eq 30 ]] ||
  bad "lock: $(count_status LockProbe completed) of 30 runs completed"
again=$(($(enters lock) - $(runs_entered lock)))
[[ -z $(unexplained lock) ]] || bad "lock: bodies executed again with no kill nor lost lease: $(unexplained lock)"
lapsed=$(grep -c "lease_lost" "$dir/worker.log" || true)
((again <= kills + lapsed)) || bad "lock: $again re-executions for $kills kills and $lapsed lost leases"
echo "a. lock: 30 runs, $kills SIGKILLs, $again re-executed ($lapsed leases lost in all), at most $(max_open lock) body at once ($((SECONDS - t0)) s)"

# --- b. a semaphore of 2, a holder SIGKILLed ------------------------------------------------
t0=$SECONDS
R start-many SemaphoreProbe 20 --ms 150 >"$dir/sem_ids"
for _ in $(seq 1 300); do
  [[ $(enters sem) -ge 6 ]] && break
  sleep 0.1
done
kill_in_body sem
killed_at=$SECONDS
back=""
if [[ -n $victim_run ]]; then
  for _ in $(seq 1 50); do  # bounded: 5 s (lease TTL 1 s + sweep 1 s, with room)
    held=$(R locks --json | jq -r '.holds[] | select(.key == "probe-sem") | .holders[]')
    if ! grep -qx "$victim_run" <<<"$held"; then
      back=$((SECONDS - killed_at))
      break
    fi
    sleep 0.1
  done
  [[ -n $back ]] || bad "sem: the SIGKILLed holder $victim_run still held its token after 5 s"
else
  bad "sem: no body in flight to kill"
fi
wait_ended SemaphoreProbe 20 90
[[ $(max_open sem) -le 2 ]] || bad "sem: $(max_open sem) bodies at once under a limit of 2"
[[ $(max_open sem) -eq 2 ]] || bad "sem: never 2 bodies at once ($(max_open sem)): the test saw no contention"
[[ $(count_status SemaphoreProbe completed) -eq 20 ]] ||
  bad "sem: $(count_status SemaphoreProbe completed) of 20 runs completed"
R locks --json >"$dir/locks.json"
held=$(jq '[.holds[] | select(.key == "probe-sem") | .held] | add // 0' "$dir/locks.json")
[[ $held -eq 0 ]] || bad "sem: $held tokens still held after every run ended: $(cat "$dir/locks.json")"

echo "b. semaphore: 20 runs, at most $(max_open sem) at once, the killed holder's token back within ${back:-?} s, 0 held after ($((SECONDS - t0)) s)"

# --- c. a rate limit of 5 per second --------------------------------------------------------
t0=$SECONDS
R start-many RateProbe 30 --ms 20 --every 100 >"$dir/rate_starts"  # "<run> <n> <ms>"
wait_ended RateProbe 30 90
busiest=$(awk '$1 == "enter" && $2 == "rate" { n[int($6 / 1000)]++ }
  END { for (s in n) if (n[s] > max) max = n[s]; print max + 0 }' "$dir/ledger")
[[ $busiest -le 5 ]] || bad "rate: $busiest bodies in one second under a limit of 5/s"
[[ $(count_status RateProbe completed) -eq 30 ]] ||
  bad "rate: $(count_status RateProbe completed) of 30 runs completed"
# Refused runs ran later: bodies that began over a second after their start.
late=$(awk 'FNR == NR { start[$2] = $3; next }
  $1 == "enter" && $2 == "rate" && !($3 in seen) { seen[$3] = 1; if ($6 - start[$3] > 1000) n++ }
  END { print n + 0 }' "$dir/rate_starts" "$dir/ledger")
[[ $late -gt 0 ]] || bad "rate: no run was held back ($(runs_entered rate) ran)"
starts_s=$(awk 'NR == 1 { a = $3 } { b = $3 } END { printf "%.1f", (b - a) / 1000 }' "$dir/rate_starts")
echo "c. rate limit: 30 starts over $starts_s s, at most $busiest bodies in a second, $late held back over 1 s, all completed ($((SECONDS - t0)) s)"

# --- d. a minute's period -------------------------------------------------------------------
t0=$SECONDS
sec=$((10#$(date +%S)))
if ((sec >= 50)); then sleep $((61 - sec)); fi  # at least 10 s of the minute left
bucket=$(date -u +%Y-%m-%dT%H:%M)
starts=()
for n in $(seq 1 10); do
  R start PeriodProbe --input "{\"n\": $n, \"ms\": 300}" --background >>"$dir/period_ids" &
  starts+=($!)
done
for p in "${starts[@]}"; do wait "$p" || bad "period: a start failed"; done
wait_ended PeriodProbe 10 60
[[ $(count_status PeriodProbe completed) -eq 1 ]] ||
  bad "period: $(count_status PeriodProbe completed) runs completed in one minute, expected 1"
[[ $(count_status PeriodProbe halted) -eq 9 ]] ||
  bad "period: $(count_status PeriodProbe halted) runs halted, expected 9"
[[ $(enters period) -eq 1 ]] || bad "period: $(enters period) bodies ran, expected 1"
done_by=$(statuses PeriodProbe | awk '$2 == "completed" { print $1 }')
for id in $(statuses PeriodProbe | awk '$2 == "halted" { print $1 }'); do
  value=$(R show "$id" --json | jq -c .value)
  [[ $value == *"\"key\":\"PeriodProbe@$bucket\""* && $value == *"\"completed_by\":\"$done_by\""* ]] ||
    bad "period: $id does not halt naming the bucket PeriodProbe@$bucket and $done_by: $value"
done
marked=$(R locks --json | jq -r --arg m "PeriodProbe@$bucket" '.periods[] | select(.mark == $m) | .run_id')
[[ $marked == "$done_by" ]] ||
  bad "period: the store marks PeriodProbe@$bucket done by '$marked', not by $done_by"
echo "d. period: 10 starts in the minute $bucket, 1 completed, $(count_status PeriodProbe halted) halted naming it ($((SECONDS - t0)) s)"

# --- e. an ordered lock, 3 SIGKILLs ---------------------------------------------------------
t0=$SECONDS
kills=0
R start-many OrderedProbe 50 --ms 50 >"$dir/ordered_ids"
for k in 1 2 3; do
  for _ in $(seq 1 300); do
    [[ $(enters ordered) -ge $((k * 12)) ]] && break
    sleep 0.1
  done
  kill_in_body ordered
done
wait_ended OrderedProbe 50 120
# The order of first bodies, a body executed again (after a kill) right after its first counted
# once: exactly 1..50.
order=$(awk '$1 == "enter" && $2 == "ordered" && $3 != last { printf "%s ", $3; last = $3 }' "$dir/ledger")
[[ $order == "$(seq -s ' ' 1 50) " ]] || bad "ordered: bodies out of start order: $order"
[[ $(max_open ordered) -le 1 ]] || bad "ordered: $(max_open ordered) bodies of the chain at once"
[[ $(count_status OrderedProbe completed) -eq 50 ]] ||
  bad "ordered: $(count_status OrderedProbe completed) of 50 runs completed"
again=$(($(enters ordered) - $(runs_entered ordered)))
[[ -z $(unexplained ordered) ]] ||
  bad "ordered: bodies executed again with no kill nor lost lease: $(unexplained ordered)"
echo "e. ordered lock: 50 runs in start order, $kills SIGKILLs, $again re-executed ($((SECONDS - t0)) s)"

# --- f. a minute's period, its run SIGKILLed ------------------------------------------------
t0=$SECONDS
sec=$((10#$(date +%S)))
if ((sec >= 40)); then sleep $((61 - sec)); fi  # at least 20 s of the minute left
bucket=$(date -u +%Y-%m-%dT%H:%M)
mark="PeriodRetryProbe@$bucket"
marked_by() { R locks --json | jq -r --arg m "$1" '.periods[] | select(.mark == $m) | .run_id'; }
first=$(R start PeriodRetryProbe --input '{"n": 1, "ms": 2000}' --background)
kill_in_body period-retry
[[ $victim_run == "$first" ]] || bad "period-retry: killed '$victim_run' in no body of $first"
[[ -z $(marked_by "$mark") ]] || bad "period-retry: $mark marked by a run killed mid-way"
wait_ended PeriodRetryProbe 1 30
[[ $(count_status PeriodRetryProbe completed) -eq 1 ]] ||
  bad "period-retry: the killed run did not complete: $(statuses PeriodRetryProbe)"
[[ $(enters period-retry) -eq 2 ]] || bad "period-retry: $(enters period-retry) bodies, expected 2"
[[ $(marked_by "$mark") == "$first" ]] || bad "period-retry: $mark marked by '$(marked_by "$mark")'"
second=$(R start PeriodRetryProbe --input '{"n": 2}' --background)
wait_ended PeriodRetryProbe 2 30
value=$(R show "$second" --json | jq -c '[.status, .value.key]')
[[ $value == "[\"halted\",\"$mark\"]" ]] || bad "period-retry: a second start in $mark: $value"
echo "f. period: the run killed in its body left $mark unmarked, completed when taken over and marked it; a second start halted ($((SECONDS - t0)) s)"

# --- g. an ordered lock's poison pill: the head frozen ----------------------------------------
t0=$SECONDS
for p in "${pids[@]}"; do stop_worker "$p" TERM; done
# No sweeps: the frozen head's run is not taken over (nor its job delivered again) meanwhile.
for _ in 1 2; do sweep_interval=600 probe_worker --visibility-timeout 600; done
R start-many StaleProbe 3 --ms 1000 >"$dir/stale_ids"
head_run=$(awk '$2 == 1 { print $1 }' "$dir/stale_ids")
frozen=""
for _ in $(seq 1 300); do
  body=$(open_body stale)
  if [[ -n $body && ${body#* } == "$head_run" ]]; then frozen=${body%% *}; break; fi
  sleep 0.01
done
[[ -n $frozen ]] || { bad "stale: the head never entered its body"; frozen=${pids[0]}; }
freeze_worker "$frozen" || bad "stale: could not freeze $frozen outside a write"
wait_ended StaleProbe 2 30
order=$(awk '$1 == "enter" && $2 == "stale" { printf "%s ", $3 }' "$dir/ledger")
[[ $order == "1 2 3 " ]] || bad "stale: bodies '$order', expected the head then 2 and 3"
[[ $(statuses StaleProbe | awk -v r="$head_run" '$1 == r { print $2 }') == running ]] ||
  bad "stale: the frozen head is not running: $(statuses StaleProbe)"
[[ $(count_status StaleProbe completed) -eq 2 ]] ||
  bad "stale: the runs behind the frozen head: $(statuses StaleProbe)"
skipped_after=$((SECONDS - t0))
kill_worker "$frozen"
echo "kill $frozen" >>"$dir/ledger"
probe_worker
wait_ended StaleProbe 3 30
[[ $(count_status StaleProbe completed) -eq 3 ]] ||
  bad "stale: the head taken over did not complete: $(statuses StaleProbe)"
echo "g. ordered lock: the head frozen in its body, runs 2 and 3 skipped it and completed within ${skipped_after} s; the head completed once taken over ($((SECONDS - t0)) s)"

# --- h. a strict ordered lock, a planted failure -------------------------------------------------
t0=$SECONDS
for p in "${pids[@]}"; do stop_worker "$p" TERM; done
probe_worker; probe_worker; probe_worker
strict_ids=()
for n in 1 2 3 4; do
  planted=false  # ($fail is the test's verdict)
  [[ $n -eq 2 ]] && planted=true
  strict_ids+=("$(R start StrictProbe --input "{\"n\": $n, \"fail\": $planted}" --background)")
done
wait_ended StrictProbe 4 60
status_of() { R show "$1" --json | jq -r .status; }
[[ $(status_of "${strict_ids[0]}") == completed ]] || bad "strict: run 1 $(status_of "${strict_ids[0]}")"
[[ $(status_of "${strict_ids[1]}") == failed ]] || bad "strict: run 2 $(status_of "${strict_ids[1]}")"
for id in "${strict_ids[@]:2}"; do
  value=$(R show "$id" --json | jq -c '[.status, .value.reason, .value.key, .value.failed_run]')
  [[ $value == "[\"halted\",\"ordered_lock_chain_failed\",\"probe-strict\",\"${strict_ids[1]}\"]" ]] ||
    bad "strict: $id after the failed run 2: $value"
done
[[ $(enters strict) -eq 2 ]] || bad "strict: $(enters strict) bodies ran, expected runs 1 and 2"
R ordered-lock reset probe-strict >/dev/null || bad "strict: ordered-lock reset failed"
after=$(R start StrictProbe --input '{"n": 5}' --background)
wait_ended StrictProbe 5 30
[[ $(status_of "$after") == completed ]] || bad "strict: a run after the reset $(status_of "$after")"
echo "h. strict ordered lock: run 2 failed, runs 3 and 4 halted naming it; after a reset run 5 completed ($((SECONDS - t0)) s)"

for p in "${pids[@]}"; do stop_worker "$p" TERM; done
# COORDINATION_KEEP=DIR: the ledger, the worker log (and a SQLite store) are copied there.
if [[ -n ${COORDINATION_KEEP:-} ]]; then cp "$dir"/ledger "$dir"/worker.log "$dir"/runs.db* "$COORDINATION_KEEP/" 2>/dev/null || true; fi
[[ $fail -eq 0 ]] && echo "coordination: all eight scenarios held ($((SECONDS - test_started)) s)"
exit $fail
