#!/usr/bin/env bash
# Chaos, with real processes: 200 background OrderSagas (order ids 1..200;
# the 20 multiples of 10 are declined at charge and compensated) run on two
# worker processes (1 thread, 1 s lease, 1 s sweep), one of which, picked at
# random, is killed with SIGKILL at a random moment and restarted, 10 times.
# Then, from the store and the side-effect ledger:
#   - no run lost: 200 runs stored, each ended as the example says;
#   - every step that had to run finished at least once;
#   - re-runs only where a kill hit: in all, at most one extra start per
#     kill; per step, at most one per kill that hit its run (a killed
#     worker's run is the one of its last ledger line: one thread, one run);
#   - every declined order's charge compensated and reserve undone exactly
#     once, unless a kill hit its run (a kill between a compensation and its
#     checkpoint repeats it: compensations are at-least-once like steps);
#   - nothing compensated or undone for a completed run.
# Bounded to about three minutes. CHAOS_SEED replays the same kill schedule.
reactor=$1
source "$(dirname "$0")/worker_env.sh"
export REACTOR_DEMO_STEP_MS=${CHAOS_STEP_MS:-50}
orders=200 kills=10
seed=${CHAOS_SEED:-$((RANDOM * 32768 + RANDOM))}
RANDOM=$seed
deadline=$((SECONDS + 180))

for order in $(seq 1 $orders); do
  echo "$order $(start_order "$order")"
done >"$dir/orders"

chaos_worker; chaos_worker
: >"$dir/killed"
for _ in $(seq 1 $kills); do
  ms=$((200 + RANDOM % 1200))
  sleep "$((ms / 1000)).$(printf '%03d' $((ms % 1000)))"
  kill_and_replace 2
done
runs_now
ended_at_last_kill=$(ended)

# Until every run has ended (bounded).
wait_all_ended "chaos (seed $seed)" "$orders" "$deadline" || exit 1

awk -v orders="$orders" -v seed="$seed" -v early="$ended_at_last_kill" '
  function err(m) { print "chaos: " m > "/dev/stderr"; bad++ }
  FILENAME == ARGV[1] { order[$2] = $1; next }             # order id, run id
  FILENAME == ARGV[2] { status[$1] = $2; stored++; next }  # run id, status
  FILENAME == ARGV[3] { killed[$1] = 1; nkills++; next }   # pid of a killed worker
  {                                                        # ledger: kind, key, pid
    n[$1, $2]++
    if ($1 == "S") starts[$2]++
    split($2, key, ":"); last_run[$3] = key[1]
  }
  END {
    if (stored != orders) err(stored " runs stored, expected " orders)
    for (pid in killed) if (pid in last_run) hits[last_run[pid]]++
    for (run in order) {
      declined = order[run] % 10 == 0
      want = declined ? "failed" : "completed"
      if (status[run] != want) err("order " order[run] " is " status[run] ", expected " want)
      ran = declined ? "reserve charge" : "reserve charge ship"
      split(ran, steps, " ")
      for (i in steps) {
        k = run ":" steps[i]
        if (n["E", k] < 1) err("order " order[run] ": " steps[i] " never finished")
        if (starts[k] > 1 + hits[run]) err("order " order[run] ": " steps[i] " started " starts[k] " times, " hits[run] + 0 " kills hit it")
        extra += starts[k] - 1
      }
      if (n["S", run ":ship"] && declined) err("order " order[run] ": a declined order shipped")
      if (declined) {
        c = n["C", run ":charge"]; u = n["U", run ":reserve"]
        if (c < 1 || u < 1 || c > 1 + hits[run] || u > 1 + hits[run])
          err("order " order[run] ": charge compensated " c ", reserve undone " u " times, " hits[run] + 0 " kills hit it")
        repeated += c + u - 2
        failed++
      } else {
        if (n["C", run ":charge"] + n["U", run ":reserve"] + n["U", run ":charge"] > 0)
          err("order " order[run] " completed but something was compensated or undone")
        completed++
      }
    }
    if (extra > nkills) err(extra " extra step starts for " nkills " kills")
    printf "chaos: %d runs (%d completed, %d failed and compensated), %d kills (seed %s, %d runs ended by the last): %d step re-runs, %d repeated compensations%s\n", stored, completed, failed, nkills, seed, early, extra, repeated, bad ? ", " bad " violations" : ", all invariants hold"
    exit bad ? 1 : 0
  }
' "$dir/orders" "$dir/runs" "$dir/killed" "$dir/ledger"
