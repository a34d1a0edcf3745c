#!/usr/bin/env bash
# Tracing across processes (docs/observability.md, "Tracing"): TracedTrip
# (tests/tracing/tracing_cli.cpp) started in the background under a caller's traceparent, run by two
# worker processes — a retry, a fan-out map of 3 elements, an async unit — every process exporting
# to otlp-receiver. Then: every span is in the caller's trace, every parent id is the caller's span
# or a span that was sent, the run's span hangs from the caller's span, each element's and the
# unit's run span from the run's span, and workers' spans name their worker and fencing token. Last,
# the same run with every process exporting to a dead endpoint ends with the same value.
#
#   tracing.sh TRACING_CLI OTLP_RECEIVER
reactor=$1 receiver=$2
source "$(dirname "$0")/../integration/worker_env.sh"

"$receiver" "$dir/port" "$dir/bodies" 2>>"$dir/receiver.log" &
pids+=($!)
for _ in $(seq 1 200); do
  [[ -s $dir/port ]] && break
  sleep 0.05
done
[[ -s $dir/port ]] || { echo "tracing.sh: otlp-receiver did not start" >&2; exit 1; }
endpoint=http://127.0.0.1:$(cat "$dir/port")
caller_trace=4bf92f3577b34da6a3ce929d0e0e4736 caller_span=00f067aa0ba902b7

worker --otlp-endpoint "$endpoint"
worker --otlp-endpoint "$endpoint"
workers=("${pids[@]:1}")
id=$("$reactor" --storage "$db" start TracedTrip --input '{"items": [1, 2, 3]}' --background \
  --traceparent "00-$caller_trace-$caller_span-01" --otlp-endpoint "$endpoint")
[[ -n $id ]] || bad "start printed no run id"
wait_completed "$id" || bad "TracedTrip $id did not complete"
value=$("$reactor" --storage "$db" show "$id" --json | jq -c .value)
[[ $value == '{"legs":[10,20,30],"notify":"notified"}' ]] || bad "TracedTrip's value is $value"
# A graceful stop flushes each worker's spans.
for p in "${workers[@]}"; do
  stop_worker "$p" TERM
  [[ $stopped_rc -eq 0 ]] || bad "worker $p exited $stopped_rc"
done

jq -c '.resourceSpans[].scopeSpans[].spans[]' "$dir/bodies" >"$dir/spans" ||
  bad "the receiver got a body that is no OTLP JSON"
# kind name attempt parent span trace worker token outcome, one line per span (a span's name is
# "<kind> <reactor or step>")
jq -r '[.name, ((.attributes[] | select(.key == "reactor.attempt") | .value.intValue) // "-"),
        (.parentSpanId // "-"), .spanId, .traceId,
        ((.attributes[] | select(.key == "reactor.worker") | .value.stringValue) // "-"),
        ((.attributes[] | select(.key == "reactor.fencing_token") | .value.intValue) // "-"),
        ((.attributes[] | select(.key == "reactor.outcome") | .value.stringValue) // "-")]
       | join(" ")' "$dir/spans" >"$dir/table"
has() { grep -Eq "$1" "$dir/table" || bad "no span $2"; }
has "^run TracedTrip - $caller_span [0-9a-f]{16} $caller_trace .* completed$" \
  "of the run under the caller's span"
has "^step reserve 1 .* retry$" "of reserve's first attempt, a retry"
has "^step reserve 2 .* success$" "of reserve's second attempt"
has "^step close 1 .* success$" "of close"
[[ $(grep -c "^run TracedLeg " "$dir/table") -eq 3 ]] || bad "not one run span per element"
[[ $(grep -Ec "^step legs\[[0-2]\]/book 1 " "$dir/table") -eq 3 ]] || bad "not one book span per element"
has "^step notify\[0\]/notify 1 " "of the async unit's step"
# One trace; every parent is the caller's span or a span that was sent.
[[ $(awk '{ print $6 }' "$dir/table" | sort -u) == "$caller_trace" ]] || bad "spans of more than one trace"
awk '{ print $5 }' "$dir/table" | sort -u >"$dir/ids"
awk -v caller="$caller_span" '$4 != caller && $4 != "-" { print $4 }' "$dir/table" | sort -u >"$dir/parents"
missing=$(comm -23 "$dir/parents" "$dir/ids")
[[ -z $missing ]] || bad "parents that no span has: $missing"
run_span=$(awk '$1 == "run" && $2 == "TracedTrip" { print $5 }' "$dir/table" | head -1)
[[ $(awk -v p="$run_span" '$1 == "run" && $2 == "TracedLeg" && $4 == p' "$dir/table" | wc -l) -eq 3 ]] ||
  bad "the elements' run spans do not hang from the run's span"
# Work done by the workers names them and the lease it held.
awk '$1 == "step" && $2 == "close" && $7 != "-" && $8 > 0' "$dir/table" | grep -q . ||
  bad "close's span names no worker and fencing token"
if ((fail)); then cat "$dir/table" >&2; fi

# A dead endpoint: the same run, the same value.
dead=http://127.0.0.1:1
worker --otlp-endpoint "$dead"
id2=$("$reactor" --storage "$db" start TracedTrip --input '{"items": [1, 2, 3]}' --background \
  --otlp-endpoint "$dead")
wait_completed "$id2" || bad "TracedTrip $id2 did not complete with a dead endpoint"
value2=$("$reactor" --storage "$db" show "$id2" --json | jq -c .value)
[[ $value2 == "$value" ]] || bad "with a dead endpoint the value is $value2, not $value"
stop_worker "${pids[-1]}" TERM
[[ $stopped_rc -eq 0 ]] || bad "the worker of the dead endpoint exited $stopped_rc"

# A malformed traceparent is a usage error, and stores nothing.
refused "a malformed traceparent" "traceparent" --storage "$db" start TracedTrip \
  --input '{"items": []}' --traceparent 00-abc --id tp-bad
"$reactor" --storage "$db" show tp-bad >/dev/null 2>&1 && bad "a refused start stored run tp-bad"
exit $fail
