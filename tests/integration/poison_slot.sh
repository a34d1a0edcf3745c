#!/usr/bin/env bash
# A stored value that crashed every worker after it (issue 30): a failed slot of a waiting
# FanOutSum map whose error's details nest 1,000,000 levels deep (2 MB), planted in the store
# while the map's last element runs. Before, every worker that delivered the owner's resume died
# of a stack overflow (SIGSEGV), one after the other, and the run stayed waiting for ever. Now
# the slot is read through the codec's depth-limited reader: the owner fails with
# corrupt_record, no worker dies, and a following good run completes.
reactor=$1
source "$(dirname "$0")/worker_env.sh"
ulimit -c 0

# Two elements of 1.5 s each, one at a time: slot 0 is filed while element 1 still runs.
owner=$(start_background FanOutSum '{"count": 2, "batch_size": 1, "step_ms": 1500}')
worker
worker
planted=0
for _ in $(seq 1 200); do
  if [[ $(store_map_slots "$owner:sum") == "0 completed" ]]; then
    store_deep_failed_slot "$owner:sum" 0 1000000 && planted=1
    break
  fi
  sleep 0.05
done
((planted)) || bad "slot 0 of the map was never filed alone, or could not be rewritten"
[[ $(store_map_slots "$owner:sum" | head -1) == "0 failed" ]] || bad "the planted slot is not failed"

wait_status "$owner" failed || bad "the owner did not fail (status $(status_of "$owner"))"
"$reactor" --storage "$db" show "$owner"
[[ $(error_kind_of "$owner") == corrupt_record ]] || bad "the owner did not fail with corrupt_record"
wait_no_jobs "$owner" || bad "the owner's job was left behind"
for p in "${pids[@]}"; do
  kill -0 "$p" 2>/dev/null || bad "worker $p died"
done

good=$(start_background FanOutSum '{"count": 3, "batch_size": 3}')
wait_completed "$good" || bad "a good run after it did not complete"
"$reactor" --storage "$db" show "$good" | grep -q '"sum":9' || bad "the good run's sum is not 9"
for p in "${pids[@]}"; do
  kill -0 "$p" 2>/dev/null || bad "worker $p died"
done
exit $fail
