#include "order_saga/order_saga.hpp"

#include <chrono>

namespace examples {

using namespace reactor;
using namespace std::chrono_literals;

namespace {

// The charge step as a class: it needs the payment service for run, and
// again for undo (a refund) after a restart, when nothing from run survives.
class ChargeCard : public Step {
 public:
  explicit ChargeCard(Payments* payments) : payments_(payments) {}

  StepResult run(const Args& a, StepContext& ctx) override {
    std::string charge_id;
    if (!payments_->charge(a.get<int>("order_id"), a.get<int>("amount"), ctx.idempotency_key(),
                           charge_id)) {
      return Failure("card declined", /*retryable=*/false);
    }
    return Success({{"charge_id", charge_id}, {"amount", a.get<int>("amount")}});
  }

  // A declined charge took no money: nothing to give back.
  StepResult compensate(const std::string&, const Args&, StepContext&) override {
    return Success();
  }

  StepResult undo(const Value& charged, const Args&, StepContext&) override {
    payments_->refund(charged.at("charge_id").get<std::string>());
    return Success();
  }

 private:
  Payments* payments_;
};

}  // namespace

Definition order_saga(OrderServices& s) {
  return Builder("OrderSaga")
      .input("order_id", integer().min(1))
      .input("amount", integer().min(1))
      .step("reserve",
            [&s](const Args& a, StepContext& ctx) {
              return Success(
                  {{"reservation", s.inventory.reserve(a.get<int>("order_id"),
                                                       ctx.idempotency_key())}});
            })
      .argument("order_id", input("order_id"))
      .undo([&s](const Value& reserved, const Args&, StepContext&) {
        s.inventory.release(reserved.at("reservation").get<std::string>());
        return Success();
      })
      .step<ChargeCard>("charge", &s.payments)
      .argument("order_id", input("order_id"))
      .argument("amount", input("amount"))
      .wait_for("reserve")
      .retries(exponential_backoff(3, 100ms))
      .step("ship",
            [&s](const Args& a, StepContext& ctx) {
              return Success(
                  {{"parcel", s.shipping.ship(a.get<int>("order_id"), ctx.idempotency_key())}});
            })
      .argument("order_id", input("order_id"))
      .argument("payment", result("charge"))
      .returns("ship")
      .build();
}

void register_examples(Registry& registry, OrderServices& services) {
  registry.add(order_saga(services));
}

}  // namespace examples
