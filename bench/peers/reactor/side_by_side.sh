#!/usr/bin/env bash
# The peer benchmark with Reactor as a contender, plus the baseline its W1 figure is judged by:
# the commit-script calls/s of a Redis configured like the harness's, measured just before and
# just after the harness run (`reactor-bench redis-commit`, 2 connections).
#
#   bench/peers/reactor/side_by_side.sh [run.sh options...]
#   e.g. bench/peers/reactor/side_by_side.sh --workloads W1,W3,W4
#        bench/peers/reactor/side_by_side.sh --only reactor --workloads W1 --reps 1
#
# Environment: REACTOR_BENCH_BIN (default: reactor-bench beside REACTOR_BIN when that is set,
# else build/release/reactor-bench of this tree), PEERS (the harness, default
# $ROOT/../shared/bench/peers beside this project; it is copied, never written). Prints where
# the results are.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
if [ -n "${REACTOR_BIN:-}" ]; then
  REACTOR_BENCH_BIN=${REACTOR_BENCH_BIN:-$(dirname "$REACTOR_BIN")/reactor-bench}
fi
REACTOR_BENCH_BIN=${REACTOR_BENCH_BIN:-$ROOT/build/release/reactor-bench}
PEERS=${PEERS:-$ROOT/../shared/bench/peers}
[ -x "$REACTOR_BENCH_BIN" ] ||
  { echo "no reactor-bench binary at $REACTOR_BENCH_BIN (build the release preset)" >&2; exit 1; }
[ -x "$PEERS/run.sh" ] || { echo "no peer harness at $PEERS (set PEERS)" >&2; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/reactor-peers.XXXXXX")
cp -r "$PEERS" "$work/" && chmod -R u+w "$work"
mkdir -p "$work/peers/contenders/reactor"
cp "$ROOT/bench/peers/reactor/contender" "$work/peers/contenders/reactor/"

# A private Redis like the harness's (AOF, fsync every second, no RDB, a password), stopped by
# PID on every path.
redis_dir="$work/baseline-redis"
trap 'bash "$ROOT/tests/support/redis_server.sh" stop "$redis_dir" >/dev/null 2>&1 || true' EXIT
baseline() {
  bash "$ROOT/tests/support/redis_server.sh" start "$redis_dir" 2>/dev/null
  "$REACTOR_BENCH_BIN" redis-commit --storage "$(cat "$redis_dir/url")" --connections 2 | tee -a "$work/baseline.txt"
  bash "$ROOT/tests/support/redis_server.sh" stop "$redis_dir" 2>/dev/null
}

echo "== baseline before: reactor-bench redis-commit" | tee "$work/baseline.txt"
baseline
echo "== peers harness: $work/peers/run.sh $*"
set +e
REACTOR_BENCH_BIN=$REACTOR_BENCH_BIN "$work/peers/run.sh" "$@"
rc=$?
set -e
echo "== baseline after: reactor-bench redis-commit" | tee -a "$work/baseline.txt"
baseline

/usr/bin/python3 - "$work" <<'PY'
import json, re, statistics, sys
work = sys.argv[1]
rates = [float(x) for x in re.findall(r"redis_commit_calls_per_s=([0-9.]+)", open(work + "/baseline.txt").read())]
res = json.load(open(work + "/peers/results.json"))
w1 = res.get("summary", {}).get("reactor", {}).get("W1")
print(f"commit-script calls/s before / after: {' / '.join(f'{r:,.0f}' for r in rates)}")
if rates and w1 and w1.get("sagas_per_s"):
    limit = statistics.mean(rates) / 5.0
    print(f"W1 limit (mean rate / 5 commits per saga): {limit:,.0f} sagas/s; Reactor W1 (median): "
          f"{w1['sagas_per_s']:,.0f} sagas/s = {w1['sagas_per_s'] / limit:.2f} x the limit")
    if max(rates) > 1.5 * min(rates):
        print("WARNING: the two baseline rates differ by more than 1.5x; the ratio divides figures "
              "from different conditions")
# Each Reactor worker reports on SIGTERM its durable steps and the requests it
# made to Redis (counted in its client: start-up, idle waits, heartbeats and
# sweeps included, over the worker's whole life rather than the harness's window).
import glob
for workload in ("W1", "W3", "W4"):
    steps = requests = 0
    for log in glob.glob(f"{work}/peers/logs/reactor-{workload}-r*-worker*.log"):
        for m in re.finditer(r"and (\d+) durable steps; (\d+) requests to the store", open(log).read()):
            steps += int(m.group(1))
            requests += int(m.group(2))
    if steps:
        print(f"Reactor {workload}: {requests:,} requests to Redis for {steps:,} durable steps = "
              f"{requests / steps:.2f} per durable step (the workers' own count)")
PY
echo "results: $work/peers/results.json  logs: $work/peers/logs  baseline: $work/baseline.txt"
exit $rc
