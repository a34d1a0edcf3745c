// `enqueue`: a resume job for a stored root run — an operator's nudge for a run that seems
// stuck. Harmless for a run that is executing (the job snoozes on its lease). Unknown id: 2. A
// run that ended, or one of a reactor not registered here, is refused (2) unless --force: its
// job would only be acknowledged, or wait for a worker of another program.
#include <CLI/CLI.hpp>
#include <cstdio>

#include "cli/command.hpp"
#include "cli/text.hpp"

namespace reactor::cli {

namespace {

int run_enqueue(const Context& ctx, const std::string& run_id, bool force) {
  const std::string who = ctx.program + " enqueue";
  auto engine = open_store(ctx, "enqueue", StoreUse::kMustExist, ctx.options.engine.durability);
  if (!engine) return 2;
  Backend& backend = *engine->backend();
  Result<RunHeaderRow> header = backend.load_header(run_id);
  if (!header.ok()) {
    print_error(who, header.status().to_string());
    return header.status().code() == StatusCode::kNotFound ? 2 : 1;
  }
  const RunHeaderRow& run = *header;
  if (!run.parent_id.empty()) {
    print_error(who, "run " + run_id + " is a child of run " + run.root_id + "; enqueue the root");
    return 2;
  }
  if (!force && is_terminal(run.status)) {
    print_error(who, "run " + run_id + " is " + to_string(run.status) +
                         ": it has ended, and its job would only be acknowledged (--force "
                         "enqueues one anyway)");
    return 2;
  }
  if (!force && !engine->registry().find(run.reactor)) {
    print_error(who, "run " + run_id + " is a run of reactor '" + run.reactor +
                         "', which is not registered here (registered: " +
                         registered_closest_first(ctx, run.reactor) +
                         "); --force enqueues it anyway, for a worker of another program");
    return 2;
  }
  // On the reactor's queue, as the engine routes it (DurabilityOptions::queue_for).
  if (Status s = enqueue_resume(*engine, run.id, /*force=*/true); !s.ok()) {
    print_error(who, s.to_string());
    return 1;
  }
  std::printf("enqueued a resume job for run %s (%s, %s)\n", run.id.c_str(), run.reactor.c_str(),
              to_string(run.status));
  return 0;
}

class EnqueueCommand final : public Command {
 public:
  const char* name() const override { return "enqueue"; }
  const char* description() const override {
    return "Enqueue a resume job for a stored run (an operator's nudge)";
  }
  void declare(CLI::App& sub) override {
    sub.add_option("run_id", run_id_, "Root run id")->required();
    sub.add_flag("--force", force_,
                 "Enqueue it even for a run that has ended, or one of a reactor not registered "
                 "here");
  }
  int run(const Context& ctx) override { return run_enqueue(ctx, run_id_, force_); }

 private:
  std::string run_id_;
  bool force_ = false;
};

}  // namespace

std::unique_ptr<Command> enqueue_command() { return std::make_unique<EnqueueCommand>(); }

}  // namespace reactor::cli
