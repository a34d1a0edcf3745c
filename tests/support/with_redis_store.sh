#!/usr/bin/env bash
# Runs a process test (tests/integration/*.sh) on Redis: REACTOR_TEST_STORAGE is set to an empty
# store of its own, a fresh key prefix (test-NAME-RANDOM/) on the test Redis server, and the keys
# under that prefix are deleted afterwards, whatever the result.
#
#   with_redis_store.sh NAME SCRIPT [ARGS...]
#
# The server is the one REACTOR_TEST_REDIS_URL names, else the one whose URL the ctest fixture
# redis_server_start wrote to REACTOR_TEST_REDIS_URL_FILE. Without either the test fails, saying
# so: it is never skipped.
set -euo pipefail
[[ $# -ge 2 ]] || { echo "usage: $0 NAME SCRIPT [ARGS...]" >&2; exit 2; }
name=$1 script=$2
shift 2

url=${REACTOR_TEST_REDIS_URL:-}
if [[ -z $url && -n ${REACTOR_TEST_REDIS_URL_FILE:-} && -s $REACTOR_TEST_REDIS_URL_FILE ]]; then
  url=$(head -n 1 "$REACTOR_TEST_REDIS_URL_FILE")
fi
if [[ -z $url ]]; then
  echo "with_redis_store.sh: no Redis server for the tests: run them with ctest (the fixture" \
    "redis_server_start starts one and writes its URL to ${REACTOR_TEST_REDIS_URL_FILE:-its url file})," \
    "or set REACTOR_TEST_REDIS_URL=redis://[:password@]host:port/db" >&2
  exit 1
fi
prefix="test-$name-$(od -An -tx1 -N6 /dev/urandom | tr -d ' \n')/"
[[ $url == *\?* ]] && sep='&' || sep='?'
export REACTOR_TEST_STORAGE="$url${sep}prefix=$prefix"

rc=0
bash "$script" "$@" || rc=$?

# The namespace is this run's alone: delete it (store_redis.sh knows how to reach the server).
db=$REACTOR_TEST_STORAGE
source "$(dirname "$0")/../integration/store_redis.sh"
# One script: SCAN in pages, DEL each page (the prefix holds no glob characters).
rcli EVAL "local cursor, n = '0', 0
repeat
  local page = redis.call('SCAN', cursor, 'MATCH', ARGV[1], 'COUNT', 1000)
  cursor = page[1]
  if #page[2] > 0 then n = n + redis.call('DEL', unpack(page[2])) end
until cursor == '0'
return n" 0 "$prefix*" >/dev/null || echo "with_redis_store.sh: could not delete the keys under $prefix" >&2
exit $rc
