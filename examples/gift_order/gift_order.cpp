#include "gift_order/gift_order.hpp"

#include <string>

#include "order_saga/recorded_step.hpp"

namespace examples {

using namespace reactor;

Definition shipment(OrderServices& s) {
  return Builder("Shipment")
      .input("order_id", integer().min(1))
      .input("recipient", string().default_value(""))
      .step("pack",
            [&s](const Args& a, StepContext& ctx) {
              return recorded(s, ctx, [&] {
                return Success({{"box", "box-" + std::to_string(a.get<int>("order_id"))}});
              });
            })
      .argument("order_id", input("order_id"))
      .undo(recorded_undo(s))
      .step("label",
            [&s](const Args& a, StepContext& ctx) {
              return recorded(s, ctx, [&] {
                if (a.get<std::string>("recipient").empty()) {
                  return Halt("no recipient address: the parcel waits, packed");
                }
                return Success({{"tracking", "TRK-" + a.get<std::string>("box")}});
              });
            })
      .argument("box", result("pack", "box"))
      .argument("recipient", input("recipient"))
      .undo(recorded_undo(s))
      // A dispatched parcel cannot be called back: no undo.
      .step("dispatch",
            [&s](const Args& a, StepContext& ctx) {
              return recorded(s, ctx, [&] {
                return Success(
                    {{"parcel", s.shipping.ship(a.get<int>("order_id"), ctx.idempotency_key())},
                     {"tracking", a["tracking"]}});
              });
            })
      .argument("order_id", input("order_id"))
      .argument("tracking", result("label", "tracking"))
      .returns("dispatch")
      .build();
}

Definition gift_order(OrderServices& s) {
  return Builder("GiftOrder")
      .input("order_id", integer().min(1))
      .input("recipient", string().default_value(""))
      .step("reserve", reserve_stock(s))
      .argument("order_id", input("order_id"))
      .undo(release_stock(s))
      .compose("shipment", shipment(s))
      .argument("order_id", input("order_id"))
      .argument("recipient", input("recipient"))
      .wait_for("reserve")
      // The last step: nothing after it can fail, so nothing to undo.
      .step("notify",
            [&s](const Args& a, StepContext& ctx) {
              return recorded(s, ctx, [&] {
                return Success({{"notified", a["recipient"]}, {"tracking", a["tracking"]}});
              });
            })
      .argument("recipient", input("recipient"))
      .argument("tracking", result("shipment", "tracking"))
      .returns("notify")
      .build();
}

}  // namespace examples
