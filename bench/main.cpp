// reactor-bench: Reactor's benchmarks, one subcommand each (bench/README.md).
// Each prints its figures and returns 0 when it ran and every run it started
// ended as its workload requires; a missed performance goal is reported,
// never turned into a failure.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <string>
#include <vector>

#include "async.hpp"
#include "coordination.hpp"
#include "dashboard.hpp"
#include "google_benchmark.hpp"
#include "handoff.hpp"
#include "map.hpp"
#include "peers.hpp"
#include "resume.hpp"
#include "sqlite.hpp"
#include "worker.hpp"

namespace {

using namespace reactor_bench;

void add_dir(CLI::App* cmd, std::string& dir) {
  cmd->add_option("--dir", dir,
                  "Directory for the scratch databases, removed after (default: the temp dir)");
}

// --storage is accepted before the subcommand and after it; the one after wins.
void add_storage(CLI::App* cmd, std::string& storage, const std::string& what) {
  cmd->add_option("--storage", storage, what);
}

// What every benchmark through worker processes takes: where (--storage), how long at most
// (--timeout) and its scratch directory (--dir).
void add_store_timeout_dir(CLI::App* cmd, std::string& storage, const std::string& what,
                           double& timeout_s, std::string& dir) {
  add_storage(cmd, storage, what);
  cmd->add_option("--timeout", timeout_s, "Give up after this many seconds")
      ->check(CLI::PositiveNumber);
  add_dir(cmd, dir);
}

void add_w1(CLI::App* cmd, W1Options& w1) {
  cmd->add_option("-n,--sagas", w1.sagas, "How many sagas")->check(CLI::Range(1, 1000000));
  cmd->add_option("--steps", w1.steps, "Steps per saga")->check(CLI::Range(1, 100000));
  cmd->add_option("--workers", w1.workers, "Worker processes (one thread each)")
      ->check(CLI::Range(1, 64));
  cmd->add_option("--step-ms", w1.step_ms, "Each step body sleeps this long")
      ->check(CLI::Range(0, 60000));
  add_store_timeout_dir(cmd, w1.storage,
                        "An empty SQLite store to use (default: a scratch file, removed after)",
                        w1.timeout_s, w1.dir);
}

void add_checkpoint(CLI::App* cmd, CheckpointOptions& cp) {
  cmd->add_option("--short-steps", cp.short_steps, "Steps of the short run")
      ->check(CLI::Range(1, 100000));
  cmd->add_option("--long-steps", cp.long_steps, "Steps of the long run")
      ->check(CLI::Range(1, 100000));
  cmd->add_option("--repeat", cp.repeat_full, "Runs of each length with synchronous=FULL")
      ->check(CLI::Range(1, 1000));
  cmd->add_option("--repeat-off", cp.repeat_off, "Runs of each length with synchronous=OFF")
      ->check(CLI::Range(1, 10000));
  add_dir(cmd, cp.dir);
}

void add_commit(CLI::App* cmd, CommitRateOptions& c) {
  cmd->add_option("--commits", c.commits, "Timed commits")->check(CLI::Range(1, 10000000));
  cmd->add_option("--value-bytes", c.value_bytes, "Size of the upserted value")
      ->check(CLI::Range(0, 1 << 20));
  add_dir(cmd, c.dir);
}

void add_coordination(CLI::App* cmd, CoordinationOptions& c) {
  cmd->add_option("-n,--runs", c.runs, "Runs per variant for the request counts")
      ->check(CLI::Range(1, 1000000));
  cmd->add_option("--hot-runs", c.hot_runs, "Runs on the hot key (0: no hot-key phases)")
      ->check(CLI::Range(0, 1000000));
  cmd->add_option("--step-ms", c.step_ms, "The hot phases' step body sleeps this long")
      ->check(CLI::Range(0, 60000));
  cmd->add_option("--threads", c.threads, "Worker threads serving the hot key")
      ->check(CLI::Range(1, 64));
  cmd->add_option("--short-snooze-ms", c.short_snooze_ms, "The short snooze's base delay")
      ->check(CLI::Range(0, 60000));
  cmd->add_option("--short-jitter-ms", c.short_jitter_ms, "The short snooze's jitter")
      ->check(CLI::Range(0, 60000));
  add_store_timeout_dir(cmd, c.storage,
                        "An SQLite store or a Redis server (default: a scratch SQLite file)",
                        c.timeout_s, c.dir);
}

// A Google Benchmark program: every argument after the subcommand is its flag.
CLI::App* add_google_benchmark(CLI::App& app, const char* name, const char* what) {
  CLI::App* cmd = app.add_subcommand(
      name, std::string(what) +
                " (Google Benchmark: the arguments after it are its flags, e.g. "
                "--benchmark_filter=REGEX --benchmark_min_time=0.5 --benchmark_list_tests)");
  cmd->allow_extras();
  return cmd;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"reactor-bench: Reactor's benchmarks (bench/README.md)"};
  app.require_subcommand(1);
  std::string storage;
  app.add_option("--storage", storage,
                 "The store of w1, sqlite (an empty SQLite store), redis-commit (redis://...) "
                 "and worker; also accepted after the subcommand");

