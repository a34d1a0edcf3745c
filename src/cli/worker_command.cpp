// `worker`: serves the registered reactors' runs until SIGTERM/SIGINT, through the loop of
// worker_loop.hpp, on a store it makes only when one was named or --create says so.
#include <CLI/CLI.hpp>

#include "cli/command.hpp"
#include "cli/text.hpp"
#include "cli/worker_loop.hpp"
#include "reactor/metrics_server.hpp"

namespace reactor::cli {

namespace {

int run_worker(const Context& ctx, const WorkerLoopOptions& o, bool create) {
  // Before any thread starts (the store's included): they all inherit the mask.
  const sigset_t stop_signals = block_stop_signals();
  // A URL somebody named may be a new store; the default, in whatever directory the worker was
  // started, is made only on request: a worker serving an empty store it made by mistake idles
  // while the runs it should serve wait in another.
  const bool may_create = create || ctx.storage_source != StorageSource::kDefault;
  WorkerLoopOptions options = o;
  // Listening first: a port in use stops the worker before it takes any run.
  std::unique_ptr<MetricsServer> metrics_server;
  if (!o.metrics_listen.empty()) {
    options.metrics = std::make_shared<MetricsRegistry>();
    auto served = MetricsServer::start(options.metrics, o.metrics_listen);
    if (!served.ok()) {
      print_error(ctx.program + " worker",
                  "--metrics " + o.metrics_listen + ": " + served.status().message());
      return 2;
    }
    metrics_server = std::move(served).value();
  }
  auto engine = open_store(ctx, "worker", may_create ? StoreUse::kMayCreate : StoreUse::kMustExist,
                           durability_options(o, ctx.options.engine.durability), options.metrics);
  if (!engine) return 2;
  return serve(*engine, options, stop_signals, ctx.program + " worker");
}

class WorkerCommand final : public Command {
 public:
  const char* name() const override { return "worker"; }
  const char* description() const override {
    return "Serve the reactors' background runs until SIGTERM/SIGINT";
  }
  void declare(CLI::App& sub) override {
    add_worker_options(sub, options_);
    sub.footer(
        "Recovery: the runs of a worker that dies are taken over within about --lease-ttl + "
        "--sweep-interval. A shorter lease recovers sooner, at the cost of more heartbeats to "
        "the store.\n\n" +
        sub.get_footer());
    sub.add_flag("--create", create_,
                 "Make the store if it does not exist, even the default one (a store named by "
                 "--storage or " +
                     std::string(kStorageVariable) + " is made anyway)");
  }
  int run(const Context& ctx) override { return run_worker(ctx, options_, create_); }

 private:
  WorkerLoopOptions options_;
  bool create_ = false;
};

}  // namespace

std::unique_ptr<Command> worker_command() { return std::make_unique<WorkerCommand>(); }

}  // namespace reactor::cli
