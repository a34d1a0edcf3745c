#!/usr/bin/env bash
# What a workload costs Redis, counted rather than timed: the instructions redis-server executes
# per saga, under callgrind. On a shared or virtual machine the CPU time of a run moves by a
# quarter from one run to the next; the instruction count of the same run moves by about 1 %,
# so two builds compared this way show what a change saves Redis even when their throughput
# cannot be told apart. It measures Redis's work only, not the waits between processes that a
# latency figure also holds.
#
#   bench/peers/reactor/redis_cost.sh [--workload W1|W4] [--sagas N] [--phases] [BIN...]
#
# Each BIN (default: build/release/reactor-bench of this tree) runs the harness's workload (two
# workers with the contender's flags, the producer) against its own redis-server started under
# `valgrind --tool=callgrind` (Debian package valgrind), configured like the harness's (AOF,
# fsync every second). Counting starts when both workers are ready and ends when the last
# saga is done. --phases (W1 only) also counts, on another fresh server, the producer's creates
# alone; what the workers did (fetches and commits) is the difference. Prints per BIN and phase:
#   redis_instructions_per_saga=<n> bin=<BIN> workload=<W> phase=<all|create|run>
# A BIN from before reactor-bench (a `reactor` binary with `worker --bench-ready` and
# `bench peers-produce`) is run that way, so that a comparison can span the move.
# The server's profiles stay in the work directory for callgrind_annotate.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)
workload=W1 sagas=300 phases=0 bins=()
while [[ $# -gt 0 ]]; do
  case $1 in
    --workload) workload=$2; shift 2 ;;
    --sagas) sagas=$2; shift 2 ;;
    --phases) phases=1; shift ;;
    -h|--help) sed -n '2,22p' "$0"; exit 0 ;;
    *) bins+=("$1"); shift ;;
  esac
