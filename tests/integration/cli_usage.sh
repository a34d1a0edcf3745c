#!/usr/bin/env bash
# The command line as a black-box harness drives it: every option of the top level (--storage)
# works before or after the command; a usage error exits 2 and names the bad argument; a
# password in a store URL appears in no message, CLI11's own included.
reactor=$1
source "$(dirname "$0")/worker_env.sh"

# --- the top-level option after the command (and before it, and as --storage=URL)
id=$("$reactor" start OrderSaga --storage "$db" --input '{"order_id": 7, "amount": 300}' \
  --background) || bad "start NAME --storage URL ... failed"
"$reactor" runs --storage "$db" --json | grep -q "\"id\":\"$id\"" ||
  bad "runs --storage URL does not list run $id"
"$reactor" show "$id" --storage="$db" | grep -q "status   enqueued" ||
  bad "show ID --storage=URL does not show run $id enqueued"
"$reactor" --storage "$db" show "$id" | grep -q "status   enqueued" ||
  bad "--storage URL show ID no longer works"
"$reactor" worker --storage "$db" --threads 1 --lease-ttl 1 --sweep-interval 1 \
  2>>"$dir/worker.log" &
pids+=($!)
wait_completed "$id" || bad "worker --storage URL did not complete run $id"
stop_worker "${pids[-1]}" TERM
[[ $stopped_rc -eq 0 ]] || bad "the worker exited $stopped_rc on SIGTERM"

# --- usage errors: exit 2, naming the argument
# usage NAME PATTERN ARGS...: refused (worker_env.sh), for a usage error.
usage() { refused "$@"; }
usage "an unknown option" "--bogus" runs --storage "$db" --bogus
usage "an unknown command" "unknown command 'bogus'" bogus
usage "a missing reactor name" "reactor is required" start --storage "$db"
usage "a limit that is not a number" "--limit" runs --limit many --storage "$db"
usage "zero threads" "--threads" worker --threads 0 --storage "$db"
usage "no command" "a command is required" --storage "$db"
usage "--input with --input-file" "excludes" start OrderSaga --input '{}' --input-file x.json
usage "an unknown status" "valid: pending, enqueued, running" runs --status bogus --storage "$db"

# --- a password is masked everywhere
secret=s3cr3t-pa55
url="redis://:$secret@127.0.0.1:1/0"
# masked NAME ARGS...: `reactor ARGS` fails without printing the password, and says ***.
masked() {
  local what=$1 rc=0
  shift
  "$reactor" "$@" >"$dir/out" 2>"$dir/err" || rc=$?
  if [[ $rc -eq 0 ]]; then
    bad "$what: exit 0, expected a failure (reactor ${*//$secret/***})"
  elif grep -qF "$secret" "$dir/out" "$dir/err"; then
    bad "$what: the password appears in the output:"
    sed "s/$secret/<the password>/g" "$dir/err" >&2
  elif ! grep -qF "redis://***@127.0.0.1:1/0" "$dir/err"; then
    bad "$what: the message does not name the URL, masked:"
    cat "$dir/err" >&2
  fi
}
masked "an argument CLI11 did not expect" runs --storage "$url" "$url"
masked "a value CLI11 cannot convert" runs --limit "$url"
masked "an unknown command" "$url" --storage "$url"
masked "a store that cannot be reached" runs --storage "$url"
masked "a worker whose store cannot be reached" worker --storage "$url"

[[ $fail -eq 0 ]] && echo "cli_usage: --storage before and after the command; usage errors exit 2 naming the argument; no password in any message"
exit $fail
