// An order saga, reserve -> charge -> ship: one order goes through, one card is declined and
// the saga rolls itself back. Exits 0 only when both runs end as expected.
#include <reactor/reactor.hpp>

#include <chrono>
#include <iostream>

using namespace reactor;

Definition order_saga() {
  return Builder("OrderSaga")
      .input("order_id", integer().min(1))
      .input("amount", integer().min(1).max(100'000))
      .step("reserve", [](const Args& a) { return Success({{"reservation", a["order_id"]}}); })
        .argument("order_id", input("order_id"))
        .undo([](const Value& reserved, const Args&, StepContext&) {
          std::cout << "  undo reserve: release " << reserved["reservation"] << "\n";
          return Success();
        })
      .step("charge", [](const Args& a, StepContext& ctx) {
          if (ctx.attempt() == 1) return Failure("gateway timeout");  // retryable
          if (a.get<int>("amount") > 1000) return Failure("card declined", false);
          return Success({{"payment", ctx.idempotency_key()}});
        })
        .argument("amount", input("amount"))
        .retries(exponential_backoff(3, std::chrono::milliseconds(10)))
        .compensate([](const std::string& error, const Args&, StepContext&) {
          std::cout << "  compensate charge: void the authorisation (" << error << ")\n";
          return Success();
        })
      .step("ship", [](const Args& a) { return Success({{"tracking", a["payment"]}}); })
        .argument("payment", result("charge", "payment"))
      .returns("ship")
      .build();
}

int main() {
  Engine engine;
  engine.registry().add(order_saga());
  auto order = [&](int order_id, int amount) {
    RunResult r = engine.run("OrderSaga", {{"order_id", order_id}, {"amount", amount}});
    std::cout << "order " << order_id << ": " << to_string(r.status) << " | "
              << r.trace_summary() << (r.error ? " | error: " + r.error->message : "") << "\n";
    return r;
  };
  RunResult shipped = order(1, 250);
  RunResult declined = order(2, 5000);
  const bool as_expected =
      shipped.ok() && shipped.trace_summary() == "ran reserve, charge, charge, ship" &&
      declined.status == RunStatus::kFailed &&
      declined.trace_summary() == "ran reserve, charge, charge; compensated charge; undid reserve";
  return as_expected ? 0 : 1;
}
