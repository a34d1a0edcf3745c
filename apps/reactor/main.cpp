// reactor: run and inspect sagas from the shell.
#include <CLI/CLI.hpp>

#include "commands.hpp"

int main(int argc, char** argv) {
  CLI::App app{"reactor: durable sagas for C++ — run, serve and inspect reactors"};
  app.require_subcommand(1);
  std::string storage = reactor_cli::kDefaultStorage;
  app.add_option("--storage", storage,
                 "Where runs are stored: sqlite:///path.db, sqlite://relative.db, "
                 "redis://[:password@]host:port/db or memory:")
      ->capture_default_str();

  reactor_cli::DemoOptions demo;
  auto* demo_cmd = app.add_subcommand("demo", "Run a batch of OrderSaga runs and show the outcome");
  demo_cmd->add_option("-n,--orders", demo.orders, "How many orders to run")
      ->check(CLI::Range(1, 100000));
  demo_cmd->add_flag("--in-process", demo.in_process,
                     "Run the sagas in this process only, without storage or workers");
  demo_cmd->add_flag("--log", demo.log_events,
                     "With --in-process: print one key=value line per engine event");

  reactor_cli::StartOptions start;
  auto* start_cmd = app.add_subcommand("start", "Start one registered reactor");
  start_cmd->add_option("name", start.reactor, "Registered reactor name (e.g. OrderSaga)")
      ->required();
  start_cmd->add_option("--input", start.input_json, "Inputs as a JSON object");
  start_cmd->add_flag("--background", start.background,
                      "Persist the run with its job and print its id at once");
  start_cmd->add_flag("--json", start.json, "Print the run result as JSON");

  reactor_cli::WorkerCliOptions worker;
  auto* worker_cmd = app.add_subcommand("worker", "Serve the example reactors' background runs");
  reactor_cli::add_worker_options(*worker_cmd, worker.loop);
  worker_cmd->add_flag("--bench-ready", worker.bench_ready)->group("");  // the peer benchmark

  reactor_cli::RunsOptions runs;
  auto* runs_cmd = app.add_subcommand("runs", "List stored runs, newest first");
  runs_cmd->add_option("--status", runs.status, "Only runs with this status");
  runs_cmd->add_option("--limit", runs.limit, "At most this many");
  runs_cmd->add_flag("--json", runs.json, "One JSON object per line");

  reactor_cli::ShowOptions show;
  auto* show_cmd = app.add_subcommand("show", "Show one stored run: status, steps, trace, error");
  show_cmd->add_option("run_id", show.run_id, "Run id")->required();
  show_cmd->add_flag("--json", show.json, "Print the run result as JSON");

  auto* sweep_cmd =
      app.add_subcommand("sweep", "Re-enqueue runs nobody executes; purge expired ones");

  auto* bench_cmd = app.add_subcommand(
      "bench", "Measure durable execution: W1, checkpoint cost, raw commit rates, peer benchmark");
  bench_cmd->require_subcommand(1);
  reactor_cli::BenchSqliteOptions bench;
  auto add_dir = [](CLI::App* cmd, std::string& dir) {
    cmd->add_option("--dir", dir,
                    "Directory for the scratch databases, removed after (default: the temp dir)");
  };
  auto add_w1 = [&add_dir](CLI::App* cmd, reactor_cli::bench::W1Options& w1) {
    cmd->add_option("-n,--sagas", w1.sagas, "How many sagas")->check(CLI::Range(1, 1000000));
    cmd->add_option("--steps", w1.steps, "Steps per saga")->check(CLI::Range(1, 100000));
    cmd->add_option("--workers", w1.workers, "Worker processes (one thread each)")
        ->check(CLI::Range(1, 64));
    cmd->add_option("--step-ms", w1.step_ms, "Each step body sleeps this long")
        ->check(CLI::Range(0, 60000));
    cmd->add_option("--storage", w1.storage,
                    "An empty SQLite store to use (default: a scratch file, removed after)");
    cmd->add_option("--timeout", w1.timeout_s, "Give up after this many seconds")
        ->check(CLI::PositiveNumber);
    add_dir(cmd, w1.dir);
  };
  auto add_checkpoint = [&add_dir](CLI::App* cmd, reactor_cli::bench::CheckpointOptions& cp) {
    cmd->add_option("--short-steps", cp.short_steps, "Steps of the short run")
        ->check(CLI::Range(1, 100000));
    cmd->add_option("--long-steps", cp.long_steps, "Steps of the long run")
        ->check(CLI::Range(1, 100000));
    cmd->add_option("--repeat", cp.repeat_full, "Runs of each length with synchronous=FULL")
        ->check(CLI::Range(1, 1000));
    cmd->add_option("--repeat-off", cp.repeat_off, "Runs of each length with synchronous=OFF")
        ->check(CLI::Range(1, 10000));
    add_dir(cmd, cp.dir);
  };
  auto add_commit = [&add_dir](CLI::App* cmd, reactor_cli::bench::CommitRateOptions& c) {
    cmd->add_option("--commits", c.commits, "Timed commits")->check(CLI::Range(1, 10000000));
    cmd->add_option("--value-bytes", c.value_bytes, "Size of the upserted value")
        ->check(CLI::Range(0, 1 << 20));
    add_dir(cmd, c.dir);
  };
  reactor_cli::bench::W1Options w1;
  add_w1(bench_cmd->add_subcommand("w1", "W1: sagas in bulk through worker processes"), w1);
  reactor_cli::bench::CheckpointOptions checkpoint;
  add_checkpoint(bench_cmd->add_subcommand(
                     "checkpoint", "Cost of step N's commit: a 500-step run against a 5-step run"),
                 checkpoint);
  reactor_cli::bench::CommitRateOptions commit;
  add_commit(bench_cmd->add_subcommand(
                 "commit", "Raw SQLite commits/s for a 2 KB upsert (the backend's pragmas)"),
             commit);
  auto* bench_sqlite_cmd =
      bench_cmd->add_subcommand("sqlite", "commit, checkpoint and w1 in one run, with ratios");
  add_w1(bench_sqlite_cmd, bench.w1);
  bench_sqlite_cmd
      ->add_option("--repeat", bench.checkpoint.repeat_full,
                   "Checkpoint runs of each length with synchronous=FULL")
      ->check(CLI::Range(1, 1000));
  bench_sqlite_cmd
      ->add_option("--repeat-off", bench.checkpoint.repeat_off,
                   "Checkpoint runs of each length with synchronous=OFF")
      ->check(CLI::Range(1, 10000));
  bench_sqlite_cmd->add_option("--commits", bench.commit.commits, "Timed raw commits")
      ->check(CLI::Range(1, 10000000));
  bench_cmd->add_subcommand("peers-produce",
                            "The peer benchmark's producer (BENCH_* variables; "
                            "bench/peers/reactor/contender)");
  reactor_cli::bench::RedisCommitOptions redis_commit;
  auto* redis_commit_cmd = bench_cmd->add_subcommand(
      "redis-commit", "Commit-script calls/s a Redis server takes (--storage redis://...)");
  redis_commit_cmd->add_option("--connections", redis_commit.connections, "Client connections")
      ->check(CLI::Range(1, 64));
  redis_commit_cmd->add_option("-n,--sagas", redis_commit.sagas, "Runs per connection")
      ->check(CLI::Range(1, 1000000));
  std::string enqueue_id;
  auto* enqueue_cmd =
      app.add_subcommand("enqueue", "Enqueue a resume job for a stored run (an operator's nudge)");
  enqueue_cmd->add_option("run_id", enqueue_id, "Root run id")->required();

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);  // --help prints to stdout with 0; errors to stderr, non-zero
  }
  start.storage = worker.storage = runs.storage = show.storage = storage;
  if (*demo_cmd) return reactor_cli::run_demo(demo);
  if (*start_cmd) return reactor_cli::run_start(start);
  if (*worker_cmd) return reactor_cli::run_worker_command(worker);
  if (*runs_cmd) return reactor_cli::run_runs(runs);
  if (*show_cmd) return reactor_cli::run_show(show);
  if (*sweep_cmd) return reactor_cli::run_sweep(storage);
  if (*bench_cmd) {
    // `reactor --storage URL bench w1` names the W1 store too.
    const bool global_storage = app.count("--storage") > 0;
    if (global_storage && w1.storage.empty()) w1.storage = storage;
    if (global_storage && bench.w1.storage.empty()) bench.w1.storage = storage;
    if (bench_cmd->got_subcommand("w1")) return reactor_cli::run_bench_w1(w1);
    if (bench_cmd->got_subcommand("checkpoint")) {
      return reactor_cli::run_bench_checkpoint(checkpoint);
    }
    if (bench_cmd->got_subcommand("commit")) return reactor_cli::run_bench_commit(commit);
    if (bench_cmd->got_subcommand("peers-produce")) return reactor_cli::run_bench_peers_produce();
    if (bench_cmd->got_subcommand("redis-commit")) {
      redis_commit.storage = storage;
      return reactor_cli::run_bench_redis_commit(redis_commit);
    }
    // One scratch parent for all three, so every figure is from the same file system.
    bench.checkpoint.dir = bench.commit.dir = bench.w1.dir;
    return reactor_cli::run_bench_sqlite(bench);
  }
  if (*enqueue_cmd) return reactor_cli::run_enqueue(storage, enqueue_id);
  return 2;
}
