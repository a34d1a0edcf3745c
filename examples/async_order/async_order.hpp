// AsyncOrder: the example of a hand-off and of async units (docs/async.md). reserve and charge
// run in the caller; background_after("charge") hands the rest to a worker, where ship runs,
// notify goes off as an async_step nobody reads, and invoice as an async_reactor child
// (Invoice: render → store) whose result close reads; close's value is the run's.
//
// The order rule is OrderSaga's: an order_id that is a multiple of 10 is declined at charge, in
// the caller, so nothing is handed off and the run ends failed, its reservation released.
// Every step appends to the side-effect ledger under its idempotency key; input step_ms makes
// each step take that long.
#pragma once

#include <reactor/reactor.hpp>

#include "order_saga/order_saga.hpp"

namespace examples {

// The child: render → store, each in the ledger under "<root>:invoice[0]/<step>".
reactor::Definition invoice(OrderServices& services);

// The parent, with invoice(services) as its async_reactor "invoice".
reactor::Definition async_order(OrderServices& services);

}  // namespace examples
