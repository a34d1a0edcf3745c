#!/usr/bin/env bash
# Compiles every ```cpp block of README.md and docs/*.md against the library, and runs the whole
# programs. The blocks are read when the test runs, so a block added later is covered as well.
#
# How a block is built is said by an HTML comment on the line before it (it does not show when
# the Markdown is rendered); a block without one is a fragment:
#
#   <!-- snippet: fragment -->      statements: compiled as the body of a function, after the
#                                   document's preamble (the default)
#   <!-- snippet: declarations -->  types and functions: compiled at namespace scope, after the
#                                   preamble, each block in a namespace of its own
#   <!-- snippet: preamble -->      includes and using-directives every fragment and declarations
#                                   block of the same document starts with
#   <!-- snippet: program -->       a whole program: compiled alone, linked, run; must exit 0
#   <!-- snippet: gtest -->         a whole GoogleTest file: linked with gtest_main, run
#
# and, after the kind:
#   prelude=NAME   the block uses names it does not define: tests/docs/preludes/NAME.hpp is
#                  included before it (the one place those names are defined)
#   file=PATH      the block is the whole of PATH (relative to the source dir): checked equal
#   norun          a program that is compiled and linked but not run (say why, in parentheses)
# e.g. <!-- snippet: program norun prelude=durable_order_saga (a worker: serves until SIGTERM) -->
#
# Every fragment and declarations block of one document goes into one translation unit (one
# compiler run per document), with #line directives: errors name the Markdown file and line.
# The code is built by a generated CMake project that finds this build's library through its
# build-tree package (find_package(reactor)), as a user's project finds the installed one.
# Usage: snippets.sh <source dir> <build dir>
set -euo pipefail

