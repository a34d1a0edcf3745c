// `resume RUN`: continues a run that waits for an operator. Today: a halted run whose halt
// allows it (Engine::resume_halted). Each way of resuming is one option set and one branch of
// resume(): an interrupt's (--step, --payload, --correlation) goes beside it.
#include <CLI/CLI.hpp>
#include <cstdio>

#include "cli/command.hpp"
#include "cli/refusal.hpp"

namespace reactor::cli {

namespace {

class ResumeCommand final : public Command {
 public:
  const char* name() const override { return "resume"; }
  const char* description() const override {
    return "Continue a halted run whose halt allows it (its halted step runs again)";
  }
  void declare(CLI::App& sub) override { sub.add_option("run_id", run_id_, "Run id")->required(); }
  int run(const Context& ctx) override {
    const std::string who = ctx.program + " resume";
    auto engine = open_store(ctx, "resume", StoreUse::kMustExist, ctx.options.engine.durability);
    if (!engine) return 2;
    if (Status s = resume(*engine); !s.ok()) return refused(who, s);
    std::printf("run %s resumed: a worker carries it on\n", run_id_.c_str());
    return 0;
  }

 private:
  Status resume(Engine& engine) { return engine.resume_halted(run_id_); }

  std::string run_id_;
};

}  // namespace

std::unique_ptr<Command> resume_command() { return std::make_unique<ResumeCommand>(); }

}  // namespace reactor::cli