done
[[ $workload == W1 || $workload == W4 ]] || { echo "redis_cost.sh: --workload W1 or W4" >&2; exit 2; }
# W4's producer waits for each saga to finish before it starts the next, so its creates cannot be
# counted without workers.
[[ $phases -eq 0 || $workload == W1 ]] || { echo "redis_cost.sh: --phases counts W1 only" >&2; exit 2; }
[[ ${#bins[@]} -gt 0 ]] || bins=("$ROOT/build/release/reactor-bench")
for tool in valgrind callgrind_control redis-server redis-cli; do
  command -v "$tool" >/dev/null || { echo "redis_cost.sh: needs $tool (apt-get install valgrind redis-server)" >&2; exit 1; }
done

work=$(mktemp -d "${TMPDIR:-/tmp}/reactor-redis-cost.XXXXXX")
server=  # the valgrind process running redis-server (exec'd, so one PID)
workers=() counted=0
cleanup() {
  [[ ${#workers[@]} -gt 0 ]] && kill "${workers[@]}" 2>/dev/null
  [[ -n $server ]] && kill "$server" 2>/dev/null
  return 0
}
trap cleanup EXIT
trap 'exit 143' INT TERM  # through the EXIT trap

free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# count BIN LABEL MODE: one run against a fresh server; sets `counted` to Redis's instructions
# per saga. Called directly, not in $(...), so the EXIT trap sees the server and workers it
# started.
# MODE all: the workers are started and ready, then the producer, until every saga is done.
# MODE create: the producer alone (no worker starts; it is told two are ready).
count() {
  local bin=$1 label=$2 mode=$3 port password=cost dir
  port=$(free_port)
  dir="$work/$label"
  mkdir -p "$dir"
  printf 'port %s\nbind 127.0.0.1\ndir %s\nappendonly yes\nappendfsync everysec\nsave ""\ndaemonize no\nrequirepass %s\n' \
    "$port" "$dir" "$password" >"$dir/redis.conf"
  (cd "$dir" && exec valgrind --tool=callgrind --callgrind-out-file="$dir/callgrind.out" \
    redis-server "$dir/redis.conf" >"$dir/valgrind.log" 2>&1) &
  server=$!
  local cli=(redis-cli -p "$port" -a "$password" --no-auth-warning)
  for _ in $(seq 1 300); do "${cli[@]}" PING >/dev/null 2>&1 && break; sleep 0.1; done
  local url="redis://:$password@127.0.0.1:$port/0"
  export BENCH_REDIS_URL=$url BENCH_REDIS_HOST=127.0.0.1 BENCH_REDIS_PORT=$port \
    BENCH_REDIS_PASSWORD=$password BENCH_WORKLOAD=$workload BENCH_N=$sagas BENCH_STEPS=5 \
    BENCH_PAD=140 BENCH_STEP_MS=0 BENCH_RECOVERY_S=10
  if [[ $mode == create ]]; then
    "${cli[@]}" SADD bench:ready stand-in-0 stand-in-1 >/dev/null
  else
    for i in 0 1; do
      BENCH_WORKER_INDEX=$i "$bin" --storage "$url" worker --reactors BenchSaga --threads 1 \
        --lease-ttl 10 --sweep-interval 30 --snooze-delay 0.5 --bench-ready >"$dir/worker$i.log" 2>&1 &
      workers+=($!)
    done
    for _ in $(seq 1 600); do [[ $("${cli[@]}" SCARD bench:ready) == 2 ]] && break; sleep 0.1; done
  fi
  callgrind_control --zero "$server" >/dev/null 2>&1
  "$bin" "${produce_cmd[@]}" >"$dir/produce.log" 2>&1
  if [[ $mode == all ]]; then
    # W1's producer returns once every run is enqueued, W4's after its last saga (whose
    # completion records it moves to bench:done:seen).
    done_count() { echo $(($("${cli[@]}" LLEN bench:done) + $("${cli[@]}" LLEN bench:done:seen))); }
    for _ in $(seq 1 6000); do [[ $(done_count) -ge $sagas ]] && break; sleep 0.05; done
    [[ $(done_count) -ge $sagas ]] ||
      { echo "redis_cost.sh: $label: not every saga finished; see $dir" >&2; exit 1; }
  fi
  callgrind_control --dump="$mode" "$server" >/dev/null 2>&1
  if [[ ${#workers[@]} -gt 0 ]]; then
    kill "${workers[@]}" 2>/dev/null
    wait "${workers[@]}" 2>/dev/null || true
  fi
  workers=()
  "${cli[@]}" SHUTDOWN NOSAVE >/dev/null 2>&1 || true
  wait "$server" 2>/dev/null || true
  server=
  local total
  total=$(sed -n 's/^\(summary\|totals\): *\([0-9]*\).*/\2/p' "$dir/callgrind.out.1" | head -1)
  counted=$((total / sagas))
}

n=0
for bin in "${bins[@]}"; do
  [[ -x $bin ]] || { echo "redis_cost.sh: no binary $bin" >&2; exit 1; }
  # reactor-bench has a peers-produce subcommand; a `reactor` from before it, `bench peers-produce`
  # (both take `--storage URL worker ...`).
  if "$bin" --help 2>/dev/null | grep -q '^ *peers-produce '; then
    produce_cmd=(peers-produce)
  else
    produce_cmd=(bench peers-produce)
  fi
  count "$bin" "run$n-all" all
  all=$counted
  echo "redis_instructions_per_saga=$all bin=$bin workload=$workload phase=all"
  if [[ $phases -eq 1 ]]; then
    count "$bin" "run$n-create" create
    create=$counted
    echo "redis_instructions_per_saga=$create bin=$bin workload=$workload phase=create"
    echo "redis_instructions_per_saga=$((all - create)) bin=$bin workload=$workload phase=run"
  fi
  n=$((n + 1))
done
echo "profiles: $work/run*/callgrind.out.1 (callgrind_annotate --inclusive=yes FILE)"
