#!/usr/bin/env bash
# A Redis crash under load, with real processes: the test starts its own redis-server (AOF,
# appendfsync always), two workers of 16 threads each and 200 background OrderSagas (order ids
# 1..200; the 20 multiples of 10 are declined at charge and compensated). Once at least 20 runs
# are inside a step, redis-server is killed with SIGKILL, kept down for 7 s — longer than the
# client's reconnect budget (5 s), so calls in flight fail with Unavailable instead of merely
# waiting: executions stop at their last confirmed checkpoint, fetches and sweeps fail — and
# restarted on the same port from its data directory. Then:
#   - the precondition is checked, loudly: at least 20 runs had a step in flight across the kill
#     (an S without its E in the ledger both just before and just after it);
#   - both workers are still alive, and each ran steps after the restart (they reconnected);
#   - no run lost: 200 runs stored, each ended as the example says;
#   - no completed step lost: every step with an E in the ledger of a completed run has a
#     completed step record (`reactor show --json`); a declined order's reserve is undone and
#     its charge compensated;
#   - each step body started at most twice (re-run at most once, by the execution that took over
#     a run whose checkpoint the crash cut off), and in all no more re-runs than runs in flight
#     at the kill; each compensation at most twice; nothing compensated for a completed run.
# RESTART_STEP_MS (800), RESTART_DOWN_S (7; 2 keeps it within the reconnect budget, where calls
# are resent and nothing re-runs) and RESTART_THREADS (16) change the scenario.
reactor=$1
source "$(dirname "$0")/worker_env.sh"
launcher="$(cd "$(dirname "$0")/../support" && pwd)/redis_server.sh"
redis_dir=$dir/redis
cleanup_steps+=("bash '$launcher' stop '$redis_dir'")
bash "$launcher" start "$redis_dir" --appendfsync always
use_store "$(cat "$redis_dir/url")?prefix=restart/"

export REACTOR_DEMO_STEP_MS=${RESTART_STEP_MS:-800}
worker_threads=${RESTART_THREADS:-16}
down_s=${RESTART_DOWN_S:-7}
orders=200 min_in_flight=20
deadline=$((SECONDS + 240))

started_at=$SECONDS
for order in $(seq 1 $orders); do
  echo "$order $(start_order "$order")"
done >"$dir/orders"
echo "redis_restart: $orders runs started in $((SECONDS - started_at)) s"
worker; worker
workers=("${pids[@]}")

# in_flight LEDGER...: the step keys started and not ended in every one of these ledgers.
in_flight() {
  awk 'FNR == 1 { file++ }
       $1 == "S" { open[file, $2]++ } $1 == "E" { open[file, $2]-- }
       END { for (k in open) { split(k, fk, SUBSEP)
               if (fk[1] == 1 && open[k] > 0) { all = 1
                 for (f = 2; f <= file; f++) if (open[f, fk[2]] <= 0) all = 0
                 if (all) print fk[2] } } }' "$@"
}
runs_of() { sed 's/:.*//' | sort -u; }

# Until the workers are busy: every thread inside a step, or nearly (bounded).
target=$((2 * worker_threads * 3 / 4))
((target >= min_in_flight)) || target=$min_in_flight
for _ in $(seq 1 600); do
  [[ -s $dir/ledger && $(in_flight "$dir/ledger" | runs_of | wc -l) -ge $target ]] && break
  sleep 0.1
