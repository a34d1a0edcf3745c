// reactor-bench async: the resume latency of a parked reader, and the cost of a dispatch
// (bench/README.md, "Async units").
#include "async.hpp"

#include <chrono>
#include <cstdio>
#include <thread>

#include "counting_backend.hpp"
#include "reactor/reactor.hpp"
#include "saga/bench_async.hpp"
#include "storage/backend_url.hpp"
#include "support.hpp"
#include "worker_processes.hpp"

namespace reactor_bench {

using namespace reactor;
using namespace std::chrono_literals;

namespace {

std::chrono::steady_clock::time_point deadline_of(double timeout_s) {
  return std::chrono::steady_clock::now() +
         std::chrono::duration_cast<std::chrono::steady_clock::duration>(
             std::chrono::duration<double>(timeout_s));
}

// One BenchAsync run in the workers: the reader's resume latency in `us`. It must have parked:
// the reader ran under another execution (lease token) than the one that dispatched the unit.
Status one_park(Engine& engine, int unit_ms, std::chrono::steady_clock::time_point deadline,
                double& us) {
  Result<std::string> started = engine.run_in_background(kBenchAsyncName, {{"unit_ms", unit_ms}});
  if (!started.ok()) return started.status();
  const std::string& id = *started;
  RunResult r;
  for (;;) {
    Result<RunHeaderRow> h = engine.backend()->load_header(id);
    if (h.ok() && is_terminal(h->status)) break;
    if (std::chrono::steady_clock::now() > deadline) {
      return Status::Unavailable("run " + id + " did not end within the --timeout");
    }
    // Not faster: the poll shares the 2 cores and the store with what it measures.
    std::this_thread::sleep_for(2ms);
  }
  if (Result<RunResult> found = engine.find(id); found.ok()) {
    r = std::move(found).value();
  } else {
    return found.status();
  }
  if (r.status != RunStatus::kCompleted) {
    return Status::Internal("run " + id + " ended " + to_string(r.status) + ": " +
                            r.trace_summary());
  }
  std::uint64_t dispatched_by = 0, read_by = 0;
  for (const TraceEvent& e : r.trace) {
    if (e.step == "unit" && e.outcome == "dispatched") dispatched_by = e.token;
    if (e.step == "reader" && e.type == TraceType::kRun) read_by = e.token;
  }
  if (dispatched_by == 0 || dispatched_by == read_by) {
    return Status::Internal("run " + id + " did not park: " + r.trace_summary());
  }
  us = static_cast<double>(r.value["resumed"].get<std::int64_t>() -
                           r.value["unit_done"].get<std::int64_t>());
  return Status::Ok();
}

Status measure_parks(const AsyncOptions& o, Engine& engine, std::vector<double>& latencies,
                     const WorkerProcesses& workers) {
  const auto deadline = deadline_of(o.timeout_s);
  for (int k = 0; k < o.runs; ++k) {
    double us = 0;
    if (Status s = one_park(engine, o.unit_ms, deadline, us); !s.ok()) {
      return Status::Internal(s.message() + workers.log_tails());
    }
    latencies.push_back(us);
  }
  return Status::Ok();
}

// Store requests per run, in this process, of `reactor` run by a caller up to its hand-off.
Status requests_per_run(Engine& engine, const CountingBackend& counter, const char* reactor,
                        int runs, double& out) {
  const std::uint64_t before = counter.requests();
  for (int k = 0; k < runs; ++k) {
    RunResult r = engine.run(reactor, Value::object());
    if (r.status != RunStatus::kRunning || r.error) {
      return Status::Internal(std::string(reactor) + " did not hand off: " + to_string(r.status) +
                              " " + r.trace_summary());
    }
  }
  out = static_cast<double>(counter.requests() - before) / runs;
  return Status::Ok();
}

}  // namespace

int run_async(const AsyncOptions& o) {
  std::printf("reactor-bench async (%s)\n", machine_note().c_str());
  ScratchDir dir(o.dir);
  if (dir.path().empty()) {
    std::fprintf(stderr, "reactor-bench async: %s\n", dir.error().c_str());
    return 1;
  }
  const std::string storage = o.storage.empty() ? dir.sqlite_url("async.db") : o.storage;
  std::printf(
      "BenchAsync: async_step unit (%d ms), step reader reads it; %d runs one after another, %d "
      "worker process(es) x 1 thread; storage %s\n",
      o.unit_ms, o.runs, o.workers, storage::mask_password(storage).c_str());
  std::fflush(stdout);
  Result<std::unique_ptr<Backend>> backend = open_backend(storage, SystemClock::instance());
  if (const Status& s = backend.status(); !s.ok()) {
    std::printf("  FAILED: %s\n", s.to_string().c_str());
    return 1;
  }
  auto counter = std::make_shared<CountingBackend>(std::move(backend).value());
  EngineOptions options;
  options.backend = counter;
  Engine engine(std::move(options));
  register_bench_async(engine.registry());
  WorkerProcesses workers;
  for (int w = 0; w < o.workers; ++w) {
    if (!workers.spawn(storage, {"--threads", "1"}, {},
                       dir.path() + "/async-worker-" + std::to_string(w) + ".log")) {
      std::printf("  FAILED: cannot start a worker process\n");
      return 1;
    }
  }
  if (!workers.wait_ready(10s)) {
    std::printf("  FAILED: the workers did not start%s\n", workers.log_tails().c_str());
    return 1;
  }
  std::vector<double> us;
  if (Status s = measure_parks(o, engine, us, workers); !s.ok()) {
    std::printf("  FAILED: %s\n", s.to_string().c_str());
    return 1;
  }
  std::printf(
      "  unit finished -> parked reader resumed: p50 %.3f ms, p99 %.3f ms, max %.3f ms (%zu runs, "
      "every one parked and completed)\n",
      percentile(us, 50) / 1000, percentile(us, 99) / 1000, percentile(us, 100) / 1000, us.size());
  const int dispatch_runs = std::max(10, o.runs / 10);
  double base = 0, unit = 0;
  Status s = requests_per_run(engine, *counter, kBenchDispatchBaseName, dispatch_runs, base);
  if (s.ok()) s = requests_per_run(engine, *counter, kBenchDispatchUnitName, dispatch_runs, unit);
  if (!s.ok()) {
    std::printf("  FAILED: %s\n", s.to_string().c_str());
    return 1;
  }
  std::printf(
      "  dispatch cost: %.2f store requests (a caller's run to its hand-off: %.2f with an async "
      "unit dispatched, %.2f with a plain step; %d runs each)\n",
      unit - base, unit, base, dispatch_runs);
  return 0;
}

}  // namespace reactor_bench
