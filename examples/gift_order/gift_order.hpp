// GiftOrder: reserve the gift → compose a Shipment (pack → label →
// dispatch) → notify the recipient. The example of a composed child: the
// shipment is a run of its own, with its own undo stack, inside the order,
// and a crash inside it resumes at the shipment's step in flight.
//
// A gift without a recipient address halts at `label`: the parcel stays
// packed and the stock reserved (a Halt undoes nothing) until someone
// supplies the address.
#pragma once

#include <reactor/reactor.hpp>

#include "order_saga/order_saga.hpp"

namespace examples {

// The child: pack → label → dispatch, each recorded in the ledger under the
// path "shipment/<step>" when composed. Bound to `services` (which must
// outlive the definition).
reactor::Definition shipment(OrderServices& services);

// The parent, composing shipment(services) as its step "shipment".
reactor::Definition gift_order(OrderServices& services);

}  // namespace examples
