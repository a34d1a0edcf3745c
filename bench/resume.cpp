// reactor-bench resume: an interrupt's resume latency, and what paused runs cost idle workers
// (bench/README.md).
#include "resume.hpp"

#include <chrono>
#include <cstdio>
#include <regex>
#include <thread>

#include "reactor/reactor.hpp"
#include "saga/bench_resume.hpp"
#include "saga/unix_time.hpp"
#include "storage/backend_url.hpp"
#include "support.hpp"
#include "worker_processes.hpp"

namespace reactor_bench {

using namespace reactor;
using namespace std::chrono_literals;
using SteadyTime = std::chrono::steady_clock::time_point;

namespace {

// Waits (bounded) until run `id`'s stored status satisfies `pred`.
template <typename Pred>
Status wait_until(Engine& engine, const std::string& id, SteadyTime deadline, Pred pred) {
  while (std::chrono::steady_clock::now() < deadline) {
    Result<RunHeaderRow> h = engine.backend()->load_header(id);
    if (h.ok() && pred(h->status)) return Status::Ok();
    std::this_thread::sleep_for(100us);
  }
  return Status::Unavailable("run " + id + " did not get there within the --timeout");
}

// One run: paused at "go", resumed from here, ended by a worker; `us` from the resume returning
// to the step after it starting (a worker may start it before the call returns: then 0).
Status one_resume(Engine& engine, SteadyTime deadline, double& us) {
  Result<std::string> id = engine.run_in_background(kBenchResumeName, Value::object());
  if (!id.ok()) return id.status();
  auto paused = [](RunStatus s) { return s == RunStatus::kPaused; };
  if (Status s = wait_until(engine, *id, deadline, paused); !s.ok()) return s;
  Result<RunResult> resumed = engine.resume_interrupt(*id, "go", Value::object());
  const std::int64_t returned = unix_us();
  if (!resumed.ok()) return resumed.status();
  if (Status s = wait_until(engine, *id, deadline, is_terminal); !s.ok()) return s;
  Result<RunResult> r = engine.find(*id);
  if (!r.ok()) return r.status();
  const StepOutcome* after = r->step("after");
  if (r->status != RunStatus::kCompleted || after == nullptr) {
    return Status::Internal("run " + *id + " ended " + to_string(r->status));
  }
  us = static_cast<double>(std::max<std::int64_t>(0, after->result.get<std::int64_t>() - returned));
  return Status::Ok();
}

// The store requests per second of `o.workers` idle workers over `o.idle_s`, from the line
// each prints when it stops; -1 when they do not count them (SQLite).
Status idle_requests(const ResumeBenchOptions& o, const std::string& storage,
                     const std::string& dir, const char* label, double& per_s) {
  WorkerProcesses workers;
  for (int w = 0; w < o.workers; ++w) {
    if (!workers.spawn(storage, {"--threads", "1", "--reactors", kBenchResumeName}, {},
                       dir + "/idle-" + label + "-" + std::to_string(w) + ".log")) {
      return Status::Internal("cannot start a worker process");
    }
  }
  if (!workers.wait_ready(10s)) return Status::Internal("the workers did not start");
  const auto from = std::chrono::steady_clock::now();
  std::this_thread::sleep_for(std::chrono::duration<double>(o.idle_s));
  workers.stop_all();
  const double lived =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - from).count();
  static const std::regex requests(R"((\d+) requests to the store)");
  double sum = 0;
  bool counted = false;
  for (const std::string& log : workers.logs()) {
    std::smatch m;
    if (std::regex_search(log, m, requests)) {
      sum += std::stod(m[1]);
      counted = true;
    }
  }
  per_s = counted ? sum / lived : -1;
  return Status::Ok();
}

// `n` runs started and left paused by `engine`'s workers; waits until all are.
Status pause_many(Engine& engine, int n, SteadyTime deadline) {
  for (int done = 0; done < n;) {
    const int batch = std::min(1000, n - done);
    BackgroundBatch b = engine.run_many_in_background(
        kBenchResumeName, std::vector<Value>(static_cast<std::size_t>(batch), Value::object()));
    if (!b.ok()) return b.status;
    done += batch;
  }
  RunFilter paused{RunStatus::kPaused, std::string(kBenchResumeName), 1, false};
  while (std::chrono::steady_clock::now() < deadline) {
    Result<std::size_t> count = engine.backend()->count_runs(paused);
    if (!count.ok()) return count.status();
    if (*count >= static_cast<std::size_t>(n)) return Status::Ok();
    std::this_thread::sleep_for(200ms);
  }
  return Status::Unavailable("the runs did not all pause within the --timeout");
}

Status measure_latency(const ResumeBenchOptions& o, Engine& engine, const std::string& storage,
                       const std::string& dir, SteadyTime deadline, std::vector<double>& us) {
  WorkerProcesses workers;
  for (int w = 0; w < o.workers; ++w) {
    if (!workers.spawn(storage, {"--threads", "1", "--reactors", kBenchResumeName}, {},
                       dir + "/resume-worker-" + std::to_string(w) + ".log")) {
      return Status::Internal("cannot start a worker process");
    }
  }
  if (!workers.wait_ready(10s)) return Status::Internal("the workers did not start");
  for (int k = 0; k < o.runs; ++k) {
    double one = 0;
    if (Status s = one_resume(engine, deadline, one); !s.ok()) {
      return Status::Internal(s.message() + workers.log_tails());
    }
    us.push_back(one);
  }
  if (o.paused <= 0) return Status::Ok();
  std::printf("  pausing %d runs for the idle comparison...\n", o.paused);
  std::fflush(stdout);
  return pause_many(engine, o.paused, deadline);
}

void print_idle(const char* what, double per_s) {
  if (per_s < 0) {
    std::printf("  idle workers, %s: store requests not counted (SQLite: no server to ask)\n",
                what);
  } else {
    std::printf("  idle workers, %s: %.1f store requests/s\n", what, per_s);
  }
}

}  // namespace

