#!/usr/bin/env bash
# The store is never guessed silently. --storage wins over REACTOR_STORAGE, which wins over the
# default (sqlite://reactor.db in the working directory); a command that takes the default says
# so on stderr; `worker` does not make a new store at the default unless --create is given (a
# worker started in the wrong directory used to serve a new, empty reactor.db there), but does
# make one that --storage or REACTOR_STORAGE names. Every command's --help lists --storage and
# the variable.
reactor=$(realpath "$1")  # absolute: the test runs it in other directories
source "$(dirname "$0")/worker_env.sh"
unset REACTOR_STORAGE
elsewhere=$dir/elsewhere
mkdir -p "$elsewhere"
note="storage: sqlite://reactor.db (default)"
order='{"order_id": 7, "amount": 300}'

# --- worker in a directory with no store: refused, nothing made, told how
rc=0
(cd "$elsewhere" && timeout 10 "$reactor" worker) >"$dir/out" 2>"$dir/err" || rc=$?
[[ $rc -eq 2 ]] || bad "worker on a default store that does not exist exited $rc, expected 2"
grep -qF "$note" "$dir/err" || bad "worker does not say it took the default store"
grep -q -- "--create" "$dir/err" && grep -q -- "--storage" "$dir/err" && grep -q REACTOR_STORAGE "$dir/err" ||
  bad "worker's refusal does not say how: --create, --storage or REACTOR_STORAGE"
[[ -e $elsewhere/reactor.db ]] && bad "worker made $elsewhere/reactor.db"
if ((fail)); then cat "$dir/err" >&2; fi

# --- with --create it makes the store and serves it, and says which
(cd "$elsewhere" && exec "$reactor" worker --create) 2>"$dir/created.log" &
pids+=($!)
for _ in $(seq 1 100); do  # bounded: 10 s
  grep -q "serving" "$dir/created.log" 2>/dev/null && break
  sleep 0.1
done
grep -q "serving sqlite://reactor.db" "$dir/created.log" || bad "worker --create does not serve the new store"
grep -qF "$note" "$dir/created.log" || bad "worker --create does not say it took the default store"
[[ -e $elsewhere/reactor.db ]] || bad "worker --create made no $elsewhere/reactor.db"
stop_worker "${pids[-1]}" TERM

# --- the commands that read or serve runs name the default store they open
(cd "$elsewhere" && "$reactor" start OrderSaga --input "$order" --background) >"$dir/id" 2>"$dir/err" ||
  bad "start on the default store failed"
grep -qF "$note" "$dir/err" || bad "start does not say it took the default store"
id=$(cat "$dir/id")
for command in "runs" "show $id" "sweep" "enqueue $id"; do
  # shellcheck disable=SC2086
  (cd "$elsewhere" && "$reactor" $command) >"$dir/out" 2>"$dir/err" || bad "$command on the default store failed"
  grep -qF "$note" "$dir/err" || bad "$command does not say it took the default store"
  grep -qF "$note" "$dir/out" && bad "$command says which store on stdout, not stderr"
done
grep -q "$id" <(cd "$elsewhere" && "$reactor" runs 2>/dev/null) || bad "runs on the default store misses run $id"

# --- REACTOR_STORAGE: used when --storage is not given, and not called a default
env_db="sqlite://$dir/env.db"
id=$(cd "$elsewhere" && REACTOR_STORAGE=$env_db "$reactor" start OrderSaga --input "$order" --background 2>"$dir/err") ||
  bad "start with REACTOR_STORAGE failed"
grep -q "(default)" "$dir/err" && bad "start with REACTOR_STORAGE calls its store a default"
"$reactor" runs --storage "$env_db" --json | grep -q "\"id\":\"$id\"" || bad "REACTOR_STORAGE's store does not hold run $id"
# --storage wins over it, before and after the command.
REACTOR_STORAGE="sqlite://$dir/not-this.db" "$reactor" runs --storage "$env_db" --json >"$dir/out" 2>"$dir/err" ||
  bad "runs --storage with another REACTOR_STORAGE failed"
grep -q "\"id\":\"$id\"" "$dir/out" || bad "--storage after the command does not win over REACTOR_STORAGE"
REACTOR_STORAGE="sqlite://$dir/not-this.db" "$reactor" --storage "$env_db" runs --json >"$dir/out" 2>"$dir/err" ||
  bad "--storage runs with another REACTOR_STORAGE failed"
grep -q "\"id\":\"$id\"" "$dir/out" || bad "--storage before the command does not win over REACTOR_STORAGE"
[[ -e $dir/not-this.db ]] && bad "a store was made at REACTOR_STORAGE although --storage was given"
# A worker makes the store the variable names: somebody named it.
REACTOR_STORAGE="sqlite://$dir/new.db" "$reactor" worker 2>"$dir/new.log" &
pids+=($!)
for _ in $(seq 1 100); do  # bounded: 10 s
  grep -q "serving" "$dir/new.log" 2>/dev/null && break
  sleep 0.1
done
grep -q "serving sqlite://$dir/new.db" "$dir/new.log" || { bad "worker does not serve the new store REACTOR_STORAGE names:"; cat "$dir/new.log" >&2; }
stop_worker "${pids[-1]}" TERM

# --- every command's --help lists --storage and the variable
for command in start worker runs show sweep enqueue; do
  "$reactor" "$command" --help >"$dir/help" 2>&1 || bad "$command --help failed"
  grep -q -- "--storage" "$dir/help" && grep -q REACTOR_STORAGE "$dir/help" ||
    bad "$command --help does not list --storage and REACTOR_STORAGE"
done

[[ $fail -eq 0 ]] &&
  echo "cli_storage: the default store named on stderr, never made by a worker unasked; REACTOR_STORAGE between --storage and the default"
exit $fail
