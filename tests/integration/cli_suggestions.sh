#!/usr/bin/env bash
# Mistakes get suggestions: a mistyped option or command says what was probably meant; a reactor
# nobody registered lists the registered ones, the closest first, and stores nothing (no
# "run -: failed"); `reactor reactors` lists what is registered: inputs, steps and queue.
reactor=$1
source "$(dirname "$0")/worker_env.sh"
printf '{"order_id": 7, "amount": 300}' >"$dir/order.json"


# --- options and commands
refused "a mistyped option of start" "did you mean --input-file" \
  start OrderSaga --storage "$db" --inptu-file "$dir/order.json"
refused "a mistyped option of worker" "did you mean --threads" worker --storage "$db" --thread 2
refused "a mistyped option given with =" "did you mean --input-file" \
  start OrderSaga --storage "$db" "--inptu-file=$dir/order.json"
refused "a mistyped command" "did you mean 'start'" strat OrderSaga --storage "$db"
refused "a command nothing is near" "unknown command 'xyzzy'" xyzzy
grep -q "did you mean" "$dir/err" && bad "a command nothing is near got a suggestion"

# --- unknown reactors: the registered ones, the closest first; nothing stored
for how in "" "--background"; do
  # shellcheck disable=SC2086
  refused "start of an unknown reactor ${how:-in the foreground}" \
    "registered: OrderSaga, " start OrderSga --storage "$db" --input-file "$dir/order.json" $how
  grep -q "unknown_reactor" "$dir/err" || bad "start ${how} of an unknown reactor does not say unknown_reactor"
  grep -q "^run " "$dir/out" && bad "start ${how} of an unknown reactor printed a run line: $(cat "$dir/out")"
done
"$reactor" runs --storage "$db" >"$dir/out" 2>/dev/null || true
grep -q "OrderSga" "$dir/out" && bad "a start of an unknown reactor stored a run"
refused "a worker for an unknown reactor" "unknown reactor 'Shipmnet' (registered: Shipment, " \
  worker --storage "$db" --reactors Shipmnet

# enqueue of a run of a reactor this program does not register: refused unless --force.
id=$("$reactor" start OrderSaga --storage "$db" --input-file "$dir/order.json" --background)
store_set_header_reactor "$id" OrderSagaV2
refused "enqueue of a run of an unregistered reactor" "registered: OrderSaga, " enqueue "$id" --storage "$db"
grep -q "'OrderSagaV2'" "$dir/err" || bad "enqueue does not name the unregistered reactor"
"$reactor" enqueue "$id" --storage "$db" --force >/dev/null 2>&1 || bad "enqueue --force of it failed"

# --- reactor reactors
"$reactor" reactors >"$dir/out" 2>"$dir/err" || bad "reactors failed"
grep -q "^OrderSaga$" "$dir/out" || bad "reactors does not list OrderSaga"
grep -A6 "^OrderSaga$" "$dir/out" >"$dir/order_saga"
grep -q "queue *OrderSaga" "$dir/order_saga" || bad "reactors does not show OrderSaga's queue"
grep -q "order_id (integer, required)" "$dir/order_saga" || bad "reactors does not show order_id as a required integer"
grep -q "amount (integer, required)" "$dir/order_saga" || bad "reactors does not show amount"
grep -q "steps *reserve, charge, ship" "$dir/order_saga" || bad "reactors does not show OrderSaga's steps"
grep -A6 "^GiftOrder$" "$dir/out" | grep -q 'recipient (string, default "")' ||
  bad "reactors does not show GiftOrder's input with its default"
if ((fail)); then cat "$dir/out" >&2; fi
"$reactor" reactors --json >"$dir/json" 2>"$dir/err" || bad "reactors --json failed"
[[ $(wc -l <"$dir/json") -eq $(grep -c "^[A-Z]" "$dir/out") ]] || bad "reactors --json is not one line per reactor"
grep -F '"name":"OrderSaga"' "$dir/json" >"$dir/order_saga.json" || bad "reactors --json does not list OrderSaga"
for field in '"queue":"OrderSaga"' '{"name":"order_id","redacted":false,"required":true,"type":"integer"}' \
  '"steps":[{"kind":"step","name":"reserve"},{"kind":"step","name":"charge"},{"kind":"step","name":"ship"}]'; do
  grep -qF "$field" "$dir/order_saga.json" || bad "reactors --json has no $field for OrderSaga"
done
grep -F '"name":"GiftOrder"' "$dir/json" | grep -qF '"default":"","name":"recipient"' ||
  bad "reactors --json has no default for GiftOrder's recipient"

[[ $fail -eq 0 ]] &&
  echo "cli_suggestions: mistyped options and commands get a suggestion; unknown reactors list the registered ones, closest first; reactors lists them"
exit $fail
