#!/usr/bin/env bash
# Writes the stored-record corpus of one build of Reactor into tests/data (tests/data/README.md).
#
#   tests/data/generate/generate.sh COMMIT [--stores sqlite,redis] [--snapshots] [--out DIR]
#
# For COMMIT it makes a detached worktree ($CORPUS_WORKTREE, default
# $CORPUS_WORKTREES/corpus-<short commit>, $CORPUS_WORKTREES defaulting to ../old next to this
# checkout; reused when it is already there at COMMIT), builds the library there (libreactor.a
# only, Release, -j2), and compiles tests/data/generate/corpus_gen.cpp of THIS checkout
# (with tests/data/corpus_reactors.hpp) against that commit's public headers and library. Then:
#
#   sqlite     corpus_gen on a fresh SQLite file; writes DIR/sqlite-schema<N>/ (N: the file's
#              meta.schema_version), store.sql being `sqlite3 FILE .dump`
#   redis      corpus_gen on a private redis-server (tests/support/redis_server.sh, stopped
#              after) under a fresh prefix; writes DIR/redis-layout<N>/ (N: layout_version)
#   snapshots  corpus_gen snapshots; writes DIR/snapshots-v1/
#
# An existing output directory of the same name is replaced. DIR defaults to tests/data.
set -euo pipefail

usage() {
  echo "usage: $0 COMMIT [--stores sqlite,redis] [--snapshots] [--out DIR]" >&2
  exit 2
}
[[ $# -ge 1 ]] || usage
commit_arg=$1
shift
stores=sqlite,redis
snapshots=0
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../../.." && pwd)
out=$repo/tests/data
while [[ $# -gt 0 ]]; do
  case $1 in
    --stores) stores=$2; shift 2 ;;
    --snapshots) snapshots=1; shift ;;
    --out) out=$2; shift 2 ;;
    *) usage ;;
  esac
done
mkdir -p "$out"
out=$(cd "$out" && pwd)

log() { echo "generate.sh: $*" >&2; }

commit=$(git -C "$repo" rev-parse --verify "$commit_arg^{commit}")
short=$(git -C "$repo" rev-parse --short=7 "$commit")
subject=$(git -C "$repo" log -1 --format=%s "$commit")
worktrees=${CORPUS_WORKTREES:-$(dirname "$repo")/old}
wt=${CORPUS_WORKTREE:-$worktrees/corpus-$short}
mkdir -p "$worktrees"
if [[ -d $wt ]]; then
  [[ $(git -C "$wt" rev-parse HEAD) == "$commit" ]] || { log "$wt is not at $commit"; exit 1; }
else
  git -C "$repo" worktree add --detach "$wt" "$commit" >&2
fi

log "building the library of $short ($subject)"
if [[ ! -f $wt/build/build.ninja ]]; then
  cmake -S "$wt" -B "$wt/build" -G Ninja -DCMAKE_BUILD_TYPE=Release >&2
fi
# The library only: in Ninja the name `reactor` is also the path of the command-line binary
# (reactor_cli's output), which would build the CLI and the examples too.
cmake --build "$wt/build" --target libreactor.a -j2 >&2
gen=$wt/build/corpus_gen
log "compiling corpus_gen against it"
# Every package a build of the library may link (later ones added cpp-httplib and simdjson);
# --as-needed drops those an older library does not use.
# shellcheck disable=SC2046
g++ -std=c++20 -O1 -Wall -Wextra -I"$wt/include" -I"$repo/tests/data" \
  "$repo/tests/data/generate/corpus_gen.cpp" -Wl,--as-needed "$wt/build/libreactor.a" \
  $(pkg-config --libs hiredis cpp-httplib simdjson) -lsqlite3 -pthread -o "$gen"

tmp=$(mktemp -d /tmp/reactor-corpus-XXXXXX)
redis_dir=$tmp/redis
cleanup() {
  if [[ -f $redis_dir/pid ]]; then bash "$repo/tests/support/redis_server.sh" stop "$redis_dir" || true; fi
  rm -rf "$tmp"
}
trap cleanup EXIT

export CORPUS_COMMIT=$commit CORPUS_COMMIT_SUBJECT=$subject
export CORPUS_COMMAND="tests/data/generate/generate.sh $commit_arg --stores $stores$([[ $snapshots == 1 ]] && echo ' --snapshots')"

# Moves the output of one store into place, named by the version the store recorded.
place() {
  local from=$1 kind=$2
  local version
  version=$(jq -r .store_version "$from/manifest.json")
  local dest=$out/$kind$version
  rm -rf "$dest"
  mv "$from" "$dest"
  echo "$dest"
}

if [[ ,$stores, == *,sqlite,* ]]; then
  log "SQLite"
  "$gen" store "sqlite://$tmp/store.db" "$tmp/sqlite"
  sqlite3 "$tmp/store.db" .dump >"$tmp/sqlite/store.sql"
  log "wrote $(place "$tmp/sqlite" sqlite-schema)"
fi

if [[ ,$stores, == *,redis,* ]]; then
  log "Redis"
  bash "$repo/tests/support/redis_server.sh" start "$redis_dir" >&2
  url=$(cat "$redis_dir/url")
  "$gen" store "$url?prefix=corpus-gen:" "$tmp/redis-out"
  bash "$repo/tests/support/redis_server.sh" stop "$redis_dir" >&2
  log "wrote $(place "$tmp/redis-out" redis-layout)"
fi

if [[ $snapshots == 1 ]]; then
  log "snapshots"
  rm -rf "$out/snapshots-v1"
  "$gen" snapshots "$out/snapshots-v1"
  log "wrote $out/snapshots-v1"
fi
