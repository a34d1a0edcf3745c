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
  if (*enqueue_cmd) return reactor_cli::run_enqueue(storage, enqueue_id);
  return 2;
}
