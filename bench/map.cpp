// reactor-bench map: a fan-out map of M elements through worker processes (bench/README.md).
#include "map.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <regex>
#include <thread>

#include "reactor/reactor.hpp"
#include "saga/bench_fan.hpp"
#include "saga/bench_record.hpp"
#include "storage/backend_url.hpp"
#include "support.hpp"
#include "worker_processes.hpp"

namespace reactor_bench {

using namespace reactor;
using namespace std::chrono_literals;

namespace {

// Waits (bounded) until the run ends; a progress line on a terminal.
Status wait_for_end(Engine& engine, const std::string& id, WorkerProcesses& workers,
                    double timeout_s, RunHeaderRow& end) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_s);
  const bool progress = ::isatty(STDERR_FILENO) != 0;
  while (std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(50ms);
    if (!workers.all_alive()) return Status::Internal("a worker process exited");
    Result<RunHeaderRow> header = engine.backend()->load_header(id);
    if (header.ok()) end = std::move(header).value();
    if (header.ok() && is_terminal(end.status)) {
      if (progress) std::fprintf(stderr, "\n");
      return Status::Ok();
    }
    Result<MapRow> row = progress ? engine.backend()->load_map(id + ":fan") : MapRow{};
    const MapRow& m = row.value_or(MapRow{});
    if (progress && row.ok()) {
      std::fprintf(stderr, "\r  %u / %u elements done, %u out ", m.done, m.total,
                   m.released - m.done);
    }
  }
  return Status::Unavailable("the map did not end within the --timeout");
}

// The workers' own accounts, from the line each prints when it stops: deliveries, durable steps
// and requests to the store, summed.
void add_worker_reports(const std::vector<std::string>& logs, int count, MapResult& r) {
  static const std::regex line(
      R"(after (\d+) deliveries \(\d+ runs finished\) and (\d+) durable steps(; (\d+) requests)?)");
  double deliveries = 0, commits = 0, requests = 0;
  bool any_requests = false;
  for (const std::string& log : logs) {
    std::smatch m;
    if (!std::regex_search(log, m, line)) return;  // a worker that did not say: no figure
    deliveries += std::stod(m[1]);
    commits += std::stod(m[2]);
    if (m[4].matched) {
      requests += std::stod(m[4]);
      any_requests = true;
    }
  }
  r.deliveries_per_element = deliveries / count;
  r.commits_per_element = commits / count;
  if (any_requests) r.requests_per_element = requests / count;
}

Status run_one(const MapOptions& o, int count, const std::string& scratch, MapResult& r) {
  Result<std::unique_ptr<Backend>> backend = open_backend(r.storage, SystemClock::instance());
  if (const Status& s = backend.status(); !s.ok()) return s;
  EngineOptions options;
  options.backend = std::move(backend).value();
  Engine engine(std::move(options));
  register_bench_fan(engine.registry(), BenchFanOptions{o.step_ms, nullptr, o.claim});

  WorkerProcesses workers;
  for (int w = 0; w < o.workers; ++w) {
    if (!workers.spawn(r.storage,
                       {"--threads", std::to_string(o.threads), "--reactors", kBenchFanName},
                       {"BENCH_STEP_MS=" + std::to_string(o.step_ms),
                        "BENCH_CLAIM=" + std::to_string(o.claim)},
                       scratch + "/map-worker-" + std::to_string(w) + ".log")) {
      return Status::Internal("cannot start a worker process");
    }
  }
  if (!workers.wait_ready(10s))
    return Status::Internal("the workers did not start" + workers.log_tails());
  const double t0 = bench_now_ms();
  Result<std::string> started =
      engine.run_in_background(kBenchFanName, {{"m", count}, {"batch", o.batch}, {"t_enq", t0}});
  if (!started.ok()) return started.status();
  const std::string& id = *started;
  RunHeaderRow end;
  Status s = wait_for_end(engine, id, workers, o.timeout_s, end);
  const double cpu_s = workers.cpu_s();
  r.peak_rss_bytes = workers.peak_rss();
  if (!s.ok()) return Status::Internal(s.message() + workers.log_tails());
  workers.stop_all();
  add_worker_reports(workers.logs(), count, r);

  Result<RunResult> found = engine.find(id);
  if (!found.ok()) return found.status();
  const RunResult& run = *found;
  const auto m = static_cast<std::int64_t>(count);
  if (run.status != RunStatus::kCompleted || run.value.value("sum", std::int64_t{-1}) != m * m ||
      run.value.value("count", std::int64_t{-1}) != m) {
    return Status::Internal("the map ended " + std::string(to_string(run.status)) + " with " +
                            run.value.dump() + (run.error ? ": " + run.error->message : ""));
  }
  r.wall_s = (static_cast<double>(end.updated_at_ms) - t0) / 1000.0;
  r.elements_per_s = r.wall_s > 0 ? count / r.wall_s : 0;
  r.worker_cpu_us_per_element = cpu_s < 0 ? -1 : cpu_s * 1e6 / count;
  return Status::Ok();
}

