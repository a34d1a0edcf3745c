#!/usr/bin/env bash
# Chaos under fan-out maps, with real processes: 20 background FanOutSum runs of 200 elements
# each (every element a run of its own whose step "add" takes MAP_CHAOS_STEP_MS = 10 ms; batch
# sizes drawn from 4 … 200 per map; 3 of the maps fail at an element of their upper half) on
# three worker processes (MAP_CHAOS_THREADS = 4 threads each, 1 s lease, 1 s sweep), one of which,
# picked at random, is killed with SIGKILL and restarted, 10 times, each kill after a random
# amount of work (200 to 900 ledger lines, about 100 to 450 elements: the work, not the clock,
# spaces the kills, so that they land inside the maps on a fast store as on a slow one). Then,
# from the store (`reactor show --json` of every map, and each map's row and slots) and the
# side-effect ledger:
#   - every map settled exactly once (its row settled, every released element reported once, the
#     owner's map step collected by one execution) with the right outcome: sum = count² and
#     count = 200, or, with fail_at, the run failed at that element;
#   - every element that had to run ended ("E") at least once; an element ran again only after an
#     execution of it was lost with a killed worker: every "S", "E" and "U" of an element but its
#     last is a killed worker's;
#   - the bound on extra executions: a killed worker loses at most one execution per thread, a
#     step body or an undo (a map's elements are rolled back one at a time, in its owner's
#     thread), so each kill accounts for at most MAP_CHAOS_THREADS of them, and all the kills
#     for at most kills × threads = 40 element re-runs and repeated undos together;
#   - a failed map: each element that completed ("E") undone ("U") exactly once — again only
#     after an undo by a worker then killed, within the bound —, the failing element and the
#     elements never started not at all, and one map's undos in descending index order; nothing
#     undone in a map that completed;
#   - every element run again is counted in its map's `interrupted`;
#   - every worker the test did not kill is still alive.
# MAP_CHAOS_CLAIM = n > 1 runs the maps in claims of n (docs/maps.md, "Claims"; 1: element runs):
# a killed worker's thread then loses up to a claim, so the bound is kills × threads × n, and a
# claim cut short by its atomic map's failure files its elements not started cancelled.
# Bounded to 100 s (about 10 s on SQLite and Redis on two cores). MAP_CHAOS_SEED replays the same
# maps and kill schedule.
set -euo pipefail
reactor=$1
source "$(dirname "$0")/worker_env.sh"
# SQLite without an fsync per commit: the test kills processes, never the machine, and with
# synchronous=normal every commit survives a process crash (docs/storage.md). With an fsync per
# commit (about 4 ms on a small VM) 12 threads saturate the store, and the lease heartbeats, queued
# behind them for the write lock, have been seen to take 2 s: live workers lose their 1 s
# leases and steps run again with no kill to explain it — which this test would report.
[[ -n ${REACTOR_TEST_STORAGE:-} ]] || use_store "sqlite://$dir/runs.db?synchronous=normal"
maps=20 elements=200 kills=10 nworkers=3
worker_threads=${MAP_CHAOS_THREADS:-4}
step_ms=${MAP_CHAOS_STEP_MS:-10}
claim=${MAP_CHAOS_CLAIM:-1}
batch_sizes=(4 10 25 50 200)
seed=${MAP_CHAOS_SEED:-$((RANDOM * 32768 + RANDOM))}
RANDOM=$seed
began=$SECONDS
deadline=$((SECONDS + 100))

