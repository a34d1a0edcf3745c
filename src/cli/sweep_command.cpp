// `sweep`: one pass of the sweeper — runs nobody executes enqueued again, expired ones purged.
#include <CLI/CLI.hpp>
#include <cstdio>

#include "cli/command.hpp"
#include "cli/text.hpp"

namespace reactor::cli {

namespace {

int run_sweep(const Context& ctx) {
  auto engine = open_store(ctx, "sweep", StoreUse::kMustExist, ctx.options.engine.durability);
  if (!engine) return 2;
  Result<SweepResult> swept = engine->sweep_once();
  if (!swept.ok()) {
    print_error(ctx.program + " sweep", swept.status().to_string());
    return 1;
  }
  std::printf("requeued %zu run(s), purged %zu expired run(s)\n", swept->requeued, swept->purged);
  return 0;
}

class SweepCommand final : public Command {
 public:
  const char* name() const override { return "sweep"; }
  const char* description() const override {
    return "Re-enqueue runs nobody executes; purge expired ones";
  }
  void declare(CLI::App&) override {}
  int run(const Context& ctx) override { return run_sweep(ctx); }
};

}  // namespace

std::unique_ptr<Command> sweep_command() { return std::make_unique<SweepCommand>(); }

}  // namespace reactor::cli
