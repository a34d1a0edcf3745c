// reactor-bench engine: engine overhead per step, no persistence (see bench/README.md).
//
//   cmake --preset release && cmake --build --preset release --target reactor_bench
//   ./build/release/reactor-bench engine [Google Benchmark flags]
//
// Counters:
//   ns_per_step         wall ns per step per run (manual steady_clock around the timed loop,
//                       divided by steps; kAvgIterations divides by iterations).
//   bytes_per_run       heap bytes still held while the finished RunResult is alive
//                       (live bytes after run() minus live bytes before it).
//   peak_bytes_per_run  highest live heap bytes during the run, above the level before it.
//   allocs_per_step     operator new calls during one run, divided by steps.
//
// Heap figures come from one extra, untimed run per benchmark with counting switched on
// (heap_counter.hpp). In the timed loop the replaced operator new/delete are plain malloc/free
// behind one branch, so counting does not distort ns_per_step.
#include "reactor/engine.hpp"

#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "google_benchmark.hpp"
#include "heap_counter.hpp"
#include "reactor/builder.hpp"
#include "reactor/run_result.hpp"

// ---------------------------------------------------------------------------------------------
// The ~200-byte step value and the step bodies (shared by the engine runs and the baselines)
// ---------------------------------------------------------------------------------------------
namespace {

namespace heap = reactor_bench::heap;
using reactor::Args;
using reactor::Value;

// 160 'x': {"saga":"s000042","counter":<k>,"pad":"xx…"} serialises to ~200 bytes.
const std::string& pad() {
  static const std::string p(160, 'x');
  return p;
}

std::string saga_id(std::int64_t n) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "s%06lld", static_cast<long long>(n));
  return buf;
}

Value make_value(const std::string& saga, std::int64_t counter) {
  Value v = Value::object();
  v["saga"] = saga;
  v["counter"] = counter;
  v["pad"] = pad();
  return v;
}

// Chain step body: reads `prev` and builds a new value from it, counter + 1.
Value next_value(const Value& prev) {
  Value v = Value::object();
  v["saga"] = prev["saga"];
  v["counter"] = prev["counter"].get<std::int64_t>() + 1;
  v["pad"] = prev["pad"];
  return v;
}

std::string step_name(char prefix, std::size_t k) { return prefix + std::to_string(k); }

// ---------------------------------------------------------------------------------------------
// Definitions
// ---------------------------------------------------------------------------------------------

enum class Payload { kJson, kNull };

// s0 … s<n-1>; s<k> has one argument `prev`: the input `seed` for s0, else result("s<k-1>").
// `concurrency`: its max_concurrency (a chain has nothing to run in parallel).
reactor::Definition chain_definition(std::size_t n, bool returns_last, Payload payload,
                                     int concurrency = 1) {
  reactor::Builder b("chain");
  b.max_concurrency(concurrency);
  b.input("seed");
  for (std::size_t k = 0; k < n; ++k) {
    if (payload == Payload::kJson) {
      b.step(step_name('s', k),
             [](const Args& a) { return reactor::Success(next_value(a["prev"])); });
    } else {
      // Engine cost alone: read the argument, return null.
      b.step(step_name('s', k), [](const Args& a) {
        benchmark::DoNotOptimize(&a["prev"]);
        return reactor::Success();
      });
    }
    b.argument("prev", k == 0 ? reactor::input("seed") : reactor::result(step_name('s', k - 1)));
  }
  if (returns_last) b.returns(step_name('s', n - 1));
  return b.build();
}

// w0 … w<n-1> (no arguments, each returns a ~200-byte value), then `join` with n arguments
// w0 = result("w0") … that sums the counters.
reactor::Definition fan_in_definition(std::size_t n, int concurrency) {
  reactor::Builder b("fan_in");
  b.max_concurrency(concurrency);
  for (std::size_t k = 0; k < n; ++k) {
    b.step(step_name('w', k), [saga = saga_id(static_cast<std::int64_t>(k)), k](const Args&) {
      return reactor::Success(make_value(saga, static_cast<std::int64_t>(k)));
    });
  }
  std::vector<std::string> names;
  for (std::size_t k = 0; k < n; ++k) names.push_back(step_name('w', k));
  b.step("join", [names](const Args& a) {
    std::int64_t total = 0;
    for (const auto& name : names) total += a[name]["counter"].get<std::int64_t>();
    return reactor::Success(Value{{"total", total}});
  });
  for (const auto& name : names) b.argument(name, reactor::result(name));
  b.returns("join");
  return b.build();
}

