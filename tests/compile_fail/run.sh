#!/usr/bin/env bash
# Compile-fail tests: each tests/compile_fail/*.cpp is a small wrong program whose first line is
#   // expect-error: <text>
# It passes when compiling the file fails with exactly one error, whose output contains <text>
# (the static_assert of the entry point the program misuses: include/reactor/builder.hpp,
# definition.hpp, testing.hpp). One error, not a page of std::function's: that is the point.
# Usage: run.sh <c++ compiler> [compiler flags: -I...] -- <file.cpp or directory>...
set -euo pipefail

cxx=$1
shift
flags=()
while [[ $# -gt 0 && $1 != -- ]]; do
  flags+=("$1")
  shift
done
shift  # --
files=()
for arg in "$@"; do  # a directory stands for its *.cpp
  if [[ -d $arg ]]; then files+=("$arg"/*.cpp); else files+=("$arg"); fi
done
[[ ${#files[@]} -gt 0 ]] || { echo "compile_fail: no test files" >&2; exit 2; }
set -- "${files[@]}"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/reactor-compile-fail.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

failed=0
for file in "$@"; do
  name=$(basename "$file" .cpp)
  expected=$(sed -n '1s|^// expect-error: ||p' "$file")
  if [[ -z $expected ]]; then
    echo "FAIL $name: its first line must be '// expect-error: <text>'"
    failed=$((failed + 1))
    continue
  fi
  out="$tmp/$name.txt"
  if "$cxx" -std=c++20 -fsyntax-only "${flags[@]}" "$file" >"$out" 2>&1; then
    echo "FAIL $name: compiled, but it must not"
    failed=$((failed + 1))
    continue
  fi
  errors=$(grep -c 'error:' "$out" || true)
  if ! grep -qF -- "$expected" <(tr -s '\n' ' ' <"$out"); then
    echo "FAIL $name: the compiler's message does not say: $expected"
    sed 's/^/    /' "$out"
    failed=$((failed + 1))
  elif [[ $errors -ne 1 ]]; then
    echo "FAIL $name: $errors errors instead of one"
    sed 's/^/    /' "$out"
    failed=$((failed + 1))
  else
    echo "ok   $name ($(wc -l <"$out") lines of compiler output)"
  fi
done

if [[ $failed -ne 0 ]]; then
  echo "compile_fail: $failed of $# failed"
  exit 1
fi
echo "compile_fail: all $# passed"
