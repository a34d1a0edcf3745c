// RefundApproval: the example of an interrupt (docs/interrupts.md). check reserves the refund's
// funds (undone by releasing them); approve waits for a person: its payload {"approved": bool,
// "by": string}, its correlation id "refund-<order_id>", an active timeout of input timeout_s
// seconds (default 3600); refund pays out — and fails when approved is false, which releases
// check's reservation. The refund's value is the run's. Every step leaves its mark in the
// side-effect ledger under its idempotency key, as OrderSaga's do.
#pragma once

#include <reactor/reactor.hpp>

#include "order_saga/order_saga.hpp"

namespace examples {

reactor::Definition refund_approval(OrderServices& services);

}  // namespace examples
