// reactor: run and inspect sagas from the shell.
#include <CLI/CLI.hpp>

#include <iostream>

#include "commands.hpp"

int main(int argc, char** argv) {
  CLI::App app{"reactor: durable sagas for C++ — run and inspect reactors"};
  app.require_subcommand(1);

  reactor_cli::DemoOptions demo;
  auto* demo_cmd = app.add_subcommand("demo", "Run a batch of OrderSaga runs and show the outcome");
  demo_cmd->add_option("-n,--orders", demo.orders, "How many orders to run")
      ->check(CLI::Range(1, 100000));
  demo_cmd->add_flag("--log", demo.log_events, "Print one key=value line per engine event");

  reactor_cli::StartOptions start;
  auto* start_cmd = app.add_subcommand("start", "Run one registered reactor and print its result");
  start_cmd->add_option("name", start.reactor, "Registered reactor name (e.g. OrderSaga)")
      ->required();
  start_cmd->add_option("--input", start.input_json, "Inputs as a JSON object");
  start_cmd->add_flag("--json", start.json, "Print the run result as JSON");

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);  // --help prints to stdout with 0; errors to stderr, non-zero
  }
  if (*demo_cmd) return reactor_cli::run_demo(demo);
  if (*start_cmd) return reactor_cli::run_start(start);
  return 2;
}
