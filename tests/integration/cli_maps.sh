#!/usr/bin/env bash
# Fan-out maps on the command line: a FanOutSum of 30 elements (batch 4) through a worker process.
# `runs` lists the run and not its elements, `runs --all` (before or after --storage) the 30
# element runs too, counted as listed; `show` prints the map's progress (total 30, done 30,
# settled) and its trace reads "dispatched sum; ran sum", with --json an object per map; `show`
# of an element run names its map and owner; the flag is refused where it means nothing.
reactor=$1
source "$(dirname "$0")/worker_env.sh"

id=$(start_background FanOutSum '{"count": 30, "batch_size": 4}') || bad "start FanOutSum failed"
worker
wait_completed "$id" || { bad "FanOutSum $id did not complete"; "$reactor" --storage "$db" show "$id" >&2; }

# `runs`: the run, not its elements.
"$reactor" --storage "$db" runs >"$dir/out" 2>&1 || bad "runs failed"
[[ $(grep -c " FanOutSum " "$dir/out") -eq 1 ]] || bad "runs does not list the FanOutSum run once"
grep -q "FanOutSum.element" "$dir/out" && bad "runs lists element runs without --all"
grep -q "^$id " "$dir/out" || bad "runs does not list $id"

# `runs --all`, the option before or after --storage: 30 element runs more, each by its id.
for args in "runs --all --storage $db" "--storage $db runs --all" "runs --storage $db --all"; do
  # shellcheck disable=SC2086
  "$reactor" $args >"$dir/out" 2>&1 || bad "reactor $args failed"
  [[ $(grep -c " FanOutSum.element " "$dir/out") -eq 30 ]] ||
    { bad "reactor $args does not list 30 element runs:"; head -5 "$dir/out" >&2; }
  grep -q "^$id " "$dir/out" || bad "reactor $args does not list $id"
done
for i in 0 3 29; do
  grep -q "^$id:sum\[$i\] " "$dir/out" || bad "runs --all does not list $id:sum[$i]"
done
# Counted as listed: 31 runs, 10 shown.
"$reactor" --storage "$db" runs --all --limit 10 >"$dir/out" 2>&1 || bad "runs --all --limit 10 failed"
grep -q "^10 of 31 runs shown" "$dir/out" || { bad "runs --all --limit 10 does not say 10 of 31:"; tail -2 "$dir/out" >&2; }
"$reactor" --storage "$db" runs --limit 10 >"$dir/out" 2>&1 || bad "runs --limit 10 failed"
grep -q "runs shown" "$dir/out" && bad "runs --limit 10 counts element runs it does not list"
"$reactor" --storage "$db" runs --all --json >"$dir/json" 2>&1 || bad "runs --all --json failed"
[[ $(wc -l <"$dir/json") -eq 31 ]] || bad "runs --all --json printed other than 31 lines"

# `show`: the map's progress, and a trace that says the map was dispatched, then collected.
"$reactor" --storage "$db" show "$id" >"$dir/show" 2>&1 || bad "show $id failed"
grep -q '^value    {"count":30,"sum":900}$' "$dir/show" || bad "show $id has not the value {count 30, sum 900}"
grep -q "^maps$" "$dir/show" || bad "show $id has no maps section"
grep -Eq "^  sum +settled +total=30 done=30 failed=0 in_flight=0 rolled_back=0 batch=4 interrupted=0 cancelled=0$" "$dir/show" ||
  bad "show $id does not print the map's progress (total 30, done 30, settled)"
grep -q "^trace    dispatched sum; ran sum$" "$dir/show" || bad "show $id: the trace does not read 'dispatched sum; ran sum'"
if ((fail)); then cat "$dir/show" >&2; fi
"$reactor" --storage "$db" show "$id" --json >"$dir/show.json" 2>&1 || bad "show $id --json failed"
tr -d ' \n' <"$dir/show.json" >"$dir/flat.json"
# (members in name order)
grep -q "\"maps\":\[{\"atomic\":true,\"batch_size\":4,\"cancelled\":0,\"done\":30,\"failed\":0,\"in_flight\":0,\"interrupted\":0,\"map_id\":\"$id:sum\",\"owner_id\":\"$id\",\"released\":30,\"rolled_back\":0,\"state\":\"settled\",\"step\":\"sum\",\"total\":30}\]" "$dir/flat.json" ||
  { bad "show --json has no map object with total 30 and done 30:"; cat "$dir/show.json" >&2; }

# `show` of an element run: its map and owner; --json says so too.
element="$id:sum[3]"
"$reactor" --storage "$db" show "$element" >"$dir/show" 2>&1 || bad "show $element failed"
grep -qxF "run      $element" "$dir/show" || bad "show $element does not name it"
grep -q "^reactor  FanOutSum.element$" "$dir/show" || bad "show $element does not name its reactor"
grep -q "^element  3 of map $id:sum (owner run $id)$" "$dir/show" || bad "show $element does not name its map and owner"
grep -q "^value    7$" "$dir/show" || bad "show $element has not the value 7"
grep -Eq "^  add +completed +attempts=1 on=[^ ]+$" "$dir/show" || bad "show $element does not list its step and where it ran"
grep -q "^trace    ran sum\[3\]/add$" "$dir/show" || bad "show $element: the trace does not read 'ran sum[3]/add'"
grep -q "^maps" "$dir/show" && bad "show $element lists maps it did not dispatch"
if ((fail)); then cat "$dir/show" >&2; fi
"$reactor" --storage "$db" show "$element" --json | tr -d ' \n' >"$dir/flat.json" || bad "show $element --json failed"
grep -q "\"element_of\":{\"index\":3,\"map_id\":\"$id:sum\",\"owner_id\":\"$id\",\"parent_id\":\"$id\",\"step\":\"sum\"}" "$dir/flat.json" ||
  bad "show $element --json has no element_of naming its map and owner"

# An element that does not exist is unknown, as any run is.
rc=0
"$reactor" --storage "$db" show "$id:sum[30]" 2>"$dir/err" >/dev/null || rc=$?
[[ $rc -eq 2 ]] || bad "show of a 31st element exited $rc, expected 2"
# --all belongs to runs: elsewhere a usage error naming it.
rc=0
"$reactor" --storage "$db" show "$id" --all 2>"$dir/err" >/dev/null || rc=$?
[[ $rc -eq 2 ]] || bad "show --all exited $rc, expected 2"
grep -q -- "--all" "$dir/err" || bad "show --all does not name the argument"

[[ $fail -eq 0 ]] && echo "cli_maps: runs hides 30 element runs, --all lists and counts them; show prints the map's progress and an element's map and owner"
exit $fail
