#!/usr/bin/env bash
# `reactor runs`: says when it shows fewer runs than match, filters by reactor, shows when each
# run was created and last updated, lists the valid statuses for an unknown one; the read
# commands name a SQLite file that does not exist instead of making an empty store there.
reactor=$1
source "$(dirname "$0")/worker_env.sh"

for order in 1 2 3 4 5; do
  "$reactor" start OrderSaga --storage "$db" --background \
    --input "{\"order_id\": $order, \"amount\": 300}" >/dev/null || bad "start OrderSaga failed"
done
gifts=()
for order in 6 7; do
  gifts+=("$("$reactor" start GiftOrder --storage "$db" --background --input "{\"order_id\": $order}")") ||
    bad "start GiftOrder failed"
done

# Cut at its limit: the table, and how many were left out.
"$reactor" runs --storage "$db" --limit 3 >"$dir/out" 2>&1 || bad "runs --limit 3 failed"
[[ $(grep -c " enqueued " "$dir/out") -eq 3 ]] || bad "runs --limit 3 does not show 3 runs"
grep -q "^3 of 7 runs shown; use --limit" "$dir/out" || bad "runs --limit 3 does not say 3 of 7 are shown"
head -1 "$dir/out" | grep -q "REACTOR .*STATUS .*CREATED .*UPDATED" || bad "the table has no CREATED and UPDATED columns"
grep -Eq " [0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z +[0-9]{4}-[0-9]{2}-[0-9]{2}T" "$dir/out" ||
  bad "the rows show no creation and update times"
if ((fail)); then cat "$dir/out" >&2; fi

# With --json, stdout stays one run per line; the note goes to stderr.
"$reactor" runs --storage "$db" --limit 3 --json >"$dir/json" 2>"$dir/err" || bad "runs --json failed"
[[ $(wc -l <"$dir/json") -eq 3 ]] || bad "runs --limit 3 --json printed other than 3 lines"
grep -q '"created_at_ms":[1-9][0-9]*' "$dir/json" || bad "runs --json has no created_at_ms"
grep -q '"updated_at_ms":[1-9][0-9]*' "$dir/json" || bad "runs --json has no updated_at_ms"
grep -q "3 of 7 runs shown" "$dir/err" || bad "runs --json does not say on stderr that 3 of 7 are shown"

# By reactor: all that match, nothing left out.
"$reactor" runs --storage "$db" --reactor GiftOrder >"$dir/out" 2>&1 || bad "runs --reactor failed"
[[ $(grep -c " GiftOrder " "$dir/out") -eq 2 && $(grep -c " OrderSaga " "$dir/out") -eq 0 ]] ||
  { bad "runs --reactor GiftOrder does not list exactly the 2 GiftOrder runs:"; cat "$dir/out" >&2; }
for id in "${gifts[@]}"; do grep -q "^$id " "$dir/out" || bad "runs --reactor GiftOrder misses $id"; done
grep -q "shown" "$dir/out" && bad "runs --reactor GiftOrder says runs were left out"

# An unknown status: the valid ones.
rc=0
"$reactor" runs --storage "$db" --status finished 2>"$dir/err" || rc=$?
[[ $rc -eq 2 ]] || bad "runs --status finished exited $rc, expected 2"
grep -q "unknown status 'finished' (valid: pending, enqueued, running, .*completed" "$dir/err" ||
  { bad "runs --status finished does not list the valid statuses:"; cat "$dir/err" >&2; }

# A store that does not exist: the read commands name it and make nothing.
for command in "runs" "show 00000000-0000-0000-0000-000000000000"; do
  rc=0
  # shellcheck disable=SC2086
  "$reactor" $command --storage "sqlite://$dir/absent.db" >"$dir/out" 2>"$dir/err" || rc=$?
  [[ $rc -eq 2 ]] || bad "$command on a missing store exited $rc, expected 2"
  grep -q "$dir/absent.db does not exist" "$dir/err" ||
    { bad "$command on a missing store does not name it:"; cat "$dir/err" >&2; }
  [[ -e $dir/absent.db ]] && bad "$command made a store at $dir/absent.db"
done

[[ $fail -eq 0 ]] && echo "cli_runs: 3 of 7 shown and said so; filtered by reactor; created and updated times; valid statuses listed; a missing store named, not made"
exit $fail
