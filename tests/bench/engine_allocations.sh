#!/usr/bin/env bash
# The in-process engine's allocations per step, held to the figures bench/README.md records:
# each benchmark named in the engine table's first column (`BM_Engine…`) may allocate at most
# one more per step than its row's last column says. Allocations are deterministic where time is
# not, so this can fail a build that added work to every step without asserting any wall time.
#
#   engine_allocations.sh REACTOR_BENCH README
set -euo pipefail

bench=${1:?usage: engine_allocations.sh REACTOR_BENCH README}
readme=${2:?usage: engine_allocations.sh REACTOR_BENCH README}

# "| `BM_EngineChainNull/steps:1000` | … | 0.03 |" → "BM_EngineChainNull/steps:1000 0.03"
recorded=$(awk -F'|' '$2 ~ /^ *`BM_Engine[^`]*` *$/ {
  name = $2; gsub(/[ `]/, "", name)
  figure = $(NF - 1); gsub(/[ ,*]/, "", figure)
  print name, figure
}' "$readme")
if [[ -z $recorded ]]; then
  echo "engine_allocations: no BM_Engine row with allocations in $readme" >&2
  exit 1
fi

# One regular expression of the names, each whole (a '/' in a name is literal in Google
# Benchmark's filter).
filter=$(awk '{ printf "%s^%s(/real_time)?$", (NR > 1 ? "|" : ""), $1 }' <<<"$recorded")
out=$("$bench" engine --benchmark_filter="$filter" --benchmark_min_time=0.01 2>&1) || {
  echo "$out" >&2
  echo "engine_allocations: reactor-bench engine failed" >&2
  exit 1
}
if grep -q "ERROR OCCURRED" <<<"$out"; then
  echo "$out" >&2
  exit 1
fi

failed=0
while read -r name figure; do
  measured=$(awk -v n="$name" '$1 == n || $1 == n "/real_time" {
    for (i = 2; i <= NF; ++i) if ($i ~ /^allocs_per_step=/) { sub(/.*=/, "", $i); print $i }
  }' <<<"$out")
  if [[ -z $measured ]]; then
    echo "engine_allocations: $name did not run (is it still in bench/engine.cpp?)" >&2
    failed=1
    continue
  fi
  read -r limit verdict < <(awk -v m="$measured" -v f="$figure" \
    'BEGIN { print f + 1, (m <= f + 1) ? "ok" : "over" }')
  echo "$name: $measured allocations per step (recorded $figure, at most $limit): $verdict"
  [[ $verdict == ok ]] || failed=1
done <<<"$recorded"
exit "$failed"
