#!/usr/bin/env bash
# A refused start stores nothing, in the foreground as in the background: inputs that are not an
# object, or miss a required input and break another's rule, are one error kind
# (input_invalid) listing every field error, exit 2, and `reactor runs` shows nothing after
# them. An invalid run id is echoed as typed, quoted, with the rule it breaks.
reactor=$1
source "$(dirname "$0")/worker_env.sh"

# refused NAME ARGS...: `reactor start OrderSaga ARGS` exits 2, says input_invalid on stderr, and
# prints no run on stdout; its stderr in $dir/err.
refused() {
  local what=$1 rc=0
  shift
  "$reactor" start OrderSaga --storage "$db" "$@" >"$dir/out" 2>"$dir/err" || rc=$?
  [[ $rc -eq 2 ]] || bad "$what: exit $rc, expected 2"
  grep -q "input_invalid" "$dir/err" || { bad "$what: the error is not input_invalid:"; cat "$dir/err" >&2; }
  [[ $(grep -c "input_invalid" "$dir/err") -eq 1 ]] || bad "$what: more than one error line"
  grep -q "^run " "$dir/out" && bad "$what: a run was printed: $(head -1 "$dir/out")"
  return 0
}

printf '[1,2]' >"$dir/array.json"
printf '{"order_id": 0}' >"$dir/missing.json"
for how in "" "--background"; do
  where=${how:-foreground}
  # shellcheck disable=SC2086
  refused "inputs that are not an object ($where)" --input-file "$dir/array.json" $how
  grep -q "must be a JSON object" "$dir/err" || bad "inputs that are not an object ($where): not said"
  # shellcheck disable=SC2086
  refused "a missing input and a broken rule ($where)" --input-file "$dir/missing.json" $how
  grep -q "order_id: must be at least 1" "$dir/err" && grep -q "amount: is missing" "$dir/err" ||
    { bad "a missing input and a broken rule ($where): not every field error is listed:"; cat "$dir/err" >&2; }
  # shellcheck disable=SC2086
  refused "an id with a space and a colon ($where)" --input '{"order_id": 7, "amount": 300}' \
    --id 'TRIP 1:x' $how
  grep -qF "run id 'TRIP 1:x' holds a space and ':'" "$dir/err" ||
    { bad "an invalid id ($where) is not echoed as typed with what it holds:"; cat "$dir/err" >&2; }
  grep -qF "a run id uses letters, digits and - _ . / @ #" "$dir/err" ||
    bad "an invalid id ($where): the rule is not said"
done
# An id with a control character: shown escaped, never raw.
refused "an id with a tab" --input '{"order_id": 7, "amount": 300}' --id "$(printf 'A\tB')"
grep -qF "run id 'A\\x09B' holds a control character" "$dir/err" ||
  { bad "an id with a tab is not shown escaped:"; cat -A "$dir/err" >&2; }

"$reactor" runs --storage "$db" --all >"$dir/runs" 2>&1 || bad "runs failed"
grep -q "^no runs$" "$dir/runs" || { bad "refused starts stored runs:"; cat "$dir/runs" >&2; }

# The foreground start with --json still gives the failed result, and stores nothing either.
rc=0
"$reactor" start OrderSaga --storage "$db" --input-file "$dir/missing.json" --json >"$dir/out" 2>/dev/null || rc=$?
[[ $rc -eq 2 ]] || bad "a refused start with --json exited $rc, expected 2"
grep -q '"kind": "input_invalid"' "$dir/out" || bad "a refused start with --json does not give input_invalid"
"$reactor" runs --storage "$db" --all | grep -q "^no runs$" || bad "a refused start with --json stored a run"

[[ $fail -eq 0 ]] &&
  echo "cli_refused_start: refused starts stored nothing, foreground and background, with one input_invalid error listing every field; ids echoed as typed"
exit $fail
