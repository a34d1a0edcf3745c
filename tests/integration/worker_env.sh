# Shared by the process-level tests: a store, a side-effect ledger, worker
# processes started and always stopped by PID, and queries on runs and on the
# ledger. Source it after setting `reactor` (the CLI binary).
#
# The store is $REACTOR_TEST_STORAGE when set (the same scripts then run on
# another backend; it must be empty, as tests count what is in it), else a
# fresh SQLite file. Whatever a test must do to the
# store behind the engine's back (corrupt a record, edit a job) is a store_*
# function of store_<scheme>.sh, so each backend brings its own.
set -euo pipefail
dir=$(mktemp -d)
pids=()
# Commands cleanup runs once the workers are gone, before $dir is deleted (a test that started
# its own server stops it here).
cleanup_steps=()
cleanup() {
  local rc=$?
  for p in "${pids[@]}"; do
    kill -CONT "$p" 2>/dev/null || true
    kill -9 "$p" 2>/dev/null || true
    wait "$p" 2>/dev/null || true
  done
  local step
  for step in "${cleanup_steps[@]}"; do eval "$step" || true; done
  if [[ $rc -ne 0 && -s $dir/worker.log ]]; then
    echo "--- last worker log lines" >&2
    tail -n 40 "$dir/worker.log" >&2
  fi
  rm -rf "$dir"
}
trap cleanup EXIT
export REACTOR_LEDGER=$dir/ledger REACTOR_DEMO_STEP_MS=300

store_unsupported() { echo "worker_env: $1 is not implemented for $db" >&2; return 1; }
# store_jobs RUN_ID: how many jobs of the run exist (queued or in delivery).
store_jobs() { store_unsupported store_jobs; }
# store_corrupt_header RUN_ID: garbage JSON in the run's header.
store_corrupt_header() { store_unsupported store_corrupt_header; }
# store_garble_header RUN_ID: the run's header unreadable by the store itself (load_run answers
# Corruption), not only by the engine.
store_garble_header() { store_unsupported store_garble_header; }
# store_corrupt_step RUN_ID INDEX: garbage JSON in one step record of the run.
store_corrupt_step() { store_unsupported store_corrupt_step; }
# store_set_step RUN_ID INDEX TEXT: the step record is TEXT, bytes as given (no single quote).
store_set_step() { store_unsupported store_set_step; }
# store_replace_in_body RUN_ID FROM TO: the text FROM in the run's header body becomes TO (no
# single quotes in either); fails if the body has no FROM.
store_replace_in_body() { store_unsupported store_replace_in_body; }
# store_corrupt_fingerprint RUN_ID: a byte that is not UTF-8 (0xff) in the run's fingerprint.
store_corrupt_fingerprint() { store_unsupported store_corrupt_fingerprint; }
# store_chain_children RUN_ID N: N child headers under the run, each the parent of the next.
store_chain_children() { store_unsupported store_chain_children; }
# store_set_schema_version RUN_ID N: the header claims record schema version N.
store_set_schema_version() { store_unsupported store_set_schema_version; }
# store_set_header_reactor RUN_ID NAME: the run's header names another reactor.
store_set_header_reactor() { store_unsupported store_set_header_reactor; }
# store_set_job_reactor RUN_ID NAME: the run's jobs name another reactor (same queue).
store_set_job_reactor() { store_unsupported store_set_job_reactor; }
# store_map MAP_ID: the fan-out map's row as "state total released done failed undone" (docs/
# storage.md, docs/redis.md), or nothing when the store has no such map.
store_map() { store_unsupported store_map; }
# store_map_slots MAP_ID: "index state" for each slot of the map, in index order.
store_map_slots() { store_unsupported store_map_slots; }
# store_deep_failed_slot MAP_ID INDEX DEPTH: the slot is filed failed, its body a run error whose
# details nest DEPTH levels deep (2 × DEPTH bytes: made inside the store, no argument that long).
store_deep_failed_slot() { store_unsupported store_deep_failed_slot; }
# store_write_lock_free: whether no process holds the store's write lock now (a store whose
# writers lock nothing across calls answers yes).
store_write_lock_free() { return 0; }
store_helpers_dir=$(dirname "${BASH_SOURCE[0]}")
# use_store URL: the store of the functions here, and its store_<scheme>.sh if there is one.
use_store() {
  db=$1
  local helpers="$store_helpers_dir/store_${db%%:*}.sh"
  if [[ -f $helpers ]]; then source "$helpers"; fi
}
use_store "${REACTOR_TEST_STORAGE:-sqlite://$dir/runs.db}"

