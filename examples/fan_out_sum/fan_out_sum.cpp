#include "fan_out_sum/fan_out_sum.hpp"

#include <algorithm>
#include <chrono>
#include <thread>

namespace examples {

using namespace reactor;

namespace {

// One element: add = 2i + 1, undone by taking it back.
Definition sum_element(OrderServices& s) {
  return Builder("FanOutSum.element")
      .input("i", integer().min(0))
      .input("step_ms", integer().min(0))
      .input("fail_at", any().optional())
      .step("add",
            [&s](const Args& a, StepContext& ctx) -> StepResult {
              s.ledger.append('S', ctx.idempotency_key());
              const int ms = a.get<int>("step_ms");
              if (ms > 0) std::this_thread::sleep_for(std::chrono::milliseconds(ms));
              const std::int64_t i = a.get<std::int64_t>("i");
              const Value& fail_at = a["fail_at"];
              if (fail_at.is_number_integer() && fail_at.get<std::int64_t>() == i) {
                return Failure("element " + std::to_string(i) + " fails (fail_at)", false);
              }
              s.ledger.append('E', ctx.idempotency_key());
              return Success(2 * i + 1);
            })
      .argument("i", input("i"))
      .argument("step_ms", input("step_ms"))
      .argument("fail_at", input("fail_at"))
      .undo([&s](const Value&, const Args&, StepContext& ctx) -> StepResult {
        s.ledger.append('U', ctx.idempotency_key());
        return Success();
      })
      .returns("add")
      .build();
}

}  // namespace

Definition fan_out_sum(OrderServices& services) {
  return Builder("FanOutSum")
      .input("count", integer().min(0).max(static_cast<double>(kMaxMapElements)))
      .input("batch_size", integer().min(1).default_value(50))
      .input("claim", integer().min(1).default_value(1))
      .input("fail_at", integer().optional())
      .input("step_ms", integer().min(0).default_value(0))
      .map("sum", sum_element(services))
      // 0 … count-1, a page at a time: never one array of count items.
      .source_pages([](const Args& a, std::size_t offset, std::size_t limit) {
        const auto count = static_cast<std::size_t>(a.get<std::int64_t>("count"));
        Value page = Value::array();
        for (std::size_t i = offset; i < std::min(count, offset + limit); ++i) page.push_back(i);
        return page;
      })
      .argument("count", input("count"))
      .argument("i", element("sum"))
      .argument("step_ms", input("step_ms"))
      .argument("fail_at", input("fail_at"))
      .fan_out(input("batch_size"))
      .claim_batch(input("claim"))  // 1: each element a run; n: claims of n (docs/maps.md)
      .collect([](const MapResults& results) {
        std::int64_t sum = 0;
        for (const ElementOutcome& e : results) sum += e.value.get<std::int64_t>();
        return Value{{"sum", sum}, {"count", results.indices()}};
      })
      .returns("sum")
      .build();
}

}  // namespace examples
