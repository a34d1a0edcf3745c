// Reactor as a contender of the peer benchmark (/work/shared/bench/peers,
// bench/peers/reactor/contender):
//   `reactor bench peers-produce`  the producer: starts the workload's runs
//                                  (W1, W3 in bulk; W4 one at a time) and
//                                  writes bench:meta, from BENCH_* variables;
//   `reactor bench redis-commit`   the baseline: how many commit-script calls
//                                  per second a Redis server takes from N
//                                  connections, replaying the real step
//                                  commits of a BenchSaga run.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "bench.hpp"
#include "bench_metered_backend.hpp"
#include "bench_saga/bench_saga.hpp"
#include "commands.hpp"
#include "reactor/reactor.hpp"

namespace reactor_cli {

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
  std::fprintf(stderr, "reactor bench peers-produce: %s\n", why.c_str());
  return 1;
}

}  // namespace

int run_bench_peers_produce() {
  const std::string url = env_or("BENCH_REDIS_URL", "");
  const std::string workload = env_or("BENCH_WORKLOAD", "W1");
  auto record = examples::BenchRecord::from_env();
  if (url.empty() || record == nullptr) {
    return produce_failed("BENCH_REDIS_URL and BENCH_REDIS_PORT must name the harness's Redis");
  }
  if (workload != "W1" && workload != "W3" && workload != "W4") {
    return produce_failed("workload " + workload + " is not implemented (W1, W3, W4 are)");
  }
  const int n = env_int("BENCH_N", workload == "W4" ? 200 : workload == "W3" ? 500 : 2000);
  const int pad = env_int("BENCH_PAD", 140);

  std::unique_ptr<Backend> backend;
  if (Status s = open_backend(url, SystemClock::instance(), backend); !s.ok()) {
    return produce_failed(s.to_string());
  }
  EngineOptions options;
  options.backend = std::move(backend);
  Engine engine(std::move(options));
  examples::BenchSagaOptions saga = examples::BenchSagaOptions::from_env();
  saga.record = nullptr;  // the producer runs no step
  examples::register_bench_saga(engine.registry(), saga);

  const double t0 = examples::bench_now_ms();
  double t_enq_end = t0;
  if (workload == "W4") {
    // One at a time: start saga i, wait for its completion record, then i+1.
    for (int i = 0; i < n; ++i) {
      std::string id;
      const double t_enq = examples::bench_now_ms();
      Status s = engine.run_in_background(examples::kBenchSagaName,
                                          examples::bench_saga_input(i, t_enq, pad), id);
      if (!s.ok()) return produce_failed(s.to_string());
      t_enq_end = examples::bench_now_ms();
      bool timed_out = false;
      if (auto why = record->command(
              {"BLMOVE", "bench:done", "bench:done:seen", "LEFT", "RIGHT", "30"}, &timed_out);
          !why.empty()) {
        return produce_failed(why);
      }
      if (timed_out) {
        return produce_failed("saga " + examples::bench_saga_id(i) + " did not complete in 30 s");
      }
    }
  } else {
    // In bulk: one call per commit-sized chunk, each saga's t_enq the time of
    // the call that enqueued it.
    for (int first = 0; first < n;) {
      const int count = std::min<int>(static_cast<int>(kBackgroundRunsPerCommit), n - first);
      const double t_enq = examples::bench_now_ms();
      std::vector<Value> inputs;
      inputs.reserve(static_cast<std::size_t>(count));
      for (int i = first; i < first + count; ++i) {
        inputs.push_back(examples::bench_saga_input(i, t_enq, pad));
      }
      std::vector<std::string> ids;
      Status s = engine.run_many_in_background(examples::kBenchSagaName, std::move(inputs), ids);
      if (!s.ok()) return produce_failed(s.to_string());
      first += count;
    }
    t_enq_end = examples::bench_now_ms();
  }
  if (auto why = record->command(
          {"HSET", "bench:meta", "t0", ms_text(t0), "t_enq_end", ms_text(t_enq_end)});
      !why.empty()) {
    return produce_failed(why);
  }
  std::fprintf(stderr, "reactor bench peers-produce: %s, %d sagas started in %.3f s\n",
               workload.c_str(), n, (t_enq_end - t0) / 1000.0);
  return 0;
}

namespace {

// A captured commit of one run, moved onto another run (id, lease).
CommitRequest moved_to(CommitRequest c, const std::string& from, const std::string& id,
                       const Lease& lease) {
  auto swap_id = [&](std::string& s) {
    if (s == from) s = id;
  };
  swap_id(c.root_id);
  c.fencing_token = lease.token;
  if (!c.lease_owner.empty()) c.lease_owner = lease.owner;
  for (auto& h : c.headers) {
    swap_id(h.id);
    swap_id(h.root_id);
  }
  for (auto& i : c.inputs) swap_id(i.run_id);
  for (auto& s : c.steps) swap_id(s.run_id);
  for (auto& t : c.trace) swap_id(t.root_id);
  return c;
}

struct ConnectionResult {
  std::string error;
  std::vector<double> commit_ms;
  std::chrono::steady_clock::time_point start, end;
};

}  // namespace

