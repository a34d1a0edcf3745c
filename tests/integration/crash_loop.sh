#!/usr/bin/env bash
# Crash loops end, whatever crashed (issue 30): a Tally run whose map's collect() kills its
# worker with SIGSEGV — outside any step body, where max_interrupted_executions cannot see it —
# takes down exactly three workers, one delivery each (the default
# max_deliveries_without_progress); the fourth delivery fails it with poison_delivery, reading
# its header alone, and removes its job. Runs beside it complete, and so does one started after.
# Each dead worker is replaced, as a supervisor would.
reactor=$1  # crash-loop-cli
source "$(dirname "$0")/worker_env.sh"
ulimit -c 0

poisoned=$(start_background Tally '{"n": 2, "crash_in_collect": true}')
beside=$(start_background Tally '{"n": 3}')
echo_before=$(start_background Echo '{"text": "before"}')
worker
deaths=0
deadline=$((SECONDS + 90))
while [[ $(status_of "$poisoned") != failed ]] && ((SECONDS < deadline)); do
  for p in "${pids[@]}"; do
    if ! kill -0 "$p" 2>/dev/null; then
      wait "$p" 2>/dev/null || true  # reaped, then forgotten
      kept=()
      for q in "${pids[@]}"; do [[ $q == "$p" ]] || kept+=("$q"); done
      pids=("${kept[@]}")
      deaths=$((deaths + 1))
      worker
    fi
  done
  sleep 0.1
done
"$reactor" --storage "$db" show "$poisoned"
[[ $(status_of "$poisoned") == failed ]] || bad "the poisoned run did not fail in time"
[[ $(error_kind_of "$poisoned") == poison_delivery ]] ||
  bad "the poisoned run did not fail with poison_delivery"
"$reactor" --storage "$db" show "$poisoned" | grep -q "3 deliveries in a row ended without progress" ||
  bad "the error does not say how many deliveries ended without progress"
[[ $deaths -eq 3 ]] || bad "$deaths workers died, expected exactly 3 (the limit)"
wait_no_jobs "$poisoned" || bad "the poisoned run's job was left behind"
"$reactor" --storage "$db" runs --status failed | grep -q "$poisoned" ||
  bad "runs --status failed does not list the poisoned run"

wait_completed "$beside" || bad "the run beside it did not complete"
"$reactor" --storage "$db" show "$beside" | grep -q '"sum":3' || bad "the run beside it did not sum to 3"
wait_completed "$echo_before" || bad "the Echo run did not complete"
after=$(start_background Echo '{"text": "after"}')
wait_completed "$after" || bad "a run started after it did not complete"
for p in "${pids[@]}"; do
  kill -0 "$p" 2>/dev/null || bad "worker $p died after the run was failed"
done
exit $fail
