#include "saga/bench_async.hpp"

#include <chrono>
#include <thread>

#include "saga/unix_time.hpp"

namespace reactor_bench {

using namespace reactor;

namespace {

Definition bench_async() {
  return Builder(kBenchAsyncName)
      .input("unit_ms", integer().min(0).default_value(20))
      .async_step("unit",
                  [](const Args& a) {
                    std::this_thread::sleep_for(std::chrono::milliseconds(a.get<int>("ms")));
                    return Success(unix_us());
                  })
      .argument("ms", input("unit_ms"))
      .step("reader",
            [](const Args& a) {
              return Success(Value{{"unit_done", a["unit"]}, {"resumed", unix_us()}});
            })
      .argument("unit", result("unit"))
      .returns("reader")
      .build();
}

// x, then y (a plain step or an unread unit), then the hand-off; z runs in a worker.
Definition bench_dispatch(const char* name, bool unit) {
  Builder b(name);
  b.step("x", [](const Args&) { return Success(1); });
  if (unit) {
    b.async_step("y", [](const Args&) { return Success(2); });
  } else {
    b.step("y", [](const Args&) { return Success(2); });
  }
  b.wait_for("x").step("z", [](const Args&) { return Success(3); }).wait_for("y");
  return b.background_after("y").build();
}

}  // namespace

void register_bench_async(Registry& registry) {
  registry.add(bench_async());
  registry.add(bench_dispatch(kBenchDispatchBaseName, false));
  registry.add(bench_dispatch(kBenchDispatchUnitName, true));
}

}  // namespace reactor_bench
