// recorded(): how every example step body leaves its evidence in the ledger.
#pragma once

#include <chrono>
#include <thread>

#include "order_saga/order_saga.hpp"

namespace examples {

// Wraps a step body: ledger "S" before, the configured pause, the body,
// ledger "E" after. A crash between the two leaves an "S" without an "E".
template <typename Body>
reactor::StepResult recorded(const OrderServices& s, const reactor::StepContext& ctx, Body&& body) {
  s.ledger.append('S', ctx.idempotency_key());
  if (s.step_ms > 0) std::this_thread::sleep_for(std::chrono::milliseconds(s.step_ms));
  reactor::StepResult r = body();
  s.ledger.append('E', ctx.idempotency_key());
  return r;
}

// The stock reservation both example sagas start with (argument order_id),
// and its undo, which releases the reservation.
inline auto reserve_stock(OrderServices& s) {
  return [&s](const reactor::Args& a, reactor::StepContext& ctx) {
    return recorded(s, ctx, [&] {
      return reactor::Success(
          {{"reservation", s.inventory.reserve(a.get<int>("order_id"), ctx.idempotency_key())}});
    });
  };
}

// An undo that only leaves its mark: the stand-in systems of such steps keep no state worth
// reverting, but the tests must see that it ran.
inline reactor::UndoFn recorded_undo(const OrderServices& s) {
  return [&s](const reactor::Value&, const reactor::Args&, reactor::StepContext& ctx) {
    s.ledger.append('U', ctx.idempotency_key());
    return reactor::Success();
  };
}

// The configured pause of an undo (OrderServices::undo_ms), before it leaves its mark.
inline void undo_pause(const OrderServices& s) {
  if (s.undo_ms > 0) std::this_thread::sleep_for(std::chrono::milliseconds(s.undo_ms));
}

inline auto release_stock(OrderServices& s) {
  return [&s](const reactor::Value& reserved, const reactor::Args&, reactor::StepContext& ctx) {
    undo_pause(s);
    s.ledger.append('U', ctx.idempotency_key());
    s.inventory.release(reserved.at("reservation").get<std::string>());
    return reactor::Success();
  };
}

}  // namespace examples
