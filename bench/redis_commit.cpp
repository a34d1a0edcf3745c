// reactor-bench redis-commit: the baseline of the peer benchmark's W1 figure.
// One BenchSaga run, executed durably in this process, gives the real commits
// of a saga; N connections then replay its step commits on runs of their own,
// timed: how many commit-script calls per second the Redis server takes.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include "metered_backend.hpp"
#include "peers.hpp"
#include "reactor/reactor.hpp"
#include "saga/bench_saga.hpp"
#include "support.hpp"

namespace reactor_bench {

using namespace reactor;

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

int run_redis_commit(const RedisCommitOptions& o) {
  std::printf("reactor-bench redis-commit (%s)\n\n", machine_note().c_str());
  if (o.storage.rfind("redis://", 0) != 0) {
    std::fprintf(stderr, "reactor-bench redis-commit: --storage must be a redis:// URL\n");
    return 2;
  }
  // A prefix of its own, so the runs it writes never mix with anybody's.
  const std::string url = o.storage + (o.storage.find('?') == std::string::npos ? "?" : "&") +
                          "prefix=reactor-bench-commit:";

  // 1. One BenchSaga run, executed durably in this process, gives the real
  // commits: the first makes the run `running` (written whole), then one per
  // step; the last also ends the run and releases its lease.
  Result<std::unique_ptr<Backend>> inner = open_backend(url, SystemClock::instance());
  if (const Status& s = inner.status(); !s.ok()) {
    std::fprintf(stderr, "reactor-bench redis-commit: %s\n", s.to_string().c_str());
    return 1;
  }
  auto metered = std::make_shared<MeteredBackend>(std::move(inner).value());
  std::vector<MeteredCommit> captured;
  {
    EngineOptions options;
    options.backend = metered;
    Engine engine(std::move(options));
    register_bench_saga(engine.registry(), {o.steps, 0, nullptr});
    RunResult r = engine.run(kBenchSagaName, bench_saga_input(0, bench_now_ms()));
    if (r.status != RunStatus::kCompleted) {
      std::fprintf(stderr, "reactor-bench redis-commit: the sample run did not complete\n");
      return 1;
    }
    captured = metered->take_commits();
  }
  if (captured.size() != static_cast<std::size_t>(o.steps) + 1) {
    std::fprintf(stderr,
                 "reactor-bench redis-commit: expected %d commits of the sample run, got %zu\n",
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
      Result<std::unique_ptr<Backend>> opened = open_backend(url, SystemClock::instance());
      Status s = opened.status();
      std::unique_ptr<Backend> backend = opened.ok() ? std::move(opened).value() : nullptr;
      struct Target {
        std::string id;
        Lease lease;
      };
      std::vector<Target> targets;
      for (int i = 0; s.ok() && i < o.sagas; ++i) {
        Target t{new_run_id(), {}};
        Result<LeaseGrant> grant =
            backend->acquire_lease(run_lease_key(t.id), new_run_id(), std::chrono::minutes(10));
        s = grant.status();
        if (s.ok()) t.lease = grant->lease;
        if (s.ok() && !grant->granted) s = Status::Internal("a fresh run's lease was held");
        if (s.ok())
          s = backend->commit(moved_to(captured.front().request, sample_id, t.id, t.lease));
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
      std::fprintf(stderr, "reactor-bench redis-commit: %s\n", r.error.c_str());
      return 1;
    }
    all_ms.insert(all_ms.end(), r.commit_ms.begin(), r.commit_ms.end());
    start = std::min(start, r.start);
    end = std::max(end, r.end);
  }
  const double seconds = std::chrono::duration<double>(end - start).count();
  const double calls_per_s = static_cast<double>(all_ms.size()) / seconds;
  std::size_t payload = 0;
  for (const auto& c : step_commits) payload += payload_bytes(c);
  std::printf(
      "Commit script (EVALSHA) from %d connection(s), each replaying the %d step commits of a\n"
      "%d-step BenchSaga run (header + step row + trace rows, fenced; the last also ends the\n"
      "run, acks and releases its lease) on %d runs of its own; storage %s.\n",
      o.connections, o.steps, o.steps, o.sagas, metered->describe().c_str());
  std::printf("  %-34s %s\n", "commit-script calls",
              grouped(static_cast<double>(all_ms.size())).c_str());
  std::printf("  %-34s %.2f s\n", "wall", seconds);
  std::printf("  %-34s %s\n", "commit-script calls/s", grouped(calls_per_s).c_str());
  std::printf("  %-34s %.3f / %.3f ms\n", "per call p50 / p99", percentile(all_ms, 50),
              percentile(all_ms, 99));
  std::printf("  %-34s %s B\n", "payload per step commit (mean)",
              grouped(static_cast<double>(payload) / static_cast<double>(o.steps)).c_str());
  std::printf("  %-34s %s sagas/s (%d commits per saga)\n", "limit this sets",
              grouped(calls_per_s / o.steps).c_str(), o.steps);
  std::printf("redis_commit_calls_per_s=%.1f\n", calls_per_s);
  return 0;
}

}  // namespace reactor_bench
