#!/usr/bin/env bash
# `start` reads its inputs whole from a file (--input-file PATH, --input @PATH) or from stdin
# (--input -): a 5 MB input runs and is stored intact on SQLite. What cannot be read, or is not
# JSON, is refused with exit 2, naming it.
reactor=$1  # travel-cli: worker_env.sh calls the program under test $reactor
source "$(dirname "$0")/worker_env.sh"
use_store "sqlite://$dir/trips.db"  # read back with sqlite3 below

# 5 MiB of notes (base64: every character is its own JSON), keys in the order the store writes.
notes=$(head -c 3932160 /dev/urandom | base64 -w0)
printf '{"notes":"%s","traveller":"Ada","trip_id":5}' "$notes" >"$dir/input.json"
printf '%s\n' "$(cat "$dir/input.json")" >"$dir/expected"  # as sqlite3 prints it
size=$(stat -c %s "$dir/input.json")
[[ $size -gt 5000000 ]] || bad "the input is only $size bytes"

# stored RUN_ID: the run's inputs as the store holds them.
stored() { sqlite3 -cmd ".timeout 10000" "$dir/trips.db" "SELECT inputs FROM run_inputs WHERE run_id = '$1'"; }

id=$("$reactor" start TravelBooking --storage "$db" --background --input-file "$dir/input.json") ||
  bad "--input-file: start failed"
stored "$id" | cmp -s - "$dir/expected" || bad "--input-file: the stored inputs of $id differ from the file"

id=$("$reactor" start TravelBooking --storage "$db" --background --input - <"$dir/input.json") ||
  bad "--input -: start failed"
stored "$id" | cmp -s - "$dir/expected" || bad "--input -: the stored inputs of $id differ from stdin"

"$reactor" start TravelBooking --storage "$db" --input "@$dir/input.json" --json >"$dir/result.json" ||
  bad "--input @PATH: the run did not complete"
grep -q '"status": "completed"' "$dir/result.json" && grep -q "\"notes_bytes\": ${#notes}" "$dir/result.json" ||
  bad "--input @PATH: the run did not complete with all ${#notes} bytes of notes"
id=$(sed -n 's/^  "run_id": "\(.*\)",$/\1/p' "$dir/result.json")
stored "$id" | cmp -s - "$dir/expected" || bad "--input @PATH: the stored inputs of run '$id' differ from the file"

# refused PATTERN ARGS...: start exits 2, saying PATTERN.
refused() {
  local pattern=$1 rc=0
  shift
  "$reactor" start TravelBooking --storage "$db" "$@" >/dev/null 2>"$dir/err" || rc=$?
  [[ $rc -eq 2 ]] && grep -q -- "$pattern" "$dir/err" ||
    { bad "start $* exited $rc, expected 2 saying '$pattern':"; cat "$dir/err" >&2; }
}
refused "cannot read input file $dir/absent.json" --input-file "$dir/absent.json"
refused "cannot read input file $dir/absent.json" --input "@$dir/absent.json"
printf '{"trip_id": 5, "traveller": ' >"$dir/cut.json"
refused "the input (file $dir/cut.json) is not valid JSON" --input-file "$dir/cut.json"
refused "the input (stdin) is not valid JSON" --input - </dev/null

[[ $fail -eq 0 ]] && echo "cli_large_input: a $size-byte input from a file, @file and stdin ran and was stored intact"
exit $fail