if [[ $# -ne 2 ]]; then
  echo "usage: $0 <source dir> <build dir>" >&2
  exit 2
fi
src_dir=$(cd "$1" && pwd)
build_dir=$(cd "$2" && pwd)
jobs=${REACTOR_JOBS:-2}

work="$build_dir/docs-snippets"
rm -rf "$work"
mkdir -p "$work/blocks" "$work/src" "$work/run"

cd "$src_dir"
docs=(README.md docs/*.md)

# 1. Extract: blocks/<id>.cpp holds a block as written, manifest.txt one line per block:
#    id <TAB> document <TAB> first line <TAB> kind <TAB> options
for doc in "${docs[@]}"; do
  awk -v doc="$doc" -v out="$work/blocks" '
    function trim(s) { sub(/^[ \t]+/, "", s); sub(/[ \t]+$/, "", s); return s }
    /^```/ {
      if (!in_fence) {
        in_fence = 1
        lang = trim(substr($0, 4))
        if (lang == "cpp") {
          start = NR + 1
          id = doc; gsub(/[^A-Za-z0-9]/, "_", id); id = id "_" start
          file = out "/" id ".cpp"
          printf "" > file
          spec = "fragment"
          if (match(prev, /^<!-- snippet: .* -->$/)) {
            spec = trim(substr(prev, 15, length(prev) - 18))
            sub(/\(.*$/, "", spec)  # the reason in parentheses is for readers
            spec = trim(spec)
          }
          n = split(spec, words, /[ \t]+/)
          options = ""
          for (i = 2; i <= n; i++) options = options (i > 2 ? " " : "") words[i]
          printf "%s\t%s\t%d\t%s\t%s\n", id, doc, start, words[1], options
        }
      } else {
        in_fence = 0
        if (lang == "cpp") close(file)
        lang = ""
      }
      next
    }
    in_fence && lang == "cpp" { print >> file; next }
    NF { prev = trim($0) }
  ' "$doc"
done >"$work/manifest.txt"

# 2. Generate the sources and a CMake project that builds them.
problems=()
cmake_lists="$work/src/CMakeLists.txt"
cat >"$cmake_lists" <<CMAKE
cmake_minimum_required(VERSION 3.25)
project(reactor_doc_snippets LANGUAGES CXX)
set(CMAKE_CXX_STANDARD 20)
set(CMAKE_CXX_STANDARD_REQUIRED ON)
find_package(reactor REQUIRED)
find_package(GTest REQUIRED)
function(snippet name)
  add_executable(\${name} \${name}.cpp)
  target_include_directories(\${name} PRIVATE "$src_dir/tests/docs" "$src_dir/examples")
  target_link_libraries(\${name} PRIVATE reactor::reactor \${ARGN})
  # What a careful user compiles with: the docs must not teach code that warns.
  target_compile_options(\${name} PRIVATE -Wall -Wextra -Werror)
endfunction()
CMAKE

option_value() {  # option_value <options> <name>: the value of name=value, or ""
  local word
  for word in $1; do
    if [[ $word == "$2="* ]]; then
      echo "${word#*=}"
      return
    fi
  done
}

include_lines() { grep -E '^[[:space:]]*#[[:space:]]*include' "$1" || true; }
# The block with its #include lines blanked (hoisted to the top), so line numbers hold.
without_includes() { sed -E 's/^[[:space:]]*#[[:space:]]*include.*$//' "$1"; }

runs=()  # "<target> <document>:<line>"
declare -A fragments_of  # document -> "id ..." of its fragment and declarations blocks
declare -A preamble_of   # document -> id of its preamble block
while IFS=$'\t' read -r id doc line kind options; do
  prelude=$(option_value "$options" prelude)
  if [[ -n $prelude && ! -f tests/docs/preludes/$prelude.hpp ]]; then
    problems+=("$doc:$line: no prelude tests/docs/preludes/$prelude.hpp")
    continue
  fi
  expected_file=$(option_value "$options" file)
  if [[ -n $expected_file ]] && ! diff -u "$expected_file" "$work/blocks/$id.cpp" >"$work/$id.diff"; then
    problems+=("$doc:$line: the block differs from $expected_file (diff: $work/$id.diff)")
  fi
  case $kind in
    preamble)
      preamble_of[$doc]=$id
      fragments_of[$doc]+=""
      ;;
    fragment | declarations) fragments_of[$doc]+="$id " ;;
    program | gtest)
      {
        [[ -z $prelude ]] || echo "#include \"preludes/$prelude.hpp\""
        echo "#line $line \"$doc\""
        cat "$work/blocks/$id.cpp"
      } >"$work/src/$id.cpp"
      if [[ $kind == gtest ]]; then
        echo "snippet($id GTest::gmock GTest::gtest_main)" >>"$cmake_lists"
      else
        echo "snippet($id)" >>"$cmake_lists"
      fi
      [[ " $options " == *" norun "* ]] || runs+=("$id $doc:$line")
      ;;
    *) problems+=("$doc:$line: unknown snippet kind '$kind'") ;;
  esac
done <"$work/manifest.txt"

# Per document, one translation unit: the includes, the preludes, the preamble, then each block
# in a namespace of its own (a fragment as the body of a function there).
for doc in "${!fragments_of[@]}"; do
  tu_id=$(echo "$doc" | sed 's/[^A-Za-z0-9]/_/g')_fragments
  tu="$work/src/$tu_id.cpp"
  preamble=${preamble_of[$doc]:-}
  {
    echo "// Generated by tests/docs/snippets.sh from $doc."
    for id in $preamble ${fragments_of[$doc]}; do include_lines "$work/blocks/$id.cpp"; done
    for id in ${fragments_of[$doc]}; do
      prelude=$(option_value "$(awk -F'\t' -v id="$id" '$1 == id { print $5 }' "$work/manifest.txt")" prelude)
      [[ -z $prelude ]] || echo "#include \"preludes/$prelude.hpp\""
    done
    if [[ -n $preamble ]]; then
      echo "#line $(awk -F'\t' -v id="$preamble" '$1 == id { print $3 }' "$work/manifest.txt") \"$doc\""
      without_includes "$work/blocks/$preamble.cpp"
    fi
    for id in ${fragments_of[$doc]}; do
      IFS=$'\t' read -r _ _ line kind _ < <(awk -F'\t' -v id="$id" '$1 == id' "$work/manifest.txt")
      echo "namespace snippet_$line {"
      [[ $kind == fragment ]] && echo "[[maybe_unused]] void fragment() {"
      echo "#line $line \"$doc\""
      without_includes "$work/blocks/$id.cpp"
      [[ $kind == fragment ]] && echo "}"
      echo "}  // namespace snippet_$line"
    done
    echo "int main() {}"
  } >"$tu"
  echo "snippet($tu_id)" >>"$cmake_lists"
done

count=$(wc -l <"$work/manifest.txt")
echo "docs_snippets: $count cpp blocks in ${docs[*]}"
awk -F'\t' '{ printf "  %s:%s %s %s\n", $2, $3, $4, $5 }' "$work/manifest.txt"

# 3. Build (every target, so that every broken block is reported), then run.
cache_get() { sed -n "s/^$1:[A-Z]*=//p" "$build_dir/CMakeCache.txt" | head -n1; }
cxx=$(cache_get CMAKE_CXX_COMPILER)
build_ok=1
if ! cmake -S "$work/src" -B "$work/build" -G Ninja -DCMAKE_PREFIX_PATH="$build_dir" \
  ${cxx:+-DCMAKE_CXX_COMPILER="$cxx"} -DCMAKE_CXX_FLAGS="$(cache_get CMAKE_CXX_FLAGS)" \
  -DCMAKE_EXE_LINKER_FLAGS="$(cache_get CMAKE_EXE_LINKER_FLAGS)" >"$work/configure.log" 2>&1; then
  cat "$work/configure.log"
  echo "docs_snippets: the snippet project does not configure" >&2
  exit 1
fi
if ! cmake --build "$work/build" -j"$jobs" -- -k 0; then
  build_ok=0
  problems+=("some blocks do not compile (the errors above name their document and line)")
fi

if [[ $build_ok -eq 1 ]]; then
  for entry in "${runs[@]}"; do
    target=${entry%% *}
    where=${entry#* }
    echo "== run $where"
    rc=0
    (cd "$work/run" && timeout 120 "$work/build/$target") || rc=$?
    [[ $rc -eq 0 ]] || problems+=("$where: the program exited with $rc")
  done
fi

if [[ ${#problems[@]} -ne 0 ]]; then
  printf 'docs_snippets: FAIL %s\n' "${problems[@]}" >&2
  exit 1
fi
echo "docs_snippets: OK ($count blocks, ${#runs[@]} programs run)"