# worker [ARGS...]: starts a worker ($worker_threads or 1 thread, 1 s lease,
# sweep interval $sweep_interval or 1 s, then ARGS); its PID is appended to
# pids. Stderr goes to $dir/worker.log.
worker() {
  "$reactor" --storage "$db" worker --threads "${worker_threads:-1}" --lease-ttl 1 \
    --sweep-interval "${sweep_interval:-1}" "$@" 2>>"$dir/worker.log" &
  pids+=($!)
}
# chaos_worker: a worker for the chaos tests. Their invariants are about recovery: three kills
# that happen to hit one step, or one run's deliveries, would make it a poison pill by the
# default limits, which are the subject of LostExecutions.*, CrashLoops.*, fencing_sigstop and
# crash_loop instead.
chaos_worker() { worker --max-interrupted-executions 100 --max-deliveries-without-progress 100; }
# kill_and_replace N: SIGKILLs one of the first N workers, picked with $RANDOM (a seed replays
# the pick), notes its PID in $dir/killed and starts a chaos_worker in its place.
kill_and_replace() {
  local victim=${pids[$((RANDOM % $1))]}
  kill_worker "$victim"
  echo "$victim" >>"$dir/killed"
  chaos_worker
}
# kill_worker PID: SIGKILL, reaped, and forgotten (its PID may be reused).
kill_worker() {
  kill -9 "$1"
  wait "$1" 2>/dev/null || true
  local kept=() p
  for p in "${pids[@]}"; do [[ $p == "$1" ]] || kept+=("$p"); done
  pids=("${kept[@]}")
}
# freeze_worker PID: SIGSTOP, at a moment the worker holds no write lock of the store (a
# frozen holder would block every other process; the tests freeze a worker to take its lease
# away, which the lease alone must do).
freeze_worker() {
  for _ in $(seq 1 100); do
    kill -STOP "$1"
    store_write_lock_free && return 0
    kill -CONT "$1"
    sleep 0.01
  done
  echo "worker_env: worker $1 always held the store's write lock" >&2
  return 1
}
# steps_in_flight: the step keys whose last ledger line is an "S": started, not ended.
steps_in_flight() {
  awk '{ last[$2] = $1 } END { for (k in last) if (last[k] == "S") print k }' "$dir/ledger" |
    sort
}
# wait_in_flight ENDED IN_FLIGHT: waits (bounded, 20 s) until at least ENDED steps have ended
# ("E" lines in the ledger) and at least IN_FLIGHT are inside their body; fails after that.
wait_in_flight() {
  for _ in $(seq 1 400); do
    if [[ -s $dir/ledger ]] && (($(grep -c '^E ' "$dir/ledger") >= $1)) &&
      (($(steps_in_flight | wc -l) >= $2)); then
      return 0
    fi
    sleep 0.05
  done
  return 1
}
# count KIND STEP_KEY [PID]: ledger lines of that kind (S, E, C, U) for that step (and process).
# Fields are compared whole: a key holds "[" ("ROOT:invoice[0]/render"), a pid may prefix another.
count() {
  [[ -f $dir/ledger ]] || { echo 0; return; }
  awk -v kind="$1" -v key="$2" -v pid="${3:-}" \
    '$1 == kind && $2 == key && (pid == "" || $3 == pid) { n++ } END { print n + 0 }' "$dir/ledger"
}
# start_order [ORDER_ID]: a background OrderSaga; prints its run id.
start_order() {
  "$reactor" --storage "$db" start OrderSaga --input "{\"order_id\": ${1:-7}, \"amount\": 300}" \
    --background
}
# start_background NAME INPUT_JSON: prints the run id.
start_background() { "$reactor" --storage "$db" start "$1" --input "$2" --background; }
# run_now NAME INPUT_JSON: runs it to its end in this process (durably, no
# worker involved, no job left behind); prints the run id.
run_now() {
  { "$reactor" --storage "$db" start "$1" --input "$2" || true; } |
    awk '/^run / { sub(":", "", $2); print $2 }'
}
# status_of RUN_ID, error_kind_of RUN_ID: as `reactor show` reports them.
status_of() { "$reactor" --storage "$db" show "$1" | awk '$1 == "status" { print $2 }'; }
error_kind_of() { "$reactor" --storage "$db" show "$1" | awk '$1 == "error" { print $2 }'; }
# Waits (bounded, 10 s) until the step with this key has started.
wait_started() {
  for _ in $(seq 1 200); do
    [[ $(count S "$1") -ge 1 ]] && return 0
    sleep 0.05
  done
  return 1
}
# wait_status RUN_ID STATUS: waits (bounded, 30 s) until the run has that status.
wait_status() {
  for _ in $(seq 1 300); do
    [[ $(status_of "$1" 2>/dev/null) == "$2" ]] && return 0
    sleep 0.1
  done
  return 1
}
wait_completed() { wait_status "$1" completed; }
# runs_now: "run-id status" for every root run, into $dir/runs; ended: how many of them ended.
runs_now() {
  "$reactor" --storage "$db" runs --limit 100000 --json |
    sed -E 's/.*"id":"([^"]+)".*"status":"([^"]+)".*/\1 \2/' >"$dir/runs"
}
ended() { grep -c " completed$\| failed$" "$dir/runs" || true; }
# wait_all_ended NAME COUNT DEADLINE: waits until COUNT runs have ended, or fails (naming the
# test NAME and a few of the runs still open) once $SECONDS reaches DEADLINE.
wait_all_ended() {
  local name=$1 count=$2 deadline=$3
  while :; do
    runs_now
    [[ $(ended) -ge $count ]] && return 0
    if ((SECONDS >= deadline)); then
      echo "$name: only $(ended) of $count runs ended in time" >&2
      grep -v " completed$\| failed$" "$dir/runs" | head -5 >&2
      return 1
    fi
    sleep 0.5
  done
}
# wait_no_jobs RUN_ID: waits (bounded, 30 s) until no job of the run is left.
wait_no_jobs() {
  for _ in $(seq 1 300); do
    [[ $(store_jobs "$1") -eq 0 ]] && return 0
    sleep 0.1
  done
  return 1
}
# stop_worker PID [SIGNAL]: sends SIGNAL (if given), waits (bounded, 60 s) for the worker to exit,
# reaps it and forgets it; its exit code in $stopped_rc.
stop_worker() {
  local pid=$1 p kept=()
  [[ -n ${2:-} ]] && kill "-$2" "$pid"
  for _ in $(seq 1 600); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  stopped_rc=0
  wait "$pid" 2>/dev/null || stopped_rc=$?
  for p in "${pids[@]}"; do [[ $p == "$pid" ]] || kept+=("$p"); done
  pids=("${kept[@]}")
}
# refused NAME PATTERN ARGS...: `$reactor ARGS` exits 2 and its stderr matches PATTERN.
refused() {
  local what=$1 pattern=$2 rc=0
  shift 2
  "$reactor" "$@" >"$dir/out" 2>"$dir/err" || rc=$?
  if [[ $rc -ne 2 ]]; then
    bad "$what: exit $rc, expected 2 (reactor $*)"
  elif ! grep -q -- "$pattern" "$dir/err"; then
    bad "$what: the message does not say '$pattern':"
    cat "$dir/err" >&2
  fi
}

# bad MESSAGE: reports a failed check, naming the test (its script's name), and marks the test
# failed ($fail) without stopping it, so that one run reports every check that fails.
fail=0
bad() {
  echo "$(basename "$0" .sh): $*" >&2
  fail=1
}
