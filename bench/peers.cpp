// reactor-bench peers-produce: the producer of the peer benchmark's workloads
// (bench/peers/reactor/contender), from the BENCH_* variables the harness sets.
#include "peers.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "reactor/reactor.hpp"
#include "saga/bench_fan.hpp"
#include "saga/bench_saga.hpp"

namespace reactor_bench {

using namespace reactor;

namespace {

std::string env_or(const char* name, const char* fallback) {
  const char* v = std::getenv(name);
  return v != nullptr && *v != '\0' ? v : fallback;
}

int env_int(const char* name, int fallback) {
  const std::string text = env_or(name, "");
  if (text.empty()) return fallback;
  char* end = nullptr;
  const long v = std::strtol(text.c_str(), &end, 10);
  return *end == '\0' && v >= 0 && v <= 100000000 ? static_cast<int>(v) : fallback;
}

std::string ms_text(double ms) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f", ms);
  return buf;
}

int produce_failed(const std::string& why) {
  std::fprintf(stderr, "reactor-bench peers-produce: %s\n", why.c_str());
  return 1;
}

}  // namespace

int run_peers_produce() {
  const std::string url = env_or("BENCH_REDIS_URL", "");
  const std::string workload = env_or("BENCH_WORKLOAD", "W1");
  auto record = BenchRecord::from_env();
  if (url.empty() || record == nullptr) {
    return produce_failed("BENCH_REDIS_URL and BENCH_REDIS_PORT must name the harness's Redis");
  }
  if (workload != "W1" && workload != "W2" && workload != "W3" && workload != "W4") {
    return produce_failed("workload " + workload + " is not implemented (W1 to W4 are)");
  }
  const int n = env_int("BENCH_N", workload == "W4" ? 200 : workload == "W3" ? 500 : 2000);
  const int pad = env_int("BENCH_PAD", 140);

  Result<std::unique_ptr<Backend>> backend = open_backend(url, SystemClock::instance());
  if (const Status& s = backend.status(); !s.ok()) {
    return produce_failed(s.to_string());
  }
  EngineOptions options;
  options.backend = std::move(backend).value();
  Engine engine(std::move(options));
  BenchSagaOptions saga = BenchSagaOptions::from_env();
  saga.record = nullptr;  // the producer runs no step
  register_bench_saga(engine.registry(), saga);

  const double t0 = bench_now_ms();
  double t_enq_end = t0;
  if (workload == "W2") {
    // One run: a fan-out map of BENCH_M elements; its collector step pushes the one record.
    register_bench_fan(engine.registry(), BenchFanOptions{});
    const int m = env_int("BENCH_M", 2000);
    const int batch = std::max(1, env_int("BENCH_BATCH", m));  // default: all out at once
    Result<std::string> started =
        engine.run_in_background(kBenchFanName, {{"m", m}, {"batch", batch}, {"t_enq", t0}});
    if (!started.ok()) return produce_failed(started.status().to_string());
    t_enq_end = bench_now_ms();
  } else if (workload == "W4") {
    // One at a time: start saga i, wait for its completion record, then i+1.
    for (int i = 0; i < n; ++i) {
      const double t_enq = bench_now_ms();
      Result<std::string> started =
          engine.run_in_background(kBenchSagaName, bench_saga_input(i, t_enq, pad));
      if (!started.ok()) return produce_failed(started.status().to_string());
      t_enq_end = bench_now_ms();
      bool timed_out = false;
      if (auto why = record->command(
              {"BLMOVE", "bench:done", "bench:done:seen", "LEFT", "RIGHT", "30"}, &timed_out);
          !why.empty()) {
        return produce_failed(why);
      }
      if (timed_out) {
        return produce_failed("saga " + bench_saga_id(i) + " did not complete in 30 s");
      }
    }
  } else {
    // In bulk: one call per commit-sized chunk, each saga's t_enq the time of
    // the call that enqueued it.
    for (int first = 0; first < n;) {
      const int count = std::min<int>(static_cast<int>(kBackgroundRunsPerCommit), n - first);
      const double t_enq = bench_now_ms();
      std::vector<Value> inputs;
      inputs.reserve(static_cast<std::size_t>(count));
      for (int i = first; i < first + count; ++i) {
        inputs.push_back(bench_saga_input(i, t_enq, pad));
      }
      BackgroundBatch started = engine.run_many_in_background(kBenchSagaName, std::move(inputs));
      if (!started.ok()) return produce_failed(started.status.to_string());
      first += count;
    }
    t_enq_end = bench_now_ms();
  }
  if (auto why = record->command(
          {"HSET", "bench:meta", "t0", ms_text(t0), "t_enq_end", ms_text(t_enq_end)});
      !why.empty()) {
    return produce_failed(why);
  }
  std::fprintf(stderr, "reactor-bench peers-produce: %s, %d sagas started in %.3f s\n",
               workload.c_str(), n, (t_enq_end - t0) / 1000.0);
  return 0;
}

}  // namespace reactor_bench