# The maps: "run-id batch-size fail-at" (-1: none). Maps 5, 12 and 19 fail at an element drawn
# from the upper half, so that about half their elements complete before it (and are undone).
for m in $(seq 1 $maps); do
  batch=${batch_sizes[$((RANDOM % ${#batch_sizes[@]}))]}
  fail_at=-1 extra=
  if ((m % 7 == 5)); then
    fail_at=$((elements / 2 + RANDOM % (elements / 2)))
    extra=", \"fail_at\": $fail_at"
  fi
  id=$(start_background FanOutSum \
    "{\"count\": $elements, \"batch_size\": $batch, \"claim\": $claim, \"step_ms\": $step_ms$extra}")
  echo "$id $batch $fail_at"
done >"$dir/maps"

# wait_work LINES: waits until the ledger has LINES more lines than when the last kill came (at
# most 5 s: a store slower than that still gets its kills), so that kills land among the maps.
ledger_at_kill=0
ledger_lines() { if [[ -f $dir/ledger ]]; then wc -l <"$dir/ledger"; else echo 0; fi; }
wait_work() {
  local want=$((ledger_at_kill + $1))
  for _ in $(seq 1 100); do
    (($(ledger_lines) >= want)) && break
    sleep 0.05
  done
  ledger_at_kill=$(ledger_lines)
}

for _ in $(seq 1 $nworkers); do chaos_worker; done
: >"$dir/killed"
for _ in $(seq 1 $kills); do
  wait_work $((200 + RANDOM % 700))
  kill_and_replace "$nworkers"
done
runs_now
ended_at_last_kill=$(ended)
kills_took=$((SECONDS - began))

# Until every map has ended (bounded).
wait_all_ended "map_chaos (seed $seed)" "$maps" "$deadline" || exit 1
all_ended=$((SECONDS - began))
for p in "${pids[@]}"; do
  kill -0 "$p" 2>/dev/null || bad "worker $p (never killed by the test) died (seed $seed)"
done

# What the store says of each map: the run as `reactor show --json` reads it ("run-id status
# sum count collections error-step interrupted", where collections counts the owner's executions
# of the map step that ended it, a success or a failure), the map's row ("run-id state total released
# done failed undone") and its slots ("run-id index state").
while read -r id _ _ <&3; do
  "$reactor" --storage "$db" show "$id" --json | jq -r '
    [.run_id, .status, (.value.sum // "-"), (.value.count // "-"),
     ([.trace[] | select(.type == "run" and .step == "sum"
                         and (.outcome == "success" or .outcome == "failure"))] | length),
     (.error.step // "-"), (.maps[0].interrupted // 0)] | map(tostring) | join(" ")'
  echo "$id $(store_map "$id:sum")" >>"$dir/map_rows"
  store_map_slots "$id:sum" | sed "s/^/$id /" >>"$dir/slots"
done 3<"$dir/maps" >"$dir/results"

awk -v elements="$elements" -v threads="$worker_threads" -v claim="$claim" -v seed="$seed" \
    -v early="$ended_at_last_kill" -v kills_took="$kills_took" -v took="$all_ended" '
  function err(m) { if (++bad <= 30) print "map_chaos: " m > "/dev/stderr" }
  FILENAME == ARGV[1] { batch[$1] = $2; fail_at[$1] = $3; nmaps++; next }
  FILENAME == ARGV[2] { status[$1] = $2; sum[$1] = $3; cnt[$1] = $4; collected[$1] = $5
                        err_step[$1] = $6; interrupted[$1] = $7; next }
  FILENAME == ARGV[3] { row[$1] = $2 " " $3 " " $4 " " $5 " " $6 " " $7; state[$1] = $2
                        total[$1] = $3; released[$1] = $4; done_[$1] = $5; failed[$1] = $6
                        undone[$1] = $7; next }
  FILENAME == ARGV[4] { slot[$1, $2] = $3; nslots[$1]++; next }
  FILENAME == ARGV[5] { killed[$1] = 1; nkills++; next }
  {                                            # ledger: kind, "<run>:sum[i]/add", pid
    split($2, key, ":"); run = key[1]; i = key[2]; gsub(/^sum\[|\]\/add$/, "", i)
    k = run SUBSEP i
    n[$1, k]++
    # A line of this kind for this element before: that execution was lost. Lost only with a
    # killed worker, which loses at most one execution per thread.
    if (($1, k) in last_pid) {
      if (!(last_pid[$1, k] in killed))
        err("map " run ": element " i ": " $1 " again after an execution by worker " last_pid[$1, k] ", which was not killed")
      else if ($1 == "S" || $1 == "U") lost[last_pid[$1, k]]++
      if ($1 == "S") { reruns++; reruns_of[run]++ }
      if ($1 == "U") reundos++
    }
    last_pid[$1, k] = $3
    if ($1 == "U") {
      if ((run in last_undone) && i + 0 > last_undone[run])
        err("map " run ": element " i " undone after element " last_undone[run] " (not in descending order)")
      last_undone[run] = i + 0
    }
  }
  END {
    if (nmaps != 20) err(nmaps " maps started, expected 20")
    for (run in batch) {
      f = fail_at[run] + 0; failing = f >= 0
      name = "map " run " (batch " batch[run] (failing ? ", fail_at " f : "") ")"
      if (!(run in status)) { err(name ": not found"); continue }
      if (collected[run] != 1) err(name ": its map step was collected " collected[run] " times")
      if (state[run] != "settled" || total[run] != elements)
        err(name ": map row is \"" row[run] "\", expected settled with " elements " elements")
      if (done_[run] != released[run] || nslots[run] != released[run])
        err(name ": " released[run] " elements released, " done_[run] " reported, " nslots[run] + 0 " slots")
      if (failing) {
        nfailed++
        if (status[run] != "failed") err(name " is " status[run] ", expected failed")
        if (err_step[run] != "sum[" f "]/add") err(name " failed at " err_step[run])
        if (failed[run] != 1) err(name ": " failed[run] " elements failed, expected 1")
      } else {
        ncompleted++
        if (status[run] != "completed") err(name " is " status[run] ", expected completed")
        if (sum[run] != elements * elements || cnt[run] != elements)
          err(name ": sum " sum[run] ", count " cnt[run] ", expected " elements * elements ", " elements)
        if (released[run] != elements || failed[run] != 0 || undone[run] != 0)
          err(name ": map row is \"" row[run] "\", expected all released, none failed or undone")
      }
      ended_elements = 0
      for (i = 0; i < elements; i++) {
        k = run SUBSEP i; s = n["S", k] + 0; e = n["E", k] + 0; u = n["U", k] + 0
        el = name ": element " i
        if (e > 0) ended_elements++
        if (s > 0 && !((run, i) in slot)) err(el " started but has no slot")
        # (a claim cut short by its failing map files the elements it did not start cancelled)
        cut_short = failing && claim > 1 && ((run, i) in slot) && slot[run, i] == "cancelled"
        if (s == 0 && ((run, i) in slot) && !cut_short)
          err(el " has a slot, slot " slot[run, i] ", but never started")
        if (failing && i == f) {
          if (s < 1 || e > 0 || u > 0 || slot[run, i] != "failed")
            err(el " (fail_at): started " s ", ended " e ", undone " u " times, slot " slot[run, i])
          continue
        }
        if (s > 0 && e == 0) err(el " started " s " times and never ended")
        if (failing) {
          if (e > 0 && (u < 1 || slot[run, i] != "undone"))
            err(el " ended but was undone " u " times, slot " slot[run, i])
          if (e == 0 && u > 0) err(el " never ended but was undone " u " times")
          if (e > 0) completed_undone++
        } else {
          if (e == 0) err(el " never ended")
          if (u > 0) err(el " undone " u " times in a map that completed")
          if (slot[run, i] != "completed") err(el ": slot " slot[run, i] ", expected completed")
        }
      }
      # Each element run again counted among the lost executions of its map (with claims, every
      # element of a lost claim is: an upper bound).
      if (reruns_of[run] + 0 > interrupted[run])
        err(name ": " reruns_of[run] " elements run again, " interrupted[run] " counted interrupted")
      if (failing && undone[run] != ended_elements)
        err(name ": " undone[run] " elements filed undone, " ended_elements " ended")
    }
    # The bound: per kill one lost execution per thread (with claims, the elements of one), so kills ×
    # threads (× claim) in all.
    per_kill = threads * claim
    for (pid in lost) {
      if (lost[pid] > per_kill) err("killed worker " pid " lost " lost[pid] " executions, more than its " threads " threads x claims of " claim)
      hit++
    }
    if (reruns + reundos > nkills * per_kill)
      err(reruns + 0 " re-run elements and " reundos + 0 " repeated undos, more than " nkills " kills x " threads " threads x claims of " claim)
    if (hit == 0) err("PRECONDITION: none of the " nkills " kills cut an execution short; the test proved nothing (seed " seed ")")
    printf "map_chaos: %d maps (%d completed, %d failed and rolled back: %d elements undone), %d kills in %d s (seed %s, %d maps ended by the last), all ended after %d s; %d kills lost an execution: %d element re-runs, %d repeated undos (bound %d)%s\n",
      nmaps, ncompleted, nfailed, completed_undone, nkills, kills_took, seed, early, took, hit,
      reruns, reundos, nkills * per_kill, bad ? ", " bad " violations" : ", all invariants hold"
    exit bad ? 1 : 0
  }
' "$dir/maps" "$dir/results" "$dir/map_rows" "$dir/slots" "$dir/killed" "$dir/ledger" || fail=1
exit $fail
