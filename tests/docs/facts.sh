#!/usr/bin/env bash
# What the docs must say, checked against the code and the tree, so that they stay true:
#  - the README's documentation list names every docs/*.md;
#  - every relative link of README.md and docs/*.md names a file that exists;
#  - nothing says that durable execution is unfinished ("in progress", "the durable layer will");
#  - <reactor/reactor.hpp> includes every public header but testing.hpp;
#  - docs/durability.md states the retention default, DurabilityOptions::context_ttl, as the
#    header sets it;
#  - where redacted() is described (README, docs/concepts.md), that its inputs are stored as given;
#  - the README's quick start is exactly scripts/demo.sh and scripts/test.sh, and the README has a
#    plain CMake build-and-install recipe.
# Usage: facts.sh <source dir>
set -euo pipefail
cd "$1"

problems=()
fail() { problems+=("$*"); }

# The documentation list: the README section "## Documentation", up to the next heading.
doc_list=$(awk '/^## Documentation$/ { on = 1; next } /^## / { on = 0 } on' README.md)
for doc in docs/*.md; do
  grep -qF "]($doc)" <<<"$doc_list" || fail "README.md: the documentation list does not link $doc"
done

for md in README.md docs/*.md; do
  dir=$(dirname "$md")
  # Links outside code blocks: ](target), without a scheme; the #anchor is not checked.
  while IFS= read -r target; do
    path=${target%%#*}
    [[ -z $path ]] && continue
    [[ -e $dir/$path ]] || fail "$md: link to $target: no such file"
  done < <(awk '/^```/ { code = !code; next } !code' "$md" | grep -oE '\]\([^)#:]+(#[^)]*)?\)' |
           sed -E 's/^\]\(//; s/\)$//')
done

# Durable execution exists: no text may say it is still to come. ("while the run is in
# progress" and "compensation and undo in progress" speak of a run, not of the library.)
while IFS= read -r hit; do
  fail "unfinished-work wording: $hit"
done < <(grep -nHiE 'in progress|not yet (implemented|durable|supported)|durable layer will|will be durable|coming soon|\bWIP\b|and later leases' \
           README.md docs/*.md include/reactor/*.hpp |
         grep -viE 'run is in progress|undo in progress' || true)

# reactor.hpp: every public header but itself and testing.hpp (GoogleTest's helpers).
for header in include/reactor/*.hpp; do
  name=$(basename "$header")
  [[ $name == reactor.hpp || $name == testing.hpp ]] && continue
  grep -qF "#include \"reactor/$name\"" include/reactor/reactor.hpp ||
    fail "include/reactor/reactor.hpp does not include reactor/$name (every public header a user needs)"
done

# Retention: the default in the header, in the words docs/durability.md must use.
ttl=$(sed -nE 's/.*Duration context_ttl = std::chrono::(hours|minutes|seconds)\(([0-9]+)\);.*/\2 \1/p' \
  include/reactor/durability.hpp)
if [[ -z $ttl ]]; then
  fail "include/reactor/durability.hpp: no 'Duration context_ttl = std::chrono::<unit>(<n>);' to read the retention default from"
else
  n=${ttl% *}
  unit=${ttl#* }
  short=${unit:0:1}
  [[ $unit == minutes ]] && short=min
  [[ $unit == seconds ]] && short=s
  grep -E 'context_ttl' docs/durability.md | grep -qE "\b$n ($short|$unit)\b" ||
    fail "docs/durability.md: no line naming context_ttl states its default, $n $unit"
fi

for md in README.md docs/concepts.md; do
  grep -q 'redacted()' "$md" || fail "$md: redacted() is not described"
  grep -qi 'stored as given' "$md" ||
    fail "$md: does not say that redacted() inputs are stored as given (masked only when reported)"
done

quick_start=$(awk '/^## Quick start$/ { on = 1; next } /^## / { on = 0 }
                   on && /^```/ { if (in_block) exit; in_block = 1; next } in_block' README.md)
[[ $quick_start == $'scripts/demo.sh\nscripts/test.sh' ]] ||
  fail "README.md: the quick start block must be exactly scripts/demo.sh and scripts/test.sh"
grep -q '^cmake --install ' README.md || fail "README.md: no plain CMake build-and-install recipe"

if [[ ${#problems[@]} -ne 0 ]]; then
  printf 'docs_facts: FAIL %s\n' "${problems[@]}" >&2
  exit 1
fi
echo "docs_facts: OK"