// ---------------------------------------------------------------------------------------------
// Harness
// ---------------------------------------------------------------------------------------------

// Times `body` (one run, whatever it returns destroyed inside the loop) and sets the counters.
// `check` must accept the result of the extra, untimed run made with heap counting on.
template <typename Body, typename Check>
void run_benchmark(benchmark::State& state, double steps, Body body, Check check) {
  // Untimed: one warm-up run (thread pool, statics, thread-locals), then one counted run for
  // the heap figures and a check that the run did what it should.
  benchmark::DoNotOptimize(body());
  {
    heap::start();
    const heap::Snapshot before = heap::snapshot();
    std::int64_t after_live = 0;
    std::int64_t after_allocs = 0;
    bool ok = false;
    {
      auto result = body();
      const heap::Snapshot after = heap::snapshot();
      after_live = after.live;
      after_allocs = after.allocs;
      ok = check(result);
    }
    const std::int64_t peak = heap::peak();
    const std::int64_t leftover = heap::live() - before.live;
    heap::stop();
    if (!ok) {
      state.SkipWithError("run did not produce the expected value");
      return;
    }
    // A few bytes move with the parallel pool's queue; more than that would be a leak.
    if (leftover > 1024 || leftover < -1024) {
      std::fprintf(stderr, "note: %lld bytes still live after the result was destroyed\n",
                   static_cast<long long>(leftover));
    }
    state.counters["bytes_per_run"] = static_cast<double>(after_live - before.live);
    state.counters["peak_bytes_per_run"] = static_cast<double>(peak - before.live);
    state.counters["allocs_per_step"] = static_cast<double>(after_allocs - before.allocs) / steps;
  }

  const auto t0 = std::chrono::steady_clock::now();
  for (auto _ : state) {
    auto result = body();
    benchmark::DoNotOptimize(result);
  }
  const auto t1 = std::chrono::steady_clock::now();
  const double ns = std::chrono::duration<double, std::nano>(t1 - t0).count();
  state.counters["ns_per_step"] =
      benchmark::Counter(ns / steps, benchmark::Counter::kAvgIterations);
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * steps));
}

Value chain_inputs() { return Value{{"seed", make_value(saga_id(42), 0)}}; }

// --- Engine: 1,000-step linear chain (args: steps, returns_last, max_concurrency) ------------
void BM_EngineChain(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  const bool returns_last = state.range(1) != 0;
  const int concurrency = static_cast<int>(state.range(2));
  reactor::Engine engine;
  const reactor::Definition def = chain_definition(n, returns_last, Payload::kJson, concurrency);
  const Value inputs = chain_inputs();
  run_benchmark(
      state, static_cast<double>(n), [&] { return engine.run(def, inputs); },
      [&](const reactor::RunResult& r) {
        if (!r.ok()) return false;
        const Value& last = returns_last ? r.value : r.value[step_name('s', n - 1)];
        return last["counter"] == static_cast<std::int64_t>(n);
      });
}

// --- Engine: same chain, steps return null (engine cost without the JSON work) ---------------
void BM_EngineChainNull(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  reactor::Engine engine;
  const reactor::Definition def = chain_definition(n, true, Payload::kNull);
  const Value inputs = chain_inputs();
  run_benchmark(
      state, static_cast<double>(n), [&] { return engine.run(def, inputs); },
      [](const reactor::RunResult& r) { return r.ok() && r.value.is_null(); });
}

// --- Engine: 100-wide fan-in (args: width, max_concurrency) -----------------------------------
void BM_EngineFanIn(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  const int concurrency = static_cast<int>(state.range(1));
  reactor::Engine engine;
  const reactor::Definition def = fan_in_definition(n, concurrency);
  const auto expected = static_cast<std::int64_t>(n * (n - 1) / 2);
  run_benchmark(
      state, static_cast<double>(n + 1), [&] { return engine.run(def, Value::object()); },
      [&](const reactor::RunResult& r) { return r.ok() && r.value["total"] == expected; });
}

