#!/usr/bin/env bash
# Fails when code in src/ outgrows what a reader takes in at once (issue 29, item 3): a function
# over 60 lines, a source file over 450, a class with more than 26 member functions. Functions
# and classes are found by Universal Ctags (Debian's universal-ctags); a class that only
# implements an interface of the store (one override a method) or the public fluent Builder is
# listed below and held to nothing. Prints every offender.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

ctags=$(command -v ctags-universal || command -v ctags || true)
[[ -n $ctags ]] || { echo "check_sizes: universal-ctags is not installed (scripts/deps.sh)" >&2; exit 1; }

max_function=60
max_file=450
max_members=26
# Classes whose size is their interface's: every store interface method once (RunStore,
# JobQueue, Leases, MapStore, ScheduleStore), and the public Builder's fluent calls.
exempt='^reactor::(Builder|RedisBackend|SqliteBackend|MemoryBackend|BackendWrapper|MeteredBackend)$'

fail=0
while read -r lines where name; do
  echo "check_sizes: $where: $name is $lines lines (at most $max_function)"
  fail=1
done < <("$ctags" -R --languages=C++ --kinds-C++=f --fields=+ne -x \
  --_xformat='%{end} %{line} %{input}:%{line} %{name}' src |
  awk -v max="$max_function" '{ n = $1 - $2 + 1; if (n > max) print n, $3, $4 }')

while read -r lines file; do
  [[ $file == total ]] && continue
  echo "check_sizes: $file is $lines lines (at most $max_file)"
  fail=1
done < <(find src -name '*.[ch]pp' -print0 | xargs -0 wc -l | awk -v max="$max_file" '$1 > max')

while read -r members class; do
  [[ $class =~ $exempt ]] && continue
  echo "check_sizes: class $class has $members member functions (at most $max_members)"
  fail=1
done < <("$ctags" -R --languages=C++ --kinds-C++=fp -x --_xformat='%{scopeKind} %{scope} %{name}' src |
  awk '$1 == "class" || $1 == "struct"' | sort -u |
  awk -v max="$max_members" '{ c[$2]++ } END { for (k in c) if (c[k] > max) print c[k], k }')

if ((fail)); then
  echo "check_sizes: FAILED"
  exit 1
fi
echo "check_sizes: no function over $max_function lines, no file over $max_file, no class over $max_members member functions"
