// `undo RUN`: rolls back what a paused, halted, completed or failed run did, here, then leaves
// it cancelled (Engine::undo).
#include <CLI/CLI.hpp>
#include <cstdio>

#include "cli/command.hpp"
#include "cli/refusal.hpp"

namespace reactor::cli {

namespace {

class UndoCommand final : public Command {
 public:
  const char* name() const override { return "undo"; }
  const char* description() const override {
    return "Roll back the completed steps of a paused, halted, completed or failed run, newest "
           "first; then it is cancelled";
  }
  void declare(CLI::App& sub) override { sub.add_option("run_id", run_id_, "Run id")->required(); }
  int run(const Context& ctx) override {
    const std::string who = ctx.program + " undo";
    auto engine = open_store(ctx, "undo", StoreUse::kMustExist, ctx.options.engine.durability);
    if (!engine) return 2;
    Result<RunResult> undone = engine->undo(run_id_);
    if (!undone.ok()) return refused(who, undone.status());
    std::size_t steps = 0;
    for (const StepOutcome& s : undone->steps) steps += s.status == StepStatus::kUndone ? 1 : 0;
    std::printf("run %s undone (%zu step(s) undone), now %s\n", run_id_.c_str(), steps,
                to_string(undone->status));
    if (undone->error && !undone->error->rollback_failures.empty()) {
      for (const RollbackFailure& f : undone->error->rollback_failures) {
        std::printf("  %s of %s failed: %s\n", f.kind.c_str(), f.step.c_str(), f.message.c_str());
      }
      return 1;
    }
    return 0;
  }

 private:
  std::string run_id_;
};

}  // namespace

std::unique_ptr<Command> undo_command() { return std::make_unique<UndoCommand>(); }

}  // namespace reactor::cli
