#include "refund_approval/refund_approval.hpp"

#include "order_saga/recorded_step.hpp"

namespace examples {

using namespace reactor;

Definition refund_approval(OrderServices& s) {
  return Builder("RefundApproval")
      .input("order_id", integer().min(1))
      .input("amount", integer().min(1))
      .input("timeout_s", number().min(0.001).default_value(3600))
      .step("check", reserve_stock(s))
      .argument("order_id", input("order_id"))
      .undo(release_stock(s))
      .interrupt("approve")
      .wait_for("check")
      .argument("order_id", input("order_id"))
      .payload("approved", boolean())
      .payload("by", string().min_length(1))
      .correlation_id(
          [](const Args& a) { return "refund-" + std::to_string(a.get<int>("order_id")); })
      .timeout(input("timeout_s"), TimeoutMode::kActive)
      .step("refund",
            [&s](const Args& a, StepContext& ctx) {
              return recorded(s, ctx, [&]() -> StepResult {
                const Value& decision = a.get<Value>("decision");
                const std::string by = decision.at("by").get<std::string>();
                if (!decision.at("approved").get<bool>()) {
                  return Failure("refund rejected by " + by, /*retryable=*/false);
                }
                return Success({{"refunded", a.get<int>("amount")}, {"approved_by", by}});
              });
            })
      .argument("decision", result("approve"))
      .argument("amount", input("amount"))
      .returns("refund")
      .build();
}

}  // namespace examples
