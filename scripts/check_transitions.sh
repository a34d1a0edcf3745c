#!/usr/bin/env bash
# Transition coverage of the run's and the step's state machines (src/base/run_machine.hpp,
# step_machine.hpp), as Temporal's sdk-core checks its machines: sums the lines the test
# processes appended to LOG (tests/support/transition_log.hpp) and fails on a row of a table no
# test took, or on any event a table does not allow. Usage: check_transitions.sh LOG
set -euo pipefail
log=${1:?usage: check_transitions.sh LOG}
[[ -s $log ]] || { echo "check_transitions: $log is empty: no test process wrote to it" >&2; exit 1; }
awk '
  { for (i = 1; i <= NF; ++i) { split($i, kv, "="); sum[kv[1]] += kv[2]; if (!(kv[1] in seen)) { seen[kv[1]] = 1; order[++n] = kv[1] } } }
  END {
    bad = 0
    for (k = 1; k <= n; ++k) {
      row = order[k]
      if (row == "illegal") continue
      if (sum[row] == 0) { print "check_transitions: never taken: " row; bad = 1 }
    }
    if (sum["illegal"] > 0) { print "check_transitions: " sum["illegal"] " illegal events"; bad = 1 }
    if (bad) exit 1
    runs = 0; steps = 0
    for (k = 1; k <= n; ++k) { if (order[k] ~ /^run:/) ++runs; if (order[k] ~ /^step:/) ++steps }
    printf "check_transitions: every row of the run machine (%d) and the step machine (%d) taken, %d processes\n", runs, steps, NR
  }' "$log"
