#!/usr/bin/env bash
# Installs a configured+built Reactor build tree into a temp prefix, then builds and runs the
# standalone examples/quickstart project against it via find_package(reactor).
# Usage: install_consumer.sh <source dir> <build dir>
set -euo pipefail

if [[ $# -ne 2 ]]; then
  echo "usage: $0 <source dir> <build dir>" >&2
  exit 2
fi
src_dir=$(cd "$1" && pwd)
build_dir=$(cd "$2" && pwd)

tmp=$(mktemp -d "${TMPDIR:-/tmp}/reactor-install-consumer.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# Build the consumer with the same compiler/flags/config as the producer build (matters for
# sanitizer builds, whose static library needs the sanitizer runtime at link time).
cache_get() {
  sed -n "s/^$1:[A-Z]*=//p" "$build_dir/CMakeCache.txt" | head -n1
}
cxx=$(cache_get CMAKE_CXX_COMPILER)
cxx_flags=$(cache_get CMAKE_CXX_FLAGS)
exe_linker_flags=$(cache_get CMAKE_EXE_LINKER_FLAGS)
build_type=$(cache_get CMAKE_BUILD_TYPE)

echo "== install $build_dir -> $tmp/prefix"
cmake --install "$build_dir" --prefix "$tmp/prefix"

echo "== configure examples/quickstart against the installed package"
cmake -S "$src_dir/examples/quickstart" -B "$tmp/build" -G Ninja \
  -DCMAKE_PREFIX_PATH="$tmp/prefix" \
  ${cxx:+-DCMAKE_CXX_COMPILER="$cxx"} \
  -DCMAKE_CXX_FLAGS="$cxx_flags" \
  -DCMAKE_EXE_LINKER_FLAGS="$exe_linker_flags" \
  -DCMAKE_BUILD_TYPE="${build_type:-Release}"

echo "== build"
cmake --build "$tmp/build"

echo "== run quickstart"
rc=0
"$tmp/build/quickstart" || rc=$?
if [[ $rc -ne 0 ]]; then
  echo "install_consumer: quickstart exited with $rc" >&2
  exit 1
fi
echo "install_consumer: OK"