  W1Options w1;
  auto* w1_cmd = app.add_subcommand("w1", "W1: sagas in bulk through worker processes");
  add_w1(w1_cmd, w1);
  CheckpointOptions checkpoint;
  auto* checkpoint_cmd = app.add_subcommand(
      "checkpoint", "Cost of step N's commit: a 500-step run against a 5-step run");
  add_checkpoint(checkpoint_cmd, checkpoint);
  CommitRateOptions commit;
  auto* commit_cmd = app.add_subcommand(
      "commit", "Raw SQLite commits/s for a 2 KB upsert (the backend's pragmas)");
  add_commit(commit_cmd, commit);
  SqliteOptions sqlite;
  auto* sqlite_cmd =
      app.add_subcommand("sqlite", "commit, checkpoint and w1 in one run, with ratios");
  add_w1(sqlite_cmd, sqlite.w1);
  sqlite_cmd
      ->add_option("--repeat", sqlite.checkpoint.repeat_full,
                   "Checkpoint runs of each length with synchronous=FULL")
      ->check(CLI::Range(1, 1000));
  sqlite_cmd
      ->add_option("--repeat-off", sqlite.checkpoint.repeat_off,
                   "Checkpoint runs of each length with synchronous=OFF")
      ->check(CLI::Range(1, 10000));
  sqlite_cmd->add_option("--commits", sqlite.commit.commits, "Timed raw commits")
      ->check(CLI::Range(1, 10000000));

  MapOptions map;
  auto* map_cmd = app.add_subcommand(
      "map", "A fan-out map of M elements through worker processes (W2), SQLite or Redis");
  map_cmd->add_option("-m,--count", map.count, "Elements")->check(CLI::Range(0, 100000));
  map_cmd->add_option("--claim", map.claim,
                      "Elements a claim holds (claim_batch, default 32); 1: a run each")
      ->check(CLI::Range(1, 100000));
  map_cmd->add_option("--batch", map.batch, "At most this many elements out at once")
      ->check(CLI::Range(1, 100000));
  map_cmd->add_option("--workers", map.workers, "Worker processes")->check(CLI::Range(1, 64));
  map_cmd->add_option("--threads", map.threads, "Threads per worker")->check(CLI::Range(1, 64));
  map_cmd->add_option("--step-ms", map.step_ms, "Each element sleeps this long")
      ->check(CLI::Range(0, 60000));
  map_cmd
      ->add_option("--scale", map.scale,
                   "Also run this many elements, and compare the cost per element")
      ->check(CLI::Range(0, 100000));
  add_store_timeout_dir(map_cmd, map.storage,
                        "An empty SQLite store or a Redis server (default: a scratch SQLite file)",
                        map.timeout_s, map.dir);

  HandOffOptions hand_off;
  auto* hand_off_cmd = app.add_subcommand(
      "handoff", "The latency of a hand-off (background_after) through worker processes");
  hand_off_cmd->add_option("-n,--runs", hand_off.runs, "Runs, one after another")
      ->check(CLI::Range(1, 1000000));
  hand_off_cmd->add_option("--workers", hand_off.workers, "Worker processes")
      ->check(CLI::Range(1, 64));
  add_store_timeout_dir(hand_off_cmd, hand_off.storage,
                        "An SQLite store or a Redis server (default: a scratch SQLite file)",
                        hand_off.timeout_s, hand_off.dir);

  ResumeBenchOptions resume;
  auto* resume_cmd = app.add_subcommand(
      "resume", "An interrupt's resume latency, and what paused runs cost idle workers");
  resume_cmd->add_option("-n,--runs", resume.runs, "Runs resumed, one after another")
      ->check(CLI::Range(1, 1000000));
  resume_cmd->add_option("--workers", resume.workers, "Worker processes")->check(CLI::Range(1, 64));
  resume_cmd
      ->add_option("--paused", resume.paused,
                   "Runs left paused for the idle comparison (0: skip it)")
      ->check(CLI::Range(0, 10000000));
  resume_cmd->add_option("--idle-s", resume.idle_s, "Each idle window, in seconds")
      ->check(CLI::Range(0.1, 3600.0));
  add_store_timeout_dir(resume_cmd, resume.storage,
                        "An SQLite store or a Redis server (default: a scratch SQLite file)",
                        resume.timeout_s, resume.dir);

  DashboardBenchOptions dashboard;
  auto* dashboard_cmd = app.add_subcommand(
      "dashboard", "The dashboard's runs list and a large map's run page, with a large store");
  dashboard_cmd->add_option("-n,--runs", dashboard.runs, "Runs stored")
      ->check(CLI::Range(0, 10000000));
  dashboard_cmd->add_option("--elements", dashboard.elements, "Elements of the map")
      ->check(CLI::Range(1, 1000000));
  dashboard_cmd->add_option("--requests", dashboard.requests, "Requests of each page")
      ->check(CLI::Range(1, 100000));
  add_storage(dashboard_cmd, dashboard.storage,
              "An empty SQLite store or a Redis server (default: a scratch SQLite file)");
  add_dir(dashboard_cmd, dashboard.dir);

