#include "bench_saga/bench_saga.hpp"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>

namespace examples {

using namespace reactor;

namespace {

int env_int(const char* name, int fallback, int min) {
  const char* text = std::getenv(name);
  if (text == nullptr || *text == '\0') return fallback;
  char* end = nullptr;
  const long v = std::strtol(text, &end, 10);
  return (*end == '\0' && v >= min && v <= 1000000) ? static_cast<int>(v) : fallback;
}

std::string step_name(int k) { return "s" + std::to_string(k); }

// The body of step k: checks that `state` is what step k-1 stored, then
// returns it with the counter moved on.
StepResult advance(Value state, int k, int step_ms) {
  if (step_ms > 0) std::this_thread::sleep_for(std::chrono::milliseconds(step_ms));
  const auto counter = state.at("counter").get<std::int64_t>();
  if (counter != k - 1) {
    return Failure("saga " + state.at("saga").get<std::string>() + ": step " + std::to_string(k) +
                       " received counter " + std::to_string(counter) + ", expected " +
                       std::to_string(k - 1),
                   /*retryable=*/false);
  }
  state["counter"] = counter + 1;
  return Success(std::move(state));
}

}  // namespace

BenchSagaOptions BenchSagaOptions::from_env() {
  BenchSagaOptions o;
  o.steps = env_int("BENCH_STEPS", o.steps, 1);
  o.step_ms = env_int("BENCH_STEP_MS", o.step_ms, 0);
  return o;
}

std::string bench_saga_id(int index) {
  char id[16];
  std::snprintf(id, sizeof id, "s%06d", index);
  return id;
}

Value bench_saga_input(int index, double t_enq_ms, int pad_length) {
  return Value{{"saga", bench_saga_id(index)},
               {"counter", 0},
               {"t_enq", t_enq_ms},
               {"pad", std::string(static_cast<std::size_t>(pad_length), 'x')}};
}

Definition bench_saga(const BenchSagaOptions& options) {
  const int steps = options.steps < 1 ? 1 : options.steps;
  const int step_ms = options.step_ms;
  Builder b(kBenchSagaName);
  b.input("saga", string())
      .input("counter", integer())
      .input("t_enq", number())
      .input("pad", string());
  // Step 1's state is the inputs themselves.
  b.step(step_name(1), [step_ms](const Args& a) { return advance(a.to_json(), 1, step_ms); });
  for (const char* field : {"saga", "counter", "t_enq", "pad"}) b.argument(field, input(field));
  for (int k = 2; k <= steps; ++k) {
    b.step(step_name(k), [k, step_ms](const Args& a) { return advance(a["state"], k, step_ms); });
    b.argument("state", result(step_name(k - 1)));
  }
  b.returns(step_name(steps));
  return b.build();
}

void register_bench_saga(Registry& registry, const BenchSagaOptions& options) {
  registry.add(bench_saga(options));
}

}  // namespace examples
