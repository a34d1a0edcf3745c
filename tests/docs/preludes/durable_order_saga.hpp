// For docs/durability.md: the names its snippets use without defining them — an order saga made
// from the application's services, and the function a worker binary registers its reactors with.
#pragma once

#include <reactor/reactor.hpp>

struct Services {};
inline Services services;

inline reactor::Definition order_saga(Services&) {
  using namespace reactor;
  return Builder("OrderSaga")
      .input("order_id", integer().min(1))
      .input("amount", integer().min(1))
      .step("charge", [](const Args&) { return Success(); })
      .build();
}

inline void register_my_reactors(reactor::Registry& registry) {
  registry.add(order_saga(services));
}
