#!/usr/bin/env bash
# Checks that each Lua script given reads no global but those Redis provides and sets none, by
# the listing luac gives (luac5.1 -l: GETGLOBAL and SETGLOBAL name theirs). A helper a script
# uses without including it shows up here, long before a call that reaches it fails in Redis
# ("Script attempted to access nonexistent global variable").
#
#   lua_globals.sh LUAC SCRIPT...
set -euo pipefail
[[ $# -ge 2 ]] || { echo "usage: $0 LUAC SCRIPT..." >&2; exit 2; }
luac=$1
shift
# Redis's own (redis, KEYS, ARGV) and the libraries it loads for scripts.
allowed=" ARGV KEYS redis string math table tonumber tostring type unpack ipairs pairs next select
  error assert pcall xpcall cjson cmsgpack bit struct "
allowed=${allowed//$'\n'/ }
status=0
for script in "$@"; do
  listing=$("$luac" -p -l "$script") || { echo "$script: does not parse" >&2; status=1; continue; }
  while read -r op name; do
    if [[ $op == SETGLOBAL || $allowed != *" $name "* ]]; then
      echo "$script: $op $name" >&2
      status=1
    fi
  done < <(sed -nE 's/.*\t(GETGLOBAL|SETGLOBAL)\t.*; (.*)$/\1 \2/p' <<<"$listing" | sort -u)
done
[[ $status -eq 0 ]] && echo "lua_globals.sh: $# scripts read only Redis's globals"
exit $status