int run_resume(const ResumeBenchOptions& o) {
  std::printf("reactor-bench resume (%s)\n", machine_note().c_str());
  ScratchDir dir(o.dir);
  if (dir.path().empty()) {
    std::fprintf(stderr, "reactor-bench resume: %s\n", dir.error().c_str());
    return 1;
  }
  const std::string storage = o.storage.empty() ? dir.sqlite_url("resume.db") : o.storage;
  std::printf(
      "BenchResume: interrupt go, then step after; %d runs one after another, %d worker "
      "process(es) x 1 thread; storage %s\n",
      o.runs, o.workers, storage::mask_password(storage).c_str());
  std::fflush(stdout);
  Result<std::unique_ptr<Backend>> backend = open_backend(storage, SystemClock::instance());
  if (!backend.ok()) {
    std::printf("  FAILED: %s\n", backend.status().to_string().c_str());
    return 1;
  }
  EngineOptions options;
  options.backend = std::move(backend).value();
  Engine engine(std::move(options));
  register_bench_resume(engine.registry());
  const auto deadline = std::chrono::steady_clock::now() +
                        std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                            std::chrono::duration<double>(o.timeout_s));
  double idle_none = 0, idle_paused = 0;
  std::vector<double> us;
  Status s = o.paused > 0 ? idle_requests(o, storage, dir.path(), "none", idle_none) : Status::Ok();
  if (s.ok()) s = measure_latency(o, engine, storage, dir.path(), deadline, us);
  if (s.ok() && o.paused > 0) s = idle_requests(o, storage, dir.path(), "paused", idle_paused);
  if (!s.ok()) {
    std::printf("  FAILED: %s\n", s.to_string().c_str());
    return 1;
  }
  std::printf(
      "  resume_interrupt returned -> the step after it started in a worker: p50 %.3f ms, p99 "
      "%.3f ms, max %.3f ms (%zu runs, every one completed)\n",
      percentile(us, 50) / 1000, percentile(us, 99) / 1000, percentile(us, 100) / 1000, us.size());
  if (o.paused > 0) {
    print_idle("no run paused", idle_none);
    print_idle((std::to_string(o.paused) + " runs paused").c_str(), idle_paused);
  }
  return 0;
}

}  // namespace reactor_bench
