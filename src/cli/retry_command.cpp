// `retry RUN`: a new run with the inputs of one that ended, linked to it (Engine::retry).
#include <CLI/CLI.hpp>
#include <cstdio>

#include "cli/command.hpp"
#include "cli/refusal.hpp"

namespace reactor::cli {

namespace {

class RetryCommand final : public Command {
 public:
  const char* name() const override { return "retry"; }
  const char* description() const override {
    return "Start a new run with the inputs of a run that ended, in the background";
  }
  void declare(CLI::App& sub) override { sub.add_option("run_id", run_id_, "Run id")->required(); }
  int run(const Context& ctx) override {
    const std::string who = ctx.program + " retry";
    auto engine = open_store(ctx, "retry", StoreUse::kMustExist, ctx.options.engine.durability);
    if (!engine) return 2;
    Result<std::string> started = engine->retry(run_id_);
    if (!started.ok()) return refused(who, started.status());
    std::printf("%s\n", started->c_str());
    return 0;
  }

 private:
  std::string run_id_;
};

}  // namespace

std::unique_ptr<Command> retry_command() { return std::make_unique<RetryCommand>(); }

}  // namespace reactor::cli
