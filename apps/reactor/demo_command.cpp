#include <cstdio>
#include <iostream>

#include "commands.hpp"
#include "order_saga/order_saga.hpp"

namespace reactor_cli {

using namespace reactor;

namespace {

// Every order ends as the example promises: declined cards (order ids that
// are multiples of 10) fail and are compensated; the rest complete.
bool as_expected(int order_id, const RunResult& r) {
  if (order_id % 10 != 0) return r.status == RunStatus::kCompleted;
  return r.status == RunStatus::kFailed && r.error &&
         r.trace_summary() == "ran reserve, charge; compensated charge; undid reserve";
}

}  // namespace

int run_demo(const DemoOptions& options) {
  examples::OrderServices services;
  EngineOptions engine_options;
  if (options.log_events) engine_options.observers.push_back(std::make_shared<LogMiddleware>(std::cerr));
  Engine engine(std::move(engine_options));
  examples::register_examples(engine.registry(), services);

  std::printf("Reactor demo: %d OrderSaga runs (reserve stock -> charge card -> ship)\n",
              options.orders);
  std::printf("Orders whose id is a multiple of 10 have their card declined.\n\n");
  std::printf("%-6s %-7s %-10s %s\n", "order", "amount", "status", "trace");

  int completed = 0, compensated = 0, unexpected = 0;
  for (int id = 1; id <= options.orders; ++id) {
    const int amount = 500 + 100 * (id % 7);
    RunResult r = engine.run("OrderSaga", {{"order_id", id}, {"amount", amount}});
    if (r.status == RunStatus::kCompleted) ++completed;
    if (r.status == RunStatus::kFailed) ++compensated;
    if (!as_expected(id, r)) ++unexpected;
    std::printf("%-6d %-7d %-10s %s%s\n", id, amount, to_string(r.status),
                r.trace_summary().c_str(),
                r.error ? ("  [" + r.error->message + "]").c_str() : "");
  }

  std::printf("\n%-34s %d\n", "completed:", completed);
  std::printf("%-34s %d\n", "failed and compensated:", compensated);
  std::printf("%-34s %d\n", "ended otherwise than expected:", unexpected);
  std::printf("%-34s %d held, %d released\n", "stock reservations:",
              services.inventory.reserved(), services.inventory.released());
  std::printf("%-34s %d\n", "parcels shipped:", services.shipping.shipped());
  std::printf("%-34s %d cents\n", "money charged:", services.payments.charged_total());
  return unexpected == 0 ? 0 : 1;
}

}  // namespace reactor_cli
