#!/usr/bin/env bash
# Runs every libFuzzer target (tests/fuzz/README.md) in turn for SECONDS each (default 600), one
# at a time, one job each, in-process (the machine is shared; -jobs=N would fork N), new inputs
# into a scratch directory with the corpus as seeds, and prints what each run did: executions
# and findings.
#
#   tests/fuzz/fuzz_all.sh [SECONDS] [BUILD_DIR] [TARGET...]
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
seconds=${1:-600}
build=${2:-build/fuzz}
shift $(($# > 2 ? 2 : $#))
targets=("$@")
[[ ${#targets[@]} -gt 0 ]] ||
  targets=(step_row trace_event inputs header_row redis_header stored_run slot_record snapshot run_result
    slot_body unit_slot)
out=${FUZZ_OUT:-/tmp/reactor-fuzz}
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
for target in "${targets[@]}"; do
  binary=$build/fuzz/reactor-fuzz-$target
  [[ -x $binary ]] || { echo "fuzz_all: no $binary (build the reactor_fuzzers target)" >&2; exit 2; }
  mkdir -p "$out/$target"
  start=$SECONDS
  "$binary" -max_total_time="$seconds" -rss_limit_mb=4096 -max_len=65536 \
    -timeout=30 -print_final_stats=1 -artifact_prefix="$out/$target-" \
    "$out/$target" "tests/data/fuzz/$target" >"$out/$target.log" 2>&1
  rc=$?
  execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$out/$target.log" | grep -o '[0-9]*$')
  findings=$(find "$out" -maxdepth 1 \( -name "$target-crash-*" -o -name "$target-leak-*" -o \
    -name "$target-timeout-*" -o -name "$target-oom-*" \) | wc -l)
  echo "fuzz_all: $target: $((SECONDS - start)) s, ${execs:-?} executions, exit $rc, $findings findings"
done