  AsyncOptions async;
  auto* async_cmd = app.add_subcommand(
      "async", "Async units: a parked reader's resume latency, and a dispatch's store requests");
  async_cmd->add_option("-n,--runs", async.runs, "Runs, one after another")
      ->check(CLI::Range(1, 1000000));
  async_cmd->add_option("--workers", async.workers, "Worker processes")->check(CLI::Range(1, 64));
  async_cmd->add_option("--unit-ms", async.unit_ms, "How long each unit takes")
      ->check(CLI::Range(0, 60000));
  add_store_timeout_dir(async_cmd, async.storage,
                        "An SQLite store or a Redis server (default: a scratch SQLite file)",
                        async.timeout_s, async.dir);

  CoordinationOptions coordination;
  auto* coordination_cmd = app.add_subcommand(
      "coordination", "A lock's store requests per step, and runs/s on one hot key");
  add_coordination(coordination_cmd, coordination);

  auto* produce_cmd = app.add_subcommand(
      "peers-produce",
      "The peer benchmark's producer (BENCH_* variables; bench/peers/reactor/contender)");
  RedisCommitOptions redis_commit;
  auto* redis_commit_cmd = app.add_subcommand(
      "redis-commit", "Commit-script calls/s a Redis server takes (--storage redis://...)");
  add_storage(redis_commit_cmd, redis_commit.storage, "The Redis server (redis://...)");
  redis_commit_cmd->add_option("--connections", redis_commit.connections, "Client connections")
      ->check(CLI::Range(1, 64));
  redis_commit_cmd->add_option("-n,--sagas", redis_commit.sagas, "Runs per connection")
      ->check(CLI::Range(1, 1000000));

  BenchWorkerOptions worker;
  auto* worker_cmd = app.add_subcommand(
      "worker",
      "Serve BenchSaga (BENCH_STEPS, BENCH_STEP_MS), BenchFan and BenchHandOff on --storage: the "
      "worker of w1's, map's and handoff's child processes and of the peer contender");
  add_storage(worker_cmd, worker.storage, "Where the runs are stored");
  reactor::cli::add_worker_options(*worker_cmd, worker.loop);
  worker_cmd->add_flag("--bench-ready", worker.bench_ready,
                       "Once serving, SADD this pid to bench:ready on the harness's Redis "
                       "(BENCH_REDIS_*)");

  auto* engine_cmd = add_google_benchmark(app, "engine", "Engine overhead per step, no storage");
  auto* records_cmd =
      add_google_benchmark(app, "records", "Decoding the stored rows of a fetched run");

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);  // --help prints to stdout with 0; errors to stderr, non-zero
  }
  // The subcommand's --storage, else the one before it.
  const auto with_storage = [&storage](std::string& own) -> std::string& {
    if (own.empty()) own = storage;
    return own;
  };
  if (*w1_cmd) {
    with_storage(w1.storage);
    return run_w1(w1);
  }
  if (*sqlite_cmd) {
    with_storage(sqlite.w1.storage);
    // One scratch parent for all three, so every figure is from the same file system.
    sqlite.checkpoint.dir = sqlite.commit.dir = sqlite.w1.dir;
    return run_sqlite(sqlite);
  }
  if (*map_cmd) {
    with_storage(map.storage);
    return run_map(map);
  }
  if (*async_cmd) {
    with_storage(async.storage);
    return run_async(async);
  }
  if (*coordination_cmd) {
    with_storage(coordination.storage);
    return run_coordination(coordination);
  }
  if (*dashboard_cmd) {
    with_storage(dashboard.storage);
    return run_dashboard_bench(dashboard);
  }
  if (*resume_cmd) {
    with_storage(resume.storage);
    return run_resume(resume);
  }
  if (*hand_off_cmd) {
    with_storage(hand_off.storage);
    return run_hand_off(hand_off);
  }
  if (*redis_commit_cmd) {
    with_storage(redis_commit.storage);
    return run_redis_commit(redis_commit);
  }
  if (*worker_cmd) {
    if (with_storage(worker.storage).empty()) {
      std::fprintf(stderr, "reactor-bench worker: --storage URL is required\n");
      return 2;
    }
    return run_worker(worker);
  }
  // The others store nothing a caller names.
  if (!storage.empty()) {
    std::fprintf(stderr, "reactor-bench %s: takes no --storage\n",
                 app.get_subcommands().front()->get_name().c_str());
    return 2;
  }
  if (*checkpoint_cmd) return run_checkpoint(checkpoint);
  if (*commit_cmd) return run_commit(commit);
  if (*produce_cmd) return run_peers_produce();
  if (*engine_cmd) {
    return run_google_benchmarks("reactor-bench engine", engine_cmd->remaining(),
                                 register_engine_benchmarks);
  }
  if (*records_cmd) {
    return run_google_benchmarks("reactor-bench records", records_cmd->remaining(),
                                 register_records_benchmarks);
  }
  return 2;
}
