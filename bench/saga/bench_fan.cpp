#include "saga/bench_fan.hpp"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <thread>

namespace reactor_bench {

using namespace reactor;

namespace {

Definition fan_element(int step_ms) {
  return Builder("BenchFan.element")
      .input("i", integer())
      .step("el",
            [step_ms](const Args& a) {
              if (step_ms > 0) std::this_thread::sleep_for(std::chrono::milliseconds(step_ms));
              return Success(2 * a.get<std::int64_t>("i") + 1);
            })
      .argument("i", input("i"))
      .returns("el")
      .build();
}

}  // namespace

BenchFanOptions BenchFanOptions::from_env() {
  BenchFanOptions o;
  if (const char* ms = std::getenv("BENCH_STEP_MS"); ms != nullptr && *ms != '\0') {
    o.step_ms = std::max(0, static_cast<int>(std::strtod(ms, nullptr) + 0.5));
  }
  if (const char* claim = std::getenv("BENCH_CLAIM"); claim != nullptr && *claim != '\0') {
    o.claim = std::max(1, std::atoi(claim));
  }
  o.record = BenchRecord::from_env();
  return o;
}

Definition bench_fan(const BenchFanOptions& options) {
  std::shared_ptr<BenchRecord> record = options.record;
  return Builder(kBenchFanName)
      .input("m", integer().min(0))
      .input("batch", integer().min(1).default_value(50))
      .input("t_enq", number())
      .map("fan", fan_element(options.step_ms))
      .source_pages([](const Args& a, std::size_t offset, std::size_t limit) {
        const auto m = static_cast<std::size_t>(a.get<std::int64_t>("m"));
        Value page = Value::array();
        for (std::size_t i = offset; i < std::min(m, offset + limit); ++i) page.push_back(i);
        return page;
      })
      .argument("m", input("m"))
      .argument("i", element("fan"))
      .fan_out(input("batch"))
      .claim_batch(static_cast<std::uint32_t>(std::max(options.claim, 1)))
      .collect([](const MapResults& results) {
        std::int64_t sum = 0;
        for (const ElementOutcome& e : results) sum += e.value.get<std::int64_t>();
        return Value{{"sum", sum}, {"count", results.indices()}};
      })
      .step("collector",
            [record](const Args& a) -> StepResult {
              Value out = a["fan"];
              if (record) {
                Value done{{"saga", "fan"},
                           {"sum", out["sum"]},
                           {"count", out["count"]},
                           {"t_enq", a["t_enq"]},
                           {"t_done", bench_now_ms()}};
                if (auto why = record->command({"RPUSH", "bench:done", done.dump()}); !why.empty()) {
                  return Failure(why, /*retryable=*/false);
                }
              }
              return Success(std::move(out));
            })
      .argument("fan", result("fan"))
      .argument("t_enq", input("t_enq"))
      .returns("collector")
      .build();
}

void register_bench_fan(Registry& registry, const BenchFanOptions& options) {
  registry.add(bench_fan(options));
}

}  // namespace reactor_bench
