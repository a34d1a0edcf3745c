// reactor-bench w1: W1 of the peers' WORKLOADS.md on the SQLite backend.
// This process is the producer: it starts N BenchSaga runs in bulk
// (Engine::run_many_in_background), while W `reactor-bench worker --threads 1`
// child processes (this binary again) execute them, checkpointing every step. Every figure comes
// from the stored records, and every run is verified before any is reported.
#include "w1.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <thread>

#include "reactor/reactor.hpp"
#include "saga/bench_saga.hpp"
#include "support.hpp"
#include "worker_processes.hpp"

namespace reactor_bench {

using namespace reactor;
using namespace std::chrono_literals;

namespace {

double now_ms() {
  return std::chrono::duration<double, std::milli>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

std::vector<RunHeaderRow> runs_with(Backend& backend, RunStatus status, std::size_t limit) {
  RunFilter filter;
  filter.status = status;
  filter.limit = limit;
  // A store that cannot list shows no runs; the caller then reports what it misses.
  return backend.list_runs(filter).value_or(std::vector<RunHeaderRow>{});
}

// A failed run, with its error, for the report.
std::string describe_failed(Engine& engine, const std::string& run_id) {
  Result<RunResult> found = engine.find(run_id);
  if (!found.ok() || !found->error) return "run " + run_id + " failed";
  const RunResult& r = *found;
  const std::string where = r.error->step.empty() ? "" : " at '" + r.error->step + "'";
  return "run " + run_id + " failed" + where + ": " + r.error->message;
}

// Waits (bounded) until every run is terminal. The cheap probe is the last
// run enqueued (the queue is FIFO); the full count runs when it is terminal,
// and once a second anyway, to notice failures and dead workers early.
Status wait_for_all(Engine& engine, const std::vector<std::string>& ids, WorkerProcesses& workers,
                    double timeout_s) {
  Backend& backend = *engine.backend();
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_s);
  auto next_full_count = std::chrono::steady_clock::now() + 1s;
  const bool progress = ::isatty(STDERR_FILENO) != 0;
  while (std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(50ms);
    if (!workers.all_alive()) return Status::Internal("a worker process exited");
    Result<RunHeaderRow> last = backend.load_header(ids.back());
    const bool last_done = last.ok() && is_terminal(last->status);
    if (!last_done && std::chrono::steady_clock::now() < next_full_count) continue;
    next_full_count = std::chrono::steady_clock::now() + 1s;
    const std::size_t completed = runs_with(backend, RunStatus::kCompleted, ids.size()).size();
    if (progress) std::fprintf(stderr, "\r  completed %zu / %zu ", completed, ids.size());
    if (auto failed = runs_with(backend, RunStatus::kFailed, 1); !failed.empty()) {
      return Status::Internal(describe_failed(engine, failed.front().id));
    }
    if (completed == ids.size()) {
      if (progress) std::fprintf(stderr, "\n");
      return Status::Ok();
    }
  }
  char bound[32];
  std::snprintf(bound, sizeof bound, "%g", timeout_s);
  return Status::Unavailable(std::string("not every run completed within ") + bound +
                             " s (--timeout)");
}

// Every run completed, its final counter == steps and its saga id the one it
// was started with; the latency and wall figures come from the same records.
Status verify_and_measure(Engine& engine, const std::vector<std::string>& ids, double t0,
                          W1Result& r) {
  std::vector<double> latencies;
  double last_done = t0;
  int wrong = 0;
  std::string first_problem;
  for (std::size_t i = 0; i < ids.size(); ++i) {
    RunResult run;
    RunHeaderRow header;
    Result<RunResult> found = engine.find(ids[i]);
    Status s = found.status();
    if (s.ok()) run = std::move(found).value();
    if (s.ok()) {
      Result<RunHeaderRow> loaded = engine.backend()->load_header(ids[i]);
      s = loaded.status();
      if (s.ok()) header = std::move(loaded).value();
    }
    const std::string saga = bench_saga_id(static_cast<int>(i));
    std::string problem;
    if (!s.ok()) {
      problem = s.to_string();
    } else if (run.status != RunStatus::kCompleted) {
      problem = std::string("status ") + to_string(run.status);
    } else if (!run.value.is_object() || run.value.value("counter", -1) != r.steps ||
               run.value.value("saga", "") != saga) {
      problem = "final state " + run.value.dump().substr(0, 80);
    }
    if (!problem.empty()) {
      if (wrong++ == 0) first_problem = "run " + ids[i] + " (" + saga + "): " + problem;
      continue;
    }
    const auto done = static_cast<double>(header.updated_at_ms);
    latencies.push_back(done - run.value.at("t_enq").get<double>());
    last_done = std::max(last_done, done);
  }
  if (wrong > 0) {
    return Status::Internal(std::to_string(wrong) + " of " + std::to_string(ids.size()) +
                            " runs did not end as W1 requires; first: " + first_problem);
  }
  r.wall_s = (last_done - t0) / 1000.0;
  r.latency_p50_ms = percentile(latencies, 50);
  r.latency_p99_ms = percentile(latencies, 99);
  return Status::Ok();
}

Status run_workload(const W1Options& o, const std::string& scratch, W1Result& r) {
  Result<std::unique_ptr<Backend>> backend = open_backend(r.storage, SystemClock::instance());
  if (const Status& s = backend.status(); !s.ok()) return s;
  EngineOptions options;
  options.backend = std::move(backend).value();
  Engine engine(std::move(options));
  register_bench_saga(engine.registry(), {o.steps, o.step_ms, nullptr});
  Result<std::vector<RunHeaderRow>> existing = engine.backend()->list_runs(RunFilter{});
  if (!existing.ok()) return existing.status();
  if (!existing->empty()) {
    return Status::InvalidArgument("reactor-bench w1 needs an empty store; " + r.storage +
                                   " already holds runs");
  }

  WorkerProcesses workers;
  for (int w = 0; w < o.workers; ++w) {
    if (!workers.spawn(r.storage, {"--threads", "1"},
                       {"BENCH_STEPS=" + std::to_string(o.steps),
                        "BENCH_STEP_MS=" + std::to_string(o.step_ms)},
                       scratch + "/worker-" + std::to_string(w) + ".log")) {
      return Status::Internal("cannot start a worker process");
    }
  }
  if (!workers.wait_ready(10s)) {
    return Status::Internal("the workers did not start" + workers.log_tails());
  }

  // The producer: bulk starts of one commit each; t_enq is the time of the call
  // that enqueued the saga.
  std::vector<std::string> ids;
  const double t0 = now_ms();
  for (int first = 0; first < o.sagas;) {
    const int count = std::min<int>(static_cast<int>(kBackgroundRunsPerCommit), o.sagas - first);
    const double t_enq = now_ms();
    std::vector<Value> inputs;
    for (int i = first; i < first + count; ++i) {
      inputs.push_back(bench_saga_input(i, t_enq));
    }
    BackgroundBatch batch = engine.run_many_in_background(kBenchSagaName, std::move(inputs));
    if (!batch.ok()) return batch.status;
    ids.insert(ids.end(), batch.run_ids.begin(), batch.run_ids.end());
    first += count;
  }
  r.enqueue_s = (now_ms() - t0) / 1000.0;

  Status s = wait_for_all(engine, ids, workers, o.timeout_s);
  const double cpu_s = workers.cpu_s();
  const double written = workers.written();
  if (!s.ok()) return Status::Internal(s.message() + workers.log_tails());
  workers.stop_all();

  if (s = verify_and_measure(engine, ids, t0, r); !s.ok()) return s;
  const double steps = static_cast<double>(o.sagas) * o.steps;
  r.sagas_per_s = r.wall_s > 0 ? o.sagas / r.wall_s : 0;
  r.steps_per_s = r.wall_s > 0 ? steps / r.wall_s : 0;
  r.worker_cpu_ms_per_step = cpu_s < 0 ? -1 : cpu_s * 1000.0 / steps;
  r.worker_written_per_step = written < 0 ? -1 : written / steps;
  return Status::Ok();
}

// The directory of the file a sqlite: URL names ("sqlite:///a/b.db?x" -> "/a").
std::string directory_of(const std::string& url) {
  std::string path = url.substr(std::string("sqlite:").size());
  if (path.rfind("//", 0) == 0) path = path.substr(2);
  path = path.substr(0, path.find('?'));
  const std::string dir = std::filesystem::path(path).parent_path().string();
  return dir.empty() ? "." : dir;
}

}  // namespace

W1Result measure_w1(const W1Options& o) {
  W1Result r;
  r.sagas = o.sagas;
  r.steps = o.steps;
  r.workers = o.workers;
  ScratchDir dir(o.dir);  // worker logs, and the database unless --storage names one
  if (dir.path().empty()) {
    r.error = dir.error();
    return r;
  }
  r.storage = o.storage.empty() ? dir.sqlite_url("w1.db") : o.storage;
  if (r.storage.rfind("sqlite:", 0) != 0) {
    r.error = "reactor-bench w1 runs worker processes on one store, which must be SQLite (got " +
              r.storage + ")";
    return r;
  }
  r.file_system = file_system_of(o.storage.empty() ? dir.path() : directory_of(o.storage));
  Status s = run_workload(o, dir.path(), r);
  r.ok = s.ok();
  if (!s.ok()) r.error = s.to_string();
  return r;
}

void print_w1(const W1Result& r) {
  std::printf(
      "W1: %s BenchSaga runs of %d steps on %d worker process(es) "
      "(reactor-bench worker --threads 1),\n"
      "started in bulk by this process (%zu runs per commit); storage %s (%s).\n"
      "latency: t_enq (in the saga's input) -> updated_at of its terminal record, as "
      "stored;\nwall: first enqueue -> the last terminal record.\n",
      grouped(r.sagas).c_str(), r.steps, r.workers, kBackgroundRunsPerCommit, r.storage.c_str(),
      r.file_system.c_str());
  if (!r.ok) {
    std::printf("  FAILED: %s\n", r.error.c_str());
    return;
  }
  std::printf("  %-30s %.2f s\n", "enqueue (bulk)", r.enqueue_s);
  std::printf("  %-30s %.2f s\n", "wall", r.wall_s);
  std::printf("  %-30s %.1f\n", "sagas/s", r.sagas_per_s);
  std::printf("  %-30s %.1f\n", "steps/s", r.steps_per_s);
  std::printf("  %-30s %s / %s ms\n", "latency p50 / p99", grouped(r.latency_p50_ms).c_str(),
              grouped(r.latency_p99_ms).c_str());
  if (r.worker_cpu_ms_per_step >= 0) {
    std::printf("  %-30s %.3f ms\n", "worker CPU per step", r.worker_cpu_ms_per_step);
  }
  if (r.worker_written_per_step >= 0) {
    std::printf("  %-30s %s B\n", "worker bytes written per step",
                grouped(r.worker_written_per_step).c_str());
  }
  std::printf("  verified: all %s runs completed, final counter %d, saga ids as started\n",
              grouped(r.sagas).c_str(), r.steps);
}

int run_w1(const W1Options& options) {
  std::printf("reactor-bench w1 (%s)\n\n", machine_note().c_str());
  std::fflush(stdout);
  W1Result r = measure_w1(options);
  print_w1(r);
  return r.ok ? 0 : 1;
}

}  // namespace reactor_bench
