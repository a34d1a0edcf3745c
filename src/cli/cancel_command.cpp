// `cancel RUN [--reason TEXT]`: stops a live run for good (Engine::cancel); nothing is rolled back.
#include <CLI/CLI.hpp>
#include <cstdio>

#include "cli/command.hpp"
#include "cli/refusal.hpp"

namespace reactor::cli {

namespace {

class CancelCommand final : public Command {
 public:
  const char* name() const override { return "cancel"; }
  const char* description() const override {
    return "Stop a live run for good (nothing is rolled back; a worker executing it stops)";
  }
  void declare(CLI::App& sub) override {
    sub.add_option("run_id", run_id_, "Run id")->required();
    sub.add_option("--reason", reason_, "Why, recorded as the run's error message");
  }
  int run(const Context& ctx) override {
    const std::string who = ctx.program + " cancel";
    auto engine = open_store(ctx, "cancel", StoreUse::kMustExist, ctx.options.engine.durability);
    if (!engine) return 2;
    if (Status s = engine->cancel(run_id_, reason_); !s.ok()) return refused(who, s);
    std::printf("run %s cancelled\n", run_id_.c_str());
    return 0;
  }

 private:
  std::string run_id_;
  std::string reason_;
};

}  // namespace

std::unique_ptr<Command> cancel_command() { return std::make_unique<CancelCommand>(); }

}  // namespace reactor::cli
