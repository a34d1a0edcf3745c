#!/usr/bin/env bash
# `reactor worker --metrics 127.0.0.1:PORT`: after a known workload (3 OrderSaga runs that
# complete, 1 whose card is declined and fails) a scrape with curl is valid Prometheus text
# with exactly those counts (promtool check metrics passes it), and the store, sweeper and queue
# metrics; a second worker asking for the same port exits 2 naming it, before it takes any run.
reactor=$1
source "$(dirname "$0")/worker_env.sh"
export REACTOR_DEMO_STEP_MS=10

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
port=$(free_port)
runs=()
for order in 1 2 3 10; do runs+=("$(start_order "$order")"); done
worker --metrics "127.0.0.1:$port"
wait_ended() {
  for _ in $(seq 1 300); do
    case $(status_of "$1" 2>/dev/null) in completed | failed) return 0 ;; esac
    sleep 0.1
  done
  return 1
}
for run in "${runs[@]}"; do wait_ended "$run" || { echo "metrics_worker: run $run did not end" >&2; exit 1; }; done

# metric NAME LABELS: the sample's value in the scrape ('' when absent).
scrape() { curl -fsS --max-time 5 "http://127.0.0.1:$port/metrics" >"$dir/scrape.txt"; }
metric() { awk -v want="$1$2" '$1 == want { print $2 }' "$dir/scrape.txt"; }
fail=0
expect() {  # NAME LABELS VALUE
  local got
  got=$(metric "$1" "$2")
  [[ $got == "$3" ]] || { echo "metrics_worker: $1$2 is '$got', expected $3" >&2; fail=1; }
}
scrape || { echo "metrics_worker: the scrape failed" >&2; exit 1; }
curl -fsS -o /dev/null -w '%{content_type}\n' "http://127.0.0.1:$port/metrics" |
  grep -qx 'text/plain; version=0.0.4; charset=utf-8' ||
  { echo "metrics_worker: wrong Content-Type" >&2; fail=1; }
# Prometheus' own check of the text format and its naming conventions.
promtool check metrics <"$dir/scrape.txt" >"$dir/promtool.txt" 2>&1 ||
  { echo "metrics_worker: promtool check metrics refuses the scrape:" >&2; cat "$dir/promtool.txt" >&2; fail=1; }
# Every line a HELP, a TYPE or a sample "name{labels} value".
if grep -vE '^(# (HELP|TYPE) [a-zA-Z_:][a-zA-Z0-9_:]* .*|[a-zA-Z_:][a-zA-Z0-9_:]*(\{([a-zA-Z_][a-zA-Z0-9_]*="([^"\\]|\\.)*",?)*\})? [-+0-9.eEInfNa]+)$' \
    "$dir/scrape.txt" >"$dir/bad.txt"; then
  echo "metrics_worker: lines not in the text format:" >&2; cat "$dir/bad.txt" >&2; fail=1
fi
expect reactor_runs_finished_total '{reactor="OrderSaga",status="completed"}' 3
expect reactor_runs_finished_total '{reactor="OrderSaga",status="failed"}' 1
expect reactor_runs_started_total '{reactor="OrderSaga"}' 4
expect reactor_run_duration_seconds_count '{reactor="OrderSaga",status="completed"}' 3
[[ -n $(metric reactor_store_requests_total '{operation="fetch",outcome="ok"}') ]] ||
  { echo "metrics_worker: no store request counted" >&2; fail=1; }
[[ -n $(metric reactor_queue_jobs '{queue="OrderSaga",state="ready"}') ]] ||
  { echo "metrics_worker: no queue depth" >&2; fail=1; }
grep -q '^reactor_sweeper_passes_total ' "$dir/scrape.txt" ||
  { echo "metrics_worker: no sweeper passes" >&2; fail=1; }
if grep -q 'run_id=' "$dir/scrape.txt"; then echo "metrics_worker: a run id as a label" >&2; fail=1; fi

refused=0
timeout 10 "$reactor" --storage "$db" worker --metrics "127.0.0.1:$port" 2>"$dir/refused.log" ||
  refused=$?
[[ $refused -eq 2 ]] || { echo "metrics_worker: a port in use exited $refused, expected 2" >&2; fail=1; }
grep -q "port $port .*in use" "$dir/refused.log" ||
  { echo "metrics_worker: the refusal does not name the port:" >&2; cat "$dir/refused.log" >&2; fail=1; }
if ((fail)); then echo "--- scrape" >&2; cat "$dir/scrape.txt" >&2; exit 1; fi
echo "metrics_worker: the scrape parses and counts 3 completed and 1 failed run; a port in use exits 2"
