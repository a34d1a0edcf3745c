#include "worker.hpp"

#include <cstdio>
#include <memory>

#include "reactor/reactor.hpp"
#include "saga/bench_async.hpp"
#include "saga/bench_fan.hpp"
#include "saga/bench_hand_off.hpp"
#include "saga/bench_resume.hpp"
#include "saga/bench_saga.hpp"

namespace reactor_bench {

using namespace reactor;

int run_worker(const BenchWorkerOptions& o) {
  constexpr const char* kName = "reactor-bench worker";
  const sigset_t stop_signals = reactor::cli::block_stop_signals();
  Result<std::unique_ptr<Backend>> backend = open_backend(o.storage, SystemClock::instance());
  if (const Status& s = backend.status(); !s.ok()) {
    std::fprintf(stderr, "%s: cannot open storage: %s\n", kName, s.to_string().c_str());
    return 2;
  }
  std::shared_ptr<BenchRecord> ready;
  if (o.bench_ready) {
    ready = BenchRecord::from_env();
    if (ready == nullptr) {
      std::fprintf(stderr, "%s: --bench-ready needs BENCH_REDIS_PORT\n", kName);
      return 2;
    }
  }
  EngineOptions options;
  options.backend = std::move(backend).value();
  options.durability = reactor::cli::durability_options(o.loop);
  Engine engine(std::move(options));
  // BENCH_STEPS / BENCH_STEP_MS: reactor-bench w1, map and the peer harness set them.
  register_bench_saga(engine.registry(), BenchSagaOptions::from_env());
  register_bench_fan(engine.registry(), BenchFanOptions::from_env());
  register_bench_hand_off(engine.registry());
  register_bench_async(engine.registry());
  register_bench_resume(engine.registry());
  if (ready == nullptr) return reactor::cli::serve(engine, o.loop, stop_signals, kName);
  return reactor::cli::serve(engine, o.loop, stop_signals, kName,
                             [&ready] { return ready->announce_ready(); });
}

}  // namespace reactor_bench