done
cp "$dir/ledger" "$dir/ledger.before-kill"
bash "$launcher" kill9 "$redis_dir"
cp "$dir/ledger" "$dir/ledger.after-kill"
killed_at=$SECONDS
in_flight "$dir/ledger.before-kill" "$dir/ledger.after-kill" | runs_of >"$dir/in-flight"
mid_step=$(wc -l <"$dir/in-flight")
# Runs started and not ended at the kill (in a step, between two, or compensating): re-runs can
# only be theirs. A run's last side effect is its ship, or a declined order's reserve undone.
open_runs=$(awk 'FILENAME == ARGV[1] { last[$2] = $1 % 10 == 0 ? "U" : "E"; next }
     { split($2, k, ":") }
     $1 == "S" { open[k[1]] = 1 }
     ($1 == "E" && k[2] == "ship") || ($1 == "U" && k[2] == "reserve") {
       if (last[k[1]] == $1) delete open[k[1]] }
     END { n = 0; for (r in open) n++; print n }' "$dir/orders" "$dir/ledger.after-kill")
if ((mid_step < min_in_flight)); then
  echo "redis_restart: PRECONDITION FAILED: only $mid_step runs were inside a step at the kill," \
    "expected at least $min_in_flight; the test proves nothing like this (raise RESTART_STEP_MS" \
    "or RESTART_THREADS)" >&2
  exit 1
fi
echo "redis_restart: redis-server killed with $mid_step runs inside a step ($open_runs unfinished)"

sleep "$down_s"
fail=0
for w in "${workers[@]}"; do
  kill -0 "$w" 2>/dev/null || { echo "redis_restart: worker $w died while Redis was down" >&2; fail=1; }
done
bash "$launcher" restart "$redis_dir"
restarted_lines=$(wc -l <"$dir/ledger")
echo "redis_restart: redis-server restarted after $((SECONDS - killed_at)) s"

wait_all_ended redis_restart "$orders" "$deadline" || exit 1
ended_after=$((SECONDS - killed_at))

for w in "${workers[@]}"; do
  kill -0 "$w" 2>/dev/null || { echo "redis_restart: worker $w died" >&2; fail=1; continue; }
  ran=$(tail -n +$((restarted_lines + 1)) "$dir/ledger" | awk -v w="$w" '$3 == w' | wc -l)
  ((ran > 0)) || { echo "redis_restart: worker $w ran no step after the restart" >&2; fail=1; }
done

# Every run's step records, as `reactor show --json` reads them: run id, step, status.
while read -r _ run; do
  "$reactor" --storage "$db" show "$run" --json |
    jq -r --arg run "$run" '.steps[] | "\($run) \(.step) \(.status)"'
done <"$dir/orders" >"$dir/records"

awk -v orders="$orders" -v mid="$mid_step" -v open_runs="$open_runs" -v down="$down_s" \
    -v took="$ended_after" '
  function err(m) { print "redis_restart: " m > "/dev/stderr"; bad++ }
  FILENAME == ARGV[1] { order[$2] = $1; next }              # order id, run id
  FILENAME == ARGV[2] { status[$1] = $2; stored++; next }   # run id, status
  FILENAME == ARGV[3] { record[$1 ":" $2] = $3; next }      # run id, step, record status
  FILENAME == ARGV[4] { hit[$1] = 1; next }                 # runs inside a step at the kill
  {                                                         # ledger: kind, key, pid
    n[$1, $2]++
    if ($1 == "E") ended_steps[$2] = 1
  }
  END {
    if (stored != orders) err(stored " runs stored, expected " orders)
    for (run in order) {
      declined = order[run] % 10 == 0
      want = declined ? "failed" : "completed"
      if (status[run] != want) err("order " order[run] " is " status[run] ", expected " want)
      split(declined ? "reserve charge" : "reserve charge ship", steps, " ")
      for (i in steps) {
        k = run ":" steps[i]
        if (n["E", k] < 1) err("order " order[run] ": " steps[i] " never finished")
        starts = n["S", k]
        if (starts > 2) err("order " order[run] ": " steps[i] " started " starts " times")
        if (starts > 1) { extra += starts - 1; rerun_runs[run] = 1 }
        if (starts > max_starts) max_starts = starts
      }
      if (declined) {
        if (n["S", run ":ship"]) err("order " order[run] ": a declined order shipped")
        if (record[run ":reserve"] != "undone")
          err("order " order[run] ": reserve is " record[run ":reserve"] ", expected undone")
        if (record[run ":charge"] != "compensated")
          err("order " order[run] ": charge is " record[run ":charge"] ", expected compensated")
        c = n["C", run ":charge"]; u = n["U", run ":reserve"]
        if (c < 1 || u < 1 || c > 2 || u > 2)
          err("order " order[run] ": charge compensated " c ", reserve undone " u " times")
        repeated += c + u - 2
        failed++
      } else {
        for (i in steps) {
          k = run ":" steps[i]
          if ((k in ended_steps) && record[k] != "completed")
            err("order " order[run] ": " steps[i] " ended (ledger) but its record is " record[k])
        }
        if (n["C", run ":charge"] + n["U", run ":reserve"] + n["U", run ":charge"] > 0)
          err("order " order[run] " completed but something was compensated or undone")
        completed++
      }
    }
    for (run in rerun_runs) { reruns++; if (run in hit) rerun_hit++ }
    if (extra > open_runs) err(extra " step re-runs, more than the " open_runs " runs unfinished at the kill")
    printf "redis_restart: %d runs (%d completed, %d failed and compensated); redis-server SIGKILLed with %d runs inside a step (%d unfinished), down %s s; all ended %d s after the kill; %d step re-runs in %d runs (%d of them inside a step at the kill), at most %d starts of a step, %d repeated compensations%s\n",
      stored, completed, failed, mid, open_runs, down, took, extra, reruns, rerun_hit, max_starts,
      repeated, bad ? ", " bad " violations" : ", workers alive, all invariants hold"
    exit bad ? 1 : 0
  }
' "$dir/orders" "$dir/runs" "$dir/records" "$dir/in-flight" "$dir/ledger" || fail=1
exit $fail
