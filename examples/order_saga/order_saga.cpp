#include "order_saga/order_saga.hpp"

#include <chrono>

#include "async_order/async_order.hpp"
#include "fan_out_sum/fan_out_sum.hpp"
#include "gift_order/gift_order.hpp"
#include "order_saga/recorded_step.hpp"
#include "refund_approval/refund_approval.hpp"
#include "transfer_funds/transfer_funds.hpp"

namespace examples {

using namespace reactor;
using namespace std::chrono_literals;

namespace {

// The charge step as a class: it needs the payment service for run, and
// again for undo (a refund) after a restart, when nothing from run survives.
class ChargeCard : public Step {
 public:
  explicit ChargeCard(OrderServices* services) : s_(services) {}

  StepResult run(const Args& a, StepContext& ctx) override {
    return recorded(*s_, ctx, [&] {
      std::string charge_id;
      if (!s_->payments.charge(a.get<int>("order_id"), a.get<int>("amount"), ctx.idempotency_key(),
                               charge_id)) {
        return Failure("card declined", /*retryable=*/false);
      }
      return Success({{"charge_id", charge_id}, {"amount", a.get<int>("amount")}});
    });
  }

  // A declined charge took no money: nothing to give back.
  StepResult compensate(const std::string&, const Args&, StepContext& ctx) override {
    s_->ledger.append('C', ctx.idempotency_key());
    return Success();
  }

  StepResult undo(const Value& charged, const Args&, StepContext& ctx) override {
    undo_pause(*s_);
    s_->ledger.append('U', ctx.idempotency_key());
    s_->payments.refund(charged.at("charge_id").get<std::string>());
    return Success();
  }

 private:
  OrderServices* s_;
};

}  // namespace

Definition order_saga(OrderServices& s) {
  return Builder("OrderSaga")
      .input("order_id", integer().min(1))
      .input("amount", integer().min(1))
      .step("reserve", reserve_stock(s))
      .argument("order_id", input("order_id"))
      .undo(release_stock(s))
      .step<ChargeCard>("charge", &s)
      .argument("order_id", input("order_id"))
      .argument("amount", input("amount"))
      .wait_for("reserve")
      .retries(exponential_backoff(3, 100ms))
      .step("ship",
            [&s](const Args& a, StepContext& ctx) {
              return recorded(s, ctx, [&] {
                return Success(
                    {{"parcel", s.shipping.ship(a.get<int>("order_id"), ctx.idempotency_key())}});
              });
            })
      .argument("order_id", input("order_id"))
      .argument("payment", result("charge"))
      .returns("ship")
      .build();
}

void register_examples(Registry& registry, OrderServices& services) {
  registry.add(order_saga(services));
  registry.add(shipment(services));
  registry.add(gift_order(services));
  registry.add(fan_out_sum(services));
  registry.add(async_order(services));
  registry.add(refund_approval(services));
  registry.rate_limits().add(kBankRateLimit, {RateWindow{1s, kBankCallsPerSecond}});
  registry.add(transfer_funds(services));
}

}  // namespace examples
