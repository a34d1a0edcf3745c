#include "async_order/async_order.hpp"

#include <chrono>
#include <thread>

#include "order_saga/recorded_step.hpp"

namespace examples {

using namespace reactor;

namespace {

// recorded(), paced by the run's input step_ms.
template <typename Body>
StepResult paced(const OrderServices& s, const Args& a, const StepContext& ctx, Body&& body) {
  return recorded(s, ctx, [&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(a.get<int>("step_ms")));
    return body();
  });
}

}  // namespace

Definition invoice(OrderServices& s) {
  return Builder("Invoice")
      .input("order_id", integer().min(1))
      .input("amount", integer().min(1))
      .input("step_ms", integer().min(0).default_value(0))
      .step("render",
            [&s](const Args& a, StepContext& ctx) {
              return paced(s, a, ctx, [&] {
                return Success(
                    {{"pdf", "invoice-" + std::to_string(a.get<int>("order_id")) + ".pdf"}});
              });
            })
      .argument("order_id", input("order_id"))
      .argument("step_ms", input("step_ms"))
      .undo(recorded_undo(s))
      .step("store",
            [&s](const Args& a, StepContext& ctx) {
              return paced(s, a, ctx, [&] {
                return Success({{"invoice_id", "inv-" + std::to_string(a.get<int>("order_id"))},
                                {"amount", a.get<int>("amount")},
                                {"pdf", a["pdf"]}});
              });
            })
      .argument("order_id", input("order_id"))
      .argument("amount", input("amount"))
      .argument("pdf", result("render", "pdf"))
      .argument("step_ms", input("step_ms"))
      .returns("store")
      .build();
}

Definition async_order(OrderServices& s) {
  return Builder("AsyncOrder")
      .input("order_id", integer().min(1))
      .input("amount", integer().min(1))
      .input("step_ms", integer().min(0).default_value(0))
      .step("reserve",
            [&s](const Args& a, StepContext& ctx) {
              return paced(s, a, ctx, [&] {
                return Success({{"reservation", s.inventory.reserve(a.get<int>("order_id"),
                                                                    ctx.idempotency_key())}});
              });
            })
      .argument("order_id", input("order_id"))
      .argument("step_ms", input("step_ms"))
      .undo(release_stock(s))
      .step("charge",
            [&s](const Args& a, StepContext& ctx) {
              return paced(s, a, ctx, [&]() -> StepResult {
                std::string charge_id;
                if (!s.payments.charge(a.get<int>("order_id"), a.get<int>("amount"),
                                       ctx.idempotency_key(), charge_id)) {
                  return Failure("card declined", /*retryable=*/false);
                }
                return Success({{"charge_id", charge_id}, {"amount", a.get<int>("amount")}});
              });
            })
      .argument("order_id", input("order_id"))
      .argument("amount", input("amount"))
      .argument("step_ms", input("step_ms"))
      .wait_for("reserve")
      .compensate([&s](const std::string&, const Args&, StepContext& ctx) {
        s.ledger.append('C', ctx.idempotency_key());  // a declined charge took no money
        return Success();
      })
      .undo([&s](const Value& charged, const Args&, StepContext& ctx) {
        s.ledger.append('U', ctx.idempotency_key());
        s.payments.refund(charged.at("charge_id").get<std::string>());
        return Success();
      })
      .background_after("charge")
      .step("ship",
            [&s](const Args& a, StepContext& ctx) {
              return paced(s, a, ctx, [&] {
                return Success(
                    {{"parcel", s.shipping.ship(a.get<int>("order_id"), ctx.idempotency_key())}});
              });
            })
      .argument("order_id", input("order_id"))
      .argument("step_ms", input("step_ms"))
      .wait_for("charge")
      // Nothing reads it: it goes off on its own, and a failure would compensate itself.
      .async_step("notify",
                  [&s](const Args& a, StepContext& ctx) {
                    return paced(s, a, ctx, [&] {
                      return Success({{"notified", a.get<int>("order_id")}});
                    });
                  })
      .argument("order_id", input("order_id"))
      .argument("step_ms", input("step_ms"))
      .wait_for("ship")
      .async_reactor("invoice", invoice(s))
      .argument("order_id", input("order_id"))
      .argument("amount", input("amount"))
      .argument("step_ms", input("step_ms"))
      .wait_for("ship")
      .step("close",
            [&s](const Args& a, StepContext& ctx) {
              return paced(s, a, ctx, [&] {
                return Success({{"parcel", a["parcel"]}, {"invoice", a["invoice"]}});
              });
            })
      .argument("parcel", result("ship", "parcel"))
      .argument("invoice", result("invoice"))
      .argument("step_ms", input("step_ms"))
      .returns("close")
      .build();
}

}  // namespace examples
