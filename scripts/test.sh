#!/usr/bin/env bash
# Full local/CI test run, every test once:
#  1. release: the programs (reactor, reactor-bench, travel-cli) and the process-level tests
#     that drive them — integration, docs, benchmark smoke tests, the checks of scripts;
#  2. ASan/UBSan: the unit and conformance suites (every backend; a ctest test per GoogleTest
#     suite, cmake/test_suites.cmake) and the fuzz corpora;
#  3. ThreadSanitizer: the thread-centred tests.
# Each stage is a unity build (CMAKE_UNITY_BUILD; REACTOR_UNITY=OFF for one file a translation
# unit): it halves the compile time that dominates this script on 2 cores.
# Add a stage: call run_stage <preset> <build target or "all"> [extra ctest args...].
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

JOBS=${REACTOR_JOBS:-2}
UNITY=${REACTOR_UNITY:-ON}

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

log() { printf '\n=== test.sh: %s\n' "$*"; }

# ---------------------------------------------------------------------------------------------
# Services hook. start_services starts external services (e.g. redis-server on a free loopback
# port), exports their connection settings for the tests, and appends each PID to SERVICE_PIDS;
# stop_services (run from the EXIT trap) stops exactly those PIDs.
# ---------------------------------------------------------------------------------------------
SERVICE_PIDS=()
SERVICE_DIR=""

# One private redis-server (tests/support/redis_server.sh: free loopback port, random password,
# AOF, stopped by PID) for test binaries run outside ctest; ctest runs start their own through
# the "redis" fixture, and REACTOR_TEST_REDIS_URL points every Redis test at this one.
start_services() {
  SERVICE_DIR=$(mktemp -d)
  bash tests/support/redis_server.sh start "$SERVICE_DIR/redis"
  REACTOR_TEST_REDIS_URL=$(cat "$SERVICE_DIR/redis/url")
  export REACTOR_TEST_REDIS_URL
}

stop_services() {
  # The launcher stops the server by the PID it recorded, after checking it is still ours.
  if [[ -n $SERVICE_DIR ]]; then
    bash tests/support/redis_server.sh stop "$SERVICE_DIR/redis" || true
    rm -rf "$SERVICE_DIR"
    SERVICE_DIR=""
  fi
  local pid
  for pid in "${SERVICE_PIDS[@]}"; do
    if kill -0 "$pid" 2>/dev/null; then
      kill "$pid" 2>/dev/null || true
    fi
  done
  SERVICE_PIDS=()
}

on_exit() {
  local rc=$?
  stop_services
  if [[ $rc -ne 0 ]]; then
    echo "test.sh: FAILED (exit $rc)" >&2
  fi
  exit "$rc"
}
trap on_exit EXIT

# run_stage <preset> <"target ..."|all> [ctest args...]  (several targets: one space-separated word)
run_stage() {
  local preset=$1 target=$2
  shift 2
  local start=$SECONDS
  log "[$preset] configure"
  cmake --preset "$preset" -DCMAKE_UNITY_BUILD="$UNITY"
  log "[$preset] build ($target)"
  if [[ $target == all ]]; then
    cmake --build --preset "$preset" -j"$JOBS"
  else
    # shellcheck disable=SC2086  # split on purpose: one word may name several targets
    cmake --build --preset "$preset" -j"$JOBS" --target $target
  fi
  log "[$preset] test"
  ctest --preset "$preset" --output-on-failure -j"$JOBS" "$@"
  log "[$preset] passed in $((SECONDS - start))s"
}

# run_binary_stage <preset> <target>: builds one test binary and runs it directly (no ctest).
run_binary_stage() {
  local preset=$1 target=$2
  local start=$SECONDS
  log "[$preset] configure"
  cmake --preset "$preset" -DCMAKE_UNITY_BUILD="$UNITY"
  log "[$preset] build ($target)"
  cmake --build --preset "$preset" -j"$JOBS" --target "$target"
  log "[$preset] test ($target)"
  "build/$preset/$target" --gtest_brief=1
  log "[$preset] passed in $((SECONDS - start))s"
}

bash scripts/deps.sh
# The layers of docs/architecture.md: an include that goes up a layer fails the run at once.
bash scripts/check_layers.sh
bash scripts/check_sizes.sh
start_services

# The unit and conformance suites run once, in the ASan stage: the release stage builds what the
# process-level tests run.
run_stage release process_test_programs -LE "unit|conformance|fuzz" -E "_NOT_BUILT$"
# The sanitizer presets compile with line tables only (-g1), ASan at -O0: its build takes half
# the time it took at -O1 -g on 2 cores (the longest part of this script), its tests a few
# seconds more.
# Each test process appends the rows of the run machine it took (tests/support/transition_log.hpp);
# every row must have been taken, and no illegal event sent (scripts/check_transitions.sh).
rm -f build/asan/transitions.log
run_stage asan "reactor_unit_tests reactor_conformance_tests reactor_fuzz_replay" -LE integration
bash scripts/check_transitions.sh build/asan/transitions.log
TSAN_OPTIONS=${TSAN_OPTIONS:-halt_on_error=1:second_deadlock_stack=1} \
  run_binary_stage tsan reactor_concurrency_tests

echo "test.sh: all stages passed"