// --- Baseline: the chain's JSON work alone, values kept like the engine keeps results --------
void BM_JsonOnlyChain(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  const Value seed = make_value(saga_id(42), 0);
  run_benchmark(
      state, static_cast<double>(n),
      [&] {
        std::vector<Value> values;
        values.reserve(n);
        const Value* prev = &seed;
        for (std::size_t k = 0; k < n; ++k) {
          values.push_back(next_value(*prev));
          prev = &values.back();
        }
        return values;
      },
      [&](const std::vector<Value>& v) {
        return v.back()["counter"] == static_cast<std::int64_t>(n);
      });
}

// --- Baseline: the fan-in's JSON work alone (n values built, then summed by name) ------------
void BM_JsonOnlyFanIn(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  std::vector<std::string> sagas;
  for (std::size_t k = 0; k < n; ++k) sagas.push_back(saga_id(static_cast<std::int64_t>(k)));
  run_benchmark(
      state, static_cast<double>(n + 1),
      [&] {
        std::vector<Value> values;
        values.reserve(n + 1);
        for (std::size_t k = 0; k < n; ++k) {
          values.push_back(make_value(sagas[k], static_cast<std::int64_t>(k)));
        }
        std::int64_t total = 0;
        for (std::size_t k = 0; k < n; ++k) total += values[k]["counter"].get<std::int64_t>();
        values.push_back(Value{{"total", total}});
        return values;
      },
      [&](const std::vector<Value>& v) {
        return v.back()["total"] == static_cast<std::int64_t>(n * (n - 1) / 2);
      });
}

// --- Components: what single engine operations cost, to read the profile against -----------

// SystemClock::now() through the Clock interface, as Execution::now_ms() calls it (4x a step).
void BM_ClockNow(benchmark::State& state) {
  reactor::Clock& clock = *reactor::SystemClock::instance();
  constexpr std::size_t kCalls = 1000;
  run_benchmark(
      state, kCalls,
      [&] {
        std::int64_t sum = 0;
        for (std::size_t k = 0; k < kCalls; ++k) sum += reactor::to_unix_ms(clock.now());
        return sum;
      },
      [](std::int64_t sum) { return sum > 0; });
}

// A deep copy of one ~200-byte step value (what make_run_result does per step).
void BM_JsonCopy(benchmark::State& state) {
  const Value v = make_value(saga_id(42), 7);
  constexpr std::size_t kCopies = 1000;
  run_benchmark(
      state, kCopies,
      [&] {
        std::vector<Value> copies;
        copies.reserve(kCopies);
        for (std::size_t k = 0; k < kCopies; ++k) copies.push_back(v);
        return copies;
      },
      [&](const std::vector<Value>& c) { return c.back() == v; });
}

}  // namespace

namespace reactor_bench {

void register_engine_benchmarks() {
  benchmark::RegisterBenchmark("BM_EngineChain", BM_EngineChain)
      ->ArgNames({"steps", "returns_last", "concurrency"})
      ->Args({1000, 1, 1})
      ->Args({1000, 1, 2})
      ->Args({1000, 1, 4})
      ->Args({100, 1, 1})
      ->Args({1000, 0, 1})
      ->UseRealTime()
      ->Unit(benchmark::kMicrosecond);
  benchmark::RegisterBenchmark("BM_EngineChainNull", BM_EngineChainNull)
      ->ArgName("steps")
      ->Arg(1000)
      ->Arg(100)
      ->UseRealTime()
      ->Unit(benchmark::kMicrosecond);
  benchmark::RegisterBenchmark("BM_EngineFanIn", BM_EngineFanIn)
      ->ArgNames({"width", "concurrency"})
      ->Args({100, 1})
      ->Args({100, 2})
      ->UseRealTime()
      ->Unit(benchmark::kMicrosecond);
  benchmark::RegisterBenchmark("BM_JsonOnlyChain", BM_JsonOnlyChain)
      ->ArgName("steps")
      ->Arg(1000)
      ->UseRealTime()
      ->Unit(benchmark::kMicrosecond);
  benchmark::RegisterBenchmark("BM_JsonOnlyFanIn", BM_JsonOnlyFanIn)
      ->ArgName("width")
      ->Arg(100)
      ->UseRealTime()
      ->Unit(benchmark::kMicrosecond);
  benchmark::RegisterBenchmark("BM_ClockNow", BM_ClockNow)
      ->UseRealTime()
      ->Unit(benchmark::kMicrosecond);
  benchmark::RegisterBenchmark("BM_JsonCopy", BM_JsonCopy)
      ->UseRealTime()
      ->Unit(benchmark::kMicrosecond);
}

}  // namespace reactor_bench
