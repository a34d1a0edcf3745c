// The reactors of the fan-out scenarios (fan_out_scenarios.hpp): an element that doubles, the maps
// over it, and the inputs and values they are checked with. Side effects go to an Effects log by
// their idempotency keys.
#pragma once

#include <string>

#include "conformance/faulty_backend.hpp"
#include "reactor/reactor.hpp"

namespace reactor::conformance {

// Element x: "double" returns 2x (fails for good when x equals fail_at), undone by an undo.
inline Definition doubler(Effects& fx, const std::string& name = "Doubler") {
  return Builder(name)
      .input("x", integer())
      .input("fail_at", any().optional())
      .step("double",
            [&fx](const Args& a, StepContext& ctx) -> StepResult {
              const std::int64_t x = a.get<std::int64_t>("x");
              if (a["fail_at"].is_number_integer() && a["fail_at"].get<std::int64_t>() == x) {
                fx.add('F', ctx.idempotency_key());
                return Failure("element " + std::to_string(x) + " fails", false);
              }
              fx.add('S', ctx.idempotency_key());
              return Success(2 * x);
            })
      .argument("x", input("x"))
      .argument("fail_at", input("fail_at"))
      .undo([&fx](const Value&, const Args&, StepContext& ctx) -> StepResult {
        fx.add('U', ctx.idempotency_key());
        return Success();
      })
      .returns("double")
      .build();
}

// Step "reserve", undone by an undo; both logged.
inline Builder& add_reserve(Builder& b, Effects& fx) {
  return b
      .step("reserve",
            [&fx](const Args&, StepContext& ctx) -> StepResult {
              fx.add('S', ctx.idempotency_key());
              return Success("reserved");
            })
      .undo([&fx](const Value&, const Args&, StepContext& ctx) -> StepResult {
        fx.add('U', ctx.idempotency_key());
        return Success();
      });
}

// reserve → map "m" over input "items" (each element a Doubler) → after. `after` fails when the
// input "fail_after" is true. fan_out(batch) unless batch is 0 (inline), its elements claimed
// `claim` at a time.
inline Definition summing(Effects& fx, const std::string& name, std::uint32_t batch,
                          bool atomic = true, const Definition* element_def = nullptr,
                          std::uint32_t claim = 1) {
  Builder b(name);
  b.input("items", array())
      .input("fail_at", any().optional())
      .input("fail_after", boolean().default_value(false));
  add_reserve(b, fx)
      .map("m", element_def ? *element_def : doubler(fx))
      .source(input("items"))
      .argument("x", element("m"))
      .argument("fail_at", input("fail_at"))
      .wait_for("reserve")
      .atomic(atomic);
  if (batch > 0) b.fan_out(batch);
  if (claim > 1) b.claim_batch(claim);
  b.step("after",
         [](const Args& a) -> StepResult {
           if (a.get<bool>("fail")) return Failure("after fails", false);
           return Success(a["m"]);
         })
      .argument("m", result("m"))
      .argument("fail", input("fail_after"));
  return b.returns("after").build();
}

// reserve → map "m" over input "items" (fan_out(2), claims of `claim`) beside step "boom", which
// fails: the run fails while its map is out.
inline Definition failing_beside_its_map(Effects& fx, std::uint32_t claim = 1) {
  Builder b("Sum");
  b.input("items", array());
  add_reserve(b, fx)
      .map("m", doubler(fx))
      .source(input("items"))
      .argument("x", element("m"))
      .wait_for("reserve")
      .fan_out(2)
      .claim_batch(claim)
      .step("boom", [](const Args&) -> StepResult { return Failure("boom", false); })
      .wait_for("reserve");
  return b.build();
}

inline Value items(int n) {
  Value v = Value::array();
  for (int i = 0; i < n; ++i) v.push_back(i);
  return v;
}

inline Value doubled(int n) {
  Value v = Value::array();
  for (int i = 0; i < n; ++i) v.push_back(2 * i);
  return v;
}

}  // namespace reactor::conformance