void print(const MapResult& r) {
  std::printf("  %s elements: ", grouped(r.count).c_str());
  if (!r.ok) {
    std::printf("FAILED: %s\n", r.error.c_str());
    return;
  }
  std::printf("%.2f s, %s elements/s, worker CPU %.0f us/element, peak RSS %s KiB (one worker)\n",
              r.wall_s, grouped(r.elements_per_s).c_str(), r.worker_cpu_us_per_element,
              grouped(r.peak_rss_bytes / 1024).c_str());
  std::printf("    per element: %.2f deliveries, %.2f durable commits", r.deliveries_per_element,
              r.commits_per_element);
  if (r.requests_per_element >= 0) {
    std::printf(", %.2f requests to the store (fetches, waits, heartbeats, sweeps included)",
                r.requests_per_element);
  }
  std::printf("\n    verified: completed, sum = %s² , count = %s\n", grouped(r.count).c_str(),
              grouped(r.count).c_str());
}

}  // namespace

MapResult measure_map(const MapOptions& o, int count) {
  MapResult r;
  r.count = count;
  ScratchDir dir(o.dir);
  if (dir.path().empty()) {
    r.error = dir.error();
    return r;
  }
  r.storage =
      o.storage.empty() ? dir.sqlite_url("map-" + std::to_string(count) + ".db") : o.storage;
  Status s = run_one(o, count, dir.path(), r);
  r.ok = s.ok();
  if (!s.ok()) r.error = s.to_string();
  return r;
}

int run_map(const MapOptions& o) {
  std::printf("reactor-bench map (%s)\n", machine_note().c_str());
  std::printf(
      "BenchFan: one fan-out map, element i yields 2i+1, collected into the sum; batch %d, "
      "claims of %d, %d worker process(es) x %d thread(s), step %d ms; storage %s\n",
      o.batch, o.claim, o.workers, o.threads, o.step_ms,
      o.storage.empty() ? "a scratch SQLite file" : storage::mask_password(o.storage).c_str());
  std::fflush(stdout);
  MapResult small = measure_map(o, o.count);
  print(small);
  if (o.scale <= 0 || !small.ok) return small.ok ? 0 : 1;
  std::fflush(stdout);
  MapResult large = measure_map(o, o.scale);
  print(large);
  if (!large.ok) return 1;
  const double wall = (large.wall_s / large.count) / (small.wall_s / small.count);
  const double cpu = large.worker_cpu_us_per_element / small.worker_cpu_us_per_element;
  std::printf(
      "  cost per element at %s / at %s: wall %.2f, worker CPU %.2f (goal <= 1.2: %s); peak RSS "
      "%s / %s KiB\n",
      grouped(large.count).c_str(), grouped(small.count).c_str(), wall, cpu,
      std::max(wall, cpu) <= 1.2 ? "met" : "NOT MET", grouped(large.peak_rss_bytes / 1024).c_str(),
      grouped(small.peak_rss_bytes / 1024).c_str());
  return 0;
}

}  // namespace reactor_bench
