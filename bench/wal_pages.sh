#!/usr/bin/env bash
# The WAL pages a SQLite workload writes, by table, counted rather than timed: runs a
# reactor-bench subcommand on a fresh database under strace, reads each WAL frame's header from
# its pwrite64 (the page number; a non-zero database size marks a commit's last frame), and maps
# the pages to their tables or indexes with SQLite's dbstat table (pages freed since count as
# "(freed)", the database header as "page1").
#
#   bench/wal_pages.sh --per N [--bin BIN] SUBCOMMAND [ARGS...]
#   bench/wal_pages.sh --per 150 w1 -n 30 --workers 1          # 30 five-step sagas: per step
#   bench/wal_pages.sh --per 500 map --workers 1 --count 500   # per element
#
# Needs strace and python3 (Debian packages). BIN defaults to build/release/reactor-bench.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
bin=$ROOT/build/release/reactor-bench per=
while [[ $# -gt 0 ]]; do
  case $1 in
    --per) per=$2; shift 2 ;;
    --bin) bin=$2; shift 2 ;;
    -h|--help) sed -n '2,12p' "$0"; exit 0 ;;
    *) break ;;
  esac
done
[[ -n $per && $# -gt 0 ]] || { echo "usage: bench/wal_pages.sh --per N [--bin BIN] SUBCOMMAND [ARGS...]" >&2; exit 2; }
for tool in strace python3; do
  command -v "$tool" >/dev/null || { echo "wal_pages.sh: needs $tool (apt-get install $tool)" >&2; exit 1; }
done
work=$(mktemp -d "${TMPDIR:-/tmp}/reactor-wal-pages.XXXXXX")
trap 'rm -rf "$work"' EXIT
strace -f -xx -s 8 -e trace=pwrite64 -o "$work/strace.log" \
  "$bin" "$@" --storage "sqlite://$work/bench.db" >"$work/bench.log" 2>&1 ||
  { cat "$work/bench.log" >&2; exit 1; }
python3 - "$work/strace.log" "$work/bench.db" "$per" <<'PY'
import collections, re, sqlite3, sys
log, db, per = sys.argv[1], sys.argv[2], int(sys.argv[3])
frame = re.compile(r'pwrite64\(\d+, "((?:\\x[0-9a-f]{2})+)"(?:\.\.\.)?, 24,')
pages, commits = collections.Counter(), 0
for line in open(log):
    m = frame.search(line)
    if not m:
        continue
    header = bytes(int(h, 16) for h in m.group(1).split('\\x')[1:])
    pages[int.from_bytes(header[0:4], 'big')] += 1
    commits += int.from_bytes(header[4:8], 'big') != 0
names = {p: n for p, n in sqlite3.connect(db).execute('SELECT pageno, name FROM dbstat')}
tables = collections.Counter()
for page, n in pages.items():
    tables[names.get(page, 'page1' if page == 1 else '(freed)')] += n
total = sum(pages.values())
print(f'wal_frames_per_unit={total / per:.2f} frames={total} commits={commits} units={per}')
for name, n in tables.most_common():
    print(f'  {name:32s} {n / per:6.2f}')
PY
