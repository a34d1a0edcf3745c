#!/usr/bin/env bash
# Fails when an include goes up a layer (docs/architecture.md): a file of src/<layer>/ may
# include only its own layer and those below it, public headers (include/reactor/) counted in
# the layer their concept belongs to. Prints every offending include.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

# Layers, lowest first.
layers=(base definition records execution storage durability observe engine web cli)
declare -A rank
for i in "${!layers[@]}"; do rank[${layers[$i]}]=$i; done

# The layer of each public header.
declare -A header_layer=(
  [value]=base [status]=base [result]=base [clock]=base [ids]=base [error]=base [run_status]=base
  [trace]=base [run]=base [run_result]=base [step_result]=base [step_context]=base
  [observer]=base [limits]=base [logger]=base [trace_context]=base
  [args]=definition [argument]=definition [builder]=definition [definition]=definition
  [map_results]=definition [registry]=definition [retry_policy]=definition [schema]=definition
  [step]=definition [schedule]=definition [coordination]=definition
  [records]=records
  [run_store]=storage [job_queue]=storage [leases]=storage [map_store]=storage [schedule_store]=storage [hold_store]=storage [backend]=storage
  [backend_wrapper]=storage
  [durability]=durability
  [log_middleware]=observe [otlp_exporter]=observe [metrics]=observe [metrics_observer]=observe
  [metered_backend]=observe [metrics_server]=observe
  [engine]=engine [worker]=engine [inspector]=engine [dashboard]=web [cli]=cli [reactor]=cli
  [testing]=cli
)

layer_of_include() {  # the layer an include names, or "" for one outside src/ and include/
  case $1 in
    reactor/*.hpp)
      local name=${1#reactor/}
      name=${name%.hpp}
      echo "${header_layer[$name]:-unknown}"
      ;;
    */*) echo "${1%%/*}" ;;
    *) echo "" ;;
  esac
}

fail=0
check_file() {  # file, its layer
  local file=$1 own=$2 line inc target
  while IFS= read -r line; do
    inc=${line#*\"}
    inc=${inc%%\"*}
    target=$(layer_of_include "$inc")
    [[ -z $target ]] && continue
    if [[ $target == unknown || -z ${rank[$target]+x} ]]; then
      echo "check_layers: $file includes $inc, which belongs to no layer (add it to scripts/check_layers.sh)"
      fail=1
    elif ((rank[$target] > rank[$own])); then
      echo "check_layers: $file ($own) includes $inc ($target): an include up a layer"
      fail=1
    fi
  done < <(grep -E '^#include "' "$file" || true)
}

for layer in "${layers[@]}"; do
  [[ -d src/$layer ]] || continue
  while IFS= read -r file; do check_file "$file" "$layer"; done < <(find "src/$layer" -name '*.[ch]pp')
done
while IFS= read -r file; do
  name=$(basename "$file" .hpp)
  own=${header_layer[$name]:-}
  if [[ -z $own ]]; then
    echo "check_layers: $file belongs to no layer (add it to scripts/check_layers.sh)"
    fail=1
    continue
  fi
  check_file "$file" "$own"
done < <(find include/reactor -name '*.hpp')
for dir in src/*/; do
  d=$(basename "$dir")
  [[ -n ${rank[$d]+x} ]] || { echo "check_layers: src/$d is not a layer of docs/architecture.md"; fail=1; }
done

# One door for stored bytes (docs/storage.md, "Limits"): JSON text is read only through the
# codec's depth- and size-limited reader (src/records/). A parse anywhere else could recurse as
# deep as a corrupt record nests, and crash every worker that reads it.
while IFS= read -r hit; do
  echo "check_layers: $hit: JSON parsed outside src/records/ (use records::decode_value)"
  fail=1
done < <(grep -rnE '(Value|json|nlohmann::json|ordered_json)::parse\(|Value::from_(cbor|msgpack|bson|ubjson)\(' \
  src include --include='*.[ch]pp' | grep -v '^src/records/' || true)

# One log sink (reactor/logger.hpp): the library tells what it has to tell through the engine's
# Logger. Only the command line (src/cli/), whose output is its interface, prints.
while IFS= read -r hit; do
  echo "check_layers: $hit: printed outside src/cli/ (use the engine's Logger)"
  fail=1
done < <(grep -rnE '\b(std::)?(fprintf|printf|puts|fputs)\(|std::(cout|cerr|clog)\b' \
  src include --include='*.[ch]pp' | grep -v '^src/cli/' || true)

# Execution free of durability (docs/architecture.md, "The port"): execution talks to its port
# (src/execution/execution_port.hpp) in its own terms. Leases, fencing and workers belong to
# src/durability/; an identifier naming one in src/execution/ (comments and texts aside) is a
# concept in the wrong room.
while IFS= read -r file; do
  while IFS= read -r hit; do
    echo "check_layers: $file:$hit: a durability concept in src/execution/ (use its port)"
    fail=1
  done < <(sed -E 's://.*$::; s/"([^"\\]|\\.)*"/""/g' "$file" | grep -niE 'lease|fenc|worker' || true)
done < <(find src/execution -name '*.[ch]pp')

if ((fail)); then
  echo "check_layers: FAILED (layers, lowest first: ${layers[*]})"
  exit 1
fi
echo "check_layers: every include goes down a layer (${layers[*]})"
