// reactor-bench handoff: the latency of a hand-off through worker processes (bench/README.md).
#include "handoff.hpp"

#include <chrono>
#include <cstdio>
#include <thread>

#include "reactor/reactor.hpp"
#include "saga/bench_hand_off.hpp"
#include "storage/backend_url.hpp"
#include "support.hpp"
#include "worker_processes.hpp"

namespace reactor_bench {

using namespace reactor;
using namespace std::chrono_literals;

namespace {

// Waits (bounded) until run `id` ends; its stored result in `r`.
Status wait_for_end(Engine& engine, const std::string& id,
                    const std::chrono::steady_clock::time_point deadline, RunResult& r) {
  while (std::chrono::steady_clock::now() < deadline) {
    Result<RunHeaderRow> h = engine.backend()->load_header(id);
    if (h.ok() && is_terminal(h->status)) {
      Result<RunResult> found = engine.find(id);
      if (found.ok()) r = std::move(found).value();
      return found.status();
    }
    std::this_thread::sleep_for(200us);
  }
  return Status::Unavailable("run " + id + " did not end within the --timeout");
}

// One run: handed off by engine.run, ended by a worker; the hand-off's latency in `us`.
Status one_hand_off(Engine& engine, std::chrono::steady_clock::time_point deadline, double& us) {
  RunResult r = engine.run(kBenchHandOffName, Value::object());
  if (r.status != RunStatus::kRunning || r.error) {
    return Status::Internal("the run did not hand off: " + std::string(to_string(r.status)) + " " +
                            r.trace_summary());
  }
  if (Status s = wait_for_end(engine, r.run_id, deadline, r); !s.ok()) return s;
  const StepOutcome* caller = r.step("caller");
  const StepOutcome* worker = r.step("worker");
  if (r.status != RunStatus::kCompleted || caller == nullptr || worker == nullptr) {
    return Status::Internal("the run ended " + std::string(to_string(r.status)) + ": " +
                            r.trace_summary());
  }
  us = static_cast<double>(worker->result.get<std::int64_t>() - caller->result.get<std::int64_t>());
  return Status::Ok();
}

Status measure(const HandOffOptions& o, const std::string& storage, const std::string& scratch,
               std::vector<double>& latencies) {
  Result<std::unique_ptr<Backend>> backend = open_backend(storage, SystemClock::instance());
  if (const Status& s = backend.status(); !s.ok()) return s;
  EngineOptions options;
  options.backend = std::move(backend).value();
  Engine engine(std::move(options));
  register_bench_hand_off(engine.registry());
  WorkerProcesses workers;
  for (int w = 0; w < o.workers; ++w) {
    if (!workers.spawn(storage, {"--threads", "1", "--reactors", kBenchHandOffName}, {},
                       scratch + "/handoff-worker-" + std::to_string(w) + ".log")) {
      return Status::Internal("cannot start a worker process");
    }
  }
  if (!workers.wait_ready(10s)) {
    return Status::Internal("the workers did not start" + workers.log_tails());
  }
  const auto deadline = std::chrono::steady_clock::now() +
                        std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                            std::chrono::duration<double>(o.timeout_s));
  for (int k = 0; k < o.runs; ++k) {
    double us = 0;
    if (Status s = one_hand_off(engine, deadline, us); !s.ok()) {
      return Status::Internal(s.message() + workers.log_tails());
    }
    latencies.push_back(us);
  }
  return Status::Ok();
}

}  // namespace

int run_hand_off(const HandOffOptions& o) {
  std::printf("reactor-bench handoff (%s)\n", machine_note().c_str());
  ScratchDir dir(o.dir);
  if (dir.path().empty()) {
    std::fprintf(stderr, "reactor-bench handoff: %s\n", dir.error().c_str());
    return 1;
  }
  const std::string storage = o.storage.empty() ? dir.sqlite_url("handoff.db") : o.storage;
  std::printf(
      "BenchHandOff: step caller, background_after(caller), step worker; %d runs one after "
      "another, %d worker process(es) x 1 thread; storage %s\n",
      o.runs, o.workers, storage::mask_password(storage).c_str());
  std::fflush(stdout);
  std::vector<double> us;
  if (Status s = measure(o, storage, dir.path(), us); !s.ok()) {
    std::printf("  FAILED: %s\n", s.to_string().c_str());
    return 1;
  }
  std::printf(
      "  caller's last step finished -> worker's first step started: p50 %.3f ms, p99 %.3f ms, "
      "max %.3f ms (%zu runs, every one completed)\n",
      percentile(us, 50) / 1000, percentile(us, 99) / 1000, percentile(us, 100) / 1000, us.size());
  return 0;
}

}  // namespace reactor_bench
