// reactor: run, serve and inspect the example reactors from the shell. The
// library's cli_main with the examples registered (examples/order_saga), and a
// command of its own, `demo`.
#include "demo.hpp"
#include "order_saga/order_saga.hpp"
#include "reactor/cli.hpp"

int main(int argc, char** argv) {
  examples::OrderServices services;  // REACTOR_LEDGER, REACTOR_DEMO_STEP_MS
  services.configure_from_env();
  reactor::Engine engine;
  examples::register_examples(engine.registry(), services);

  reactor::CliOptions options;
  options.program = "reactor";
  options.description = "durable sagas for C++ — run, serve and inspect reactors";
  options.commands.push_back(
      {"demo", "Run a batch of OrderSaga runs (--map: a fan-out map) and show the outcome",
       reactor_demo::demo_command});
  return reactor::cli_main(engine, argc, argv, options);
}