int run_bench_redis_commit(const bench::RedisCommitOptions& o) {
  std::printf("reactor bench redis-commit (%s)\n\n", bench::machine_note().c_str());
  if (o.storage.rfind("redis://", 0) != 0) {
    std::fprintf(stderr, "reactor bench redis-commit: --storage must be a redis:// URL\n");
    return 2;
  }
  // A prefix of its own, so the runs it writes never mix with anybody's.
  const std::string url = o.storage + (o.storage.find('?') == std::string::npos ? "?" : "&") +
                          "prefix=reactor-bench-commit:";

  // 1. One BenchSaga run, executed durably in this process, gives the real
  // commits: the first makes the run `running` (written whole), then one per
  // step; the last also ends the run and releases its lease.
  std::unique_ptr<Backend> inner;
  if (Status s = open_backend(url, SystemClock::instance(), inner); !s.ok()) {
    std::fprintf(stderr, "reactor bench redis-commit: %s\n", s.to_string().c_str());
    return 1;
  }
  auto metered = std::make_shared<bench::MeteredBackend>(std::move(inner));
  std::vector<bench::MeteredCommit> captured;
  {
    EngineOptions options;
    options.backend = metered;
    Engine engine(std::move(options));
    examples::register_bench_saga(engine.registry(), {o.steps, 0, nullptr});
    RunResult r = engine.run(examples::kBenchSagaName,
                             examples::bench_saga_input(0, examples::bench_now_ms()));
    if (r.status != RunStatus::kCompleted) {
      std::fprintf(stderr, "reactor bench redis-commit: the sample run did not complete\n");
      return 1;
    }
    captured = metered->take_commits();
  }
  if (captured.size() != static_cast<std::size_t>(o.steps) + 1) {
    std::fprintf(stderr, "reactor bench redis-commit: expected %d commits of the sample run, got %zu\n",
                 o.steps + 1, captured.size());
    return 1;
  }
  const std::string sample_id = captured.front().request.root_id;
  std::vector<CommitRequest> step_commits;
  for (std::size_t k = 1; k < captured.size(); ++k) step_commits.push_back(captured[k].request);
  // A worker's last commit also acknowledges the job that delivered the run.
  step_commits.back().ack_job = 0;
  step_commits.back().ack_owner = "no-such-delivery";

  // 2. Each connection creates its runs (lease + the `running` commit,
  // untimed), then replays the step commits on every one of them, timed.
  std::vector<ConnectionResult> results(static_cast<std::size_t>(o.connections));
  std::atomic<int> ready{0};
  std::atomic<bool> go{false};
  std::vector<std::thread> threads;
  for (int c = 0; c < o.connections; ++c) {
    threads.emplace_back([&, c] {
      ConnectionResult& out = results[static_cast<std::size_t>(c)];
      std::unique_ptr<Backend> backend;
      Status s = open_backend(url, SystemClock::instance(), backend);
      struct Target {
        std::string id;
        Lease lease;
      };
      std::vector<Target> targets;
      for (int i = 0; s.ok() && i < o.sagas; ++i) {
        Target t{new_run_id(), {}};
        bool granted = false;
        s = backend->acquire_lease(run_lease_key(t.id), new_run_id(), std::chrono::minutes(10),
                                   granted, t.lease);
        if (s.ok() && !granted) s = Status::Internal("a fresh run's lease was held");
        if (s.ok()) s = backend->commit(moved_to(captured.front().request, sample_id, t.id, t.lease));
        targets.push_back(std::move(t));
      }
      if (!s.ok()) out.error = s.to_string();
      ++ready;
      while (!go.load()) std::this_thread::yield();
      if (!s.ok()) return;
      std::vector<CommitRequest> requests;
      out.commit_ms.reserve(targets.size() * step_commits.size());
      out.start = std::chrono::steady_clock::now();
      for (const Target& t : targets) {
        for (const CommitRequest& step : step_commits) {
          CommitRequest request = moved_to(step, sample_id, t.id, t.lease);
          const auto before = std::chrono::steady_clock::now();
          s = backend->commit(request);
          out.commit_ms.push_back(
              std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - before)
                  .count());
          if (!s.ok()) {
            out.error = s.to_string();
            return;
          }
        }
      }
      out.end = std::chrono::steady_clock::now();
    });
  }
  while (ready.load() < o.connections) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  go = true;
  for (auto& t : threads) t.join();

  std::vector<double> all_ms;
  auto start = results.front().start, end = results.front().end;
  for (const auto& r : results) {
    if (!r.error.empty()) {
      std::fprintf(stderr, "reactor bench redis-commit: %s\n", r.error.c_str());
      return 1;
    }
    all_ms.insert(all_ms.end(), r.commit_ms.begin(), r.commit_ms.end());
    start = std::min(start, r.start);
    end = std::max(end, r.end);
  }
  const double seconds = std::chrono::duration<double>(end - start).count();
  const double calls_per_s = static_cast<double>(all_ms.size()) / seconds;
  std::size_t payload = 0;
  for (const auto& c : step_commits) payload += bench::payload_bytes(c);
  std::printf(
      "Commit script (EVALSHA) from %d connection(s), each replaying the %d step commits of a\n"
      "%d-step BenchSaga run (header + step row + trace rows, fenced; the last also ends the\n"
      "run, acks and releases its lease) on %d runs of its own; storage %s.\n",
      o.connections, o.steps, o.steps, o.sagas, metered->describe().c_str());
  std::printf("  %-34s %s\n", "commit-script calls", bench::grouped(static_cast<double>(all_ms.size())).c_str());
  std::printf("  %-34s %.2f s\n", "wall", seconds);
  std::printf("  %-34s %s\n", "commit-script calls/s", bench::grouped(calls_per_s).c_str());
  std::printf("  %-34s %.3f / %.3f ms\n", "per call p50 / p99", bench::percentile(all_ms, 50),
              bench::percentile(all_ms, 99));
  std::printf("  %-34s %s B\n", "payload per step commit (mean)",
              bench::grouped(static_cast<double>(payload) / static_cast<double>(o.steps)).c_str());
  std::printf("  %-34s %s sagas/s (%d commits per saga)\n", "limit this sets",
              bench::grouped(calls_per_s / o.steps).c_str(), o.steps);
  std::printf("redis_commit_calls_per_s=%.1f\n", calls_per_s);
  return 0;
}

}  // namespace reactor_cli
