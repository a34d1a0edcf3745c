#!/usr/bin/env bash
# A build of only what a library user needs, and what it asks of its users:
#  1. configures Reactor with tests, benchmarks and Redis off, where GoogleTest and Google
#     Benchmark are disabled for find_package and pkg-config finds every package but hiredis;
#  2. builds and installs it; its library references no hiredis symbol;
#  3. configures, builds and runs two consumers of that install under the same restrictions:
#     tests/integration/minimal_consumer (open_backend("redis://…") says the build has no Redis;
#     a durable run on the memory backend) and examples/quickstart;
#  4. configures (only) a project that adds Reactor with add_subdirectory, GoogleTest and Google
#     Benchmark still disabled: as a subproject, tests and benchmarks are off by default;
#  5. configures (only) a build of the benchmarks without the tests.
# Usage: install_minimal.sh <source dir> <build dir whose compiler to use>
set -euo pipefail

if [[ $# -ne 2 ]]; then
  echo "usage: $0 <source dir> <build dir>" >&2
  exit 2
fi
src_dir=$(cd "$1" && pwd)
build_dir=$(cd "$2" && pwd)
jobs=${REACTOR_JOBS:-2}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/reactor-install-minimal.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

cxx=$(sed -n 's/^CMAKE_CXX_COMPILER:[A-Z]*=//p' "$build_dir/CMakeCache.txt" | head -n1)
# pkg-config finds every package but hiredis (cpp-httplib is required, and found through its
# .pc file): hiredis cannot be used by accident.
mkdir "$tmp/no-hiredis-pkgconfig"
IFS=: read -r -a pc_dirs <<<"$(pkg-config --variable pc_path pkg-config)"
for dir in "${pc_dirs[@]}"; do
  for pc in "$dir"/*.pc; do
    if [[ -e $pc && $(basename "$pc") != hiredis* ]]; then
      ln -sf "$pc" "$tmp/no-hiredis-pkgconfig/"
    fi
  done
done
export PKG_CONFIG_LIBDIR="$tmp/no-hiredis-pkgconfig" PKG_CONFIG_PATH=""
no_test_packages=(-DCMAKE_DISABLE_FIND_PACKAGE_GTest=ON -DCMAKE_DISABLE_FIND_PACKAGE_benchmark=ON)

echo "== configure: tests, benchmarks and Redis off; GoogleTest, Google Benchmark, hiredis hidden"
# No build type (no optimisation) and one translation unit per few files: the quickest build.
cmake -S "$src_dir" -B "$tmp/build" -G Ninja ${cxx:+-DCMAKE_CXX_COMPILER="$cxx"} -DCMAKE_UNITY_BUILD=ON \
  -DREACTOR_BUILD_TESTS=OFF -DREACTOR_BUILD_BENCHMARKS=OFF -DREACTOR_WITH_REDIS=OFF \
  "${no_test_packages[@]}"

echo "== build and install"
cmake --build "$tmp/build" -j"$jobs"
cmake --install "$tmp/build" --prefix "$tmp/prefix"

lib=$(find "$tmp/prefix" -name libreactor.a | head -n1)
if nm "$lib" | grep -E ' U (redis|freeReplyObject)'; then
  echo "install_minimal: the library built without Redis references hiredis" >&2
  exit 1
fi

for consumer in "$src_dir/tests/integration/minimal_consumer" "$src_dir/examples/quickstart"; do
  name=$(basename "$consumer")
  echo "== consumer $name against the install"
  cmake -S "$consumer" -B "$tmp/$name" -G Ninja ${cxx:+-DCMAKE_CXX_COMPILER="$cxx"} \
    -DCMAKE_PREFIX_PATH="$tmp/prefix" "${no_test_packages[@]}"
  cmake --build "$tmp/$name"
done
"$tmp/minimal_consumer/no_redis"
"$tmp/quickstart/quickstart"

echo "== configure a project that adds Reactor as a subdirectory"
mkdir "$tmp/parent"
cat >"$tmp/parent/CMakeLists.txt" <<CMAKE
cmake_minimum_required(VERSION 3.25)
project(parent LANGUAGES CXX)
add_subdirectory("$src_dir" reactor)
foreach(option REACTOR_BUILD_TESTS REACTOR_BUILD_BENCHMARKS)
  if(\${option})
    message(FATAL_ERROR "\${option} is on in a subproject build")
  endif()
endforeach()
CMAKE
# pkg-config as usual here: Redis stays on by default, and finds hiredis.
env -u PKG_CONFIG_LIBDIR -u PKG_CONFIG_PATH \
  cmake -S "$tmp/parent" -B "$tmp/parent/build" -G Ninja ${cxx:+-DCMAKE_CXX_COMPILER="$cxx"} \
  "${no_test_packages[@]}" >"$tmp/parent.log" ||
  { cat "$tmp/parent.log"; exit 1; }
echo "== configure (only) the benchmarks without the tests"
env -u PKG_CONFIG_LIBDIR -u PKG_CONFIG_PATH \
  cmake -S "$src_dir" -B "$tmp/benchmarks-only" -G Ninja ${cxx:+-DCMAKE_CXX_COMPILER="$cxx"} \
  -DREACTOR_BUILD_TESTS=OFF -DREACTOR_BUILD_BENCHMARKS=ON >"$tmp/benchmarks-only.log" ||
  { cat "$tmp/benchmarks-only.log"; exit 1; }
echo "install_minimal: OK"
