// `resume`: a paused run's interrupt resumed with its payload — by run id and step, or by its
// correlation id (docs/interrupts.md); or, given only RUN, a halted run whose halt allows it
// (Engine::resume_halted, docs/operator.md).
#include <CLI/CLI.hpp>
#include <cstdio>
#include <iostream>

#include "cli/command.hpp"
#include "cli/json_argument.hpp"
#include "cli/refusal.hpp"
#include "cli/text.hpp"

namespace reactor::cli {

namespace {

struct ResumeLine {
  std::string run_id;
  std::string step;         // --step: the interrupt's path
  std::string correlation;  // --correlation: instead of RUN and --step
  std::string payload = "{}";
  std::string payload_file;
  bool run_inline = false;  // --inline: go on here rather than in a worker
  bool json = false;
};

int print_resumed(const RunResult& r, const ResumeLine& o) {
  if (o.json) {
    std::cout << to_json(r).dump(2) << "\n";
    return 0;
  }
  std::cout << "run " << r.run_id << ": " << to_string(r.status) << "\n";
  if (r.ok()) std::cout << "value: " << r.value.dump() << "\n";
  if (!r.trace.empty()) std::cout << "trace: " << r.trace_summary() << "\n";
  if (!is_terminal(r.status) && !o.run_inline) {
    std::cout << "it goes on in a worker: reactor show " << r.run_id << "\n";
  }
  return r.status == RunStatus::kFailed ? 1 : 0;
}

// RUN alone: a resumable halt, carried on by a worker.
int resume_halted(const Context& ctx, const ResumeLine& o, const std::string& who) {
  auto engine = open_store(ctx, "resume", StoreUse::kMustExist, ctx.options.engine.durability);
  if (!engine) return 2;
  if (Status s = engine->resume_halted(o.run_id); !s.ok()) return refused(who, s);
  std::printf("run %s resumed: a worker carries it on\n", o.run_id.c_str());
  return 0;
}

int run_resume(const Context& ctx, const ResumeLine& o) {
  const std::string who = ctx.program + " resume";
  if (o.correlation.empty() && o.step.empty() && !o.run_id.empty()) {
    return resume_halted(ctx, o, who);
  }
  if (o.correlation.empty() == (o.run_id.empty() || o.step.empty())) {
    print_error(who,
                "name an interrupt by RUN and --step or by --correlation ID (or a halted run by "
                "RUN alone)");
    return 2;
  }
  std::optional<Value> payload =
      read_json_argument(o.payload, o.payload_file, "--payload", "payload", who);
  if (!payload) return 2;
  auto engine = open_store(ctx, "resume", StoreUse::kMustExist, ctx.options.engine.durability);
  if (!engine) return 2;
  const ResumeOptions options{.run_inline = o.run_inline};
  Result<RunResult> resumed =
      o.correlation.empty()
          ? engine->resume_interrupt(o.run_id, o.step, std::move(*payload), options)
          : engine->resume_by_correlation(o.correlation, std::move(*payload), options);
  if (!resumed.ok()) return refused(who, resumed.status());
  return print_resumed(*resumed, o);
}

class ResumeCommand final : public Command {
 public:
  const char* name() const override { return "resume"; }
  const char* description() const override {
    return "Resume a paused run's interrupt with its payload (RUN --step S, or --correlation ID), "
           "or a resumable halted run (RUN alone)";
  }
  void declare(CLI::App& sub) override {
    sub.add_option("run_id", o_.run_id, "The paused (or halted) run");
    sub.add_option("--step", o_.step, "The interrupt's step path: approve, child/approve");
    sub.add_option("--correlation", o_.correlation,
                   "The interrupt's correlation id, instead of RUN and --step");
    auto* payload = sub.add_option("--payload", o_.payload,
                                   "The payload: JSON, @PATH or - (stdin); default {}");
    sub.add_option("--payload-file", o_.payload_file, "The payload from this JSON file")
        ->excludes(payload);
    sub.add_flag("--inline", o_.run_inline,
                 "Go on with the run here, to its end or next pause (default: in a worker)");
    sub.add_flag("--json", o_.json, "Print the run as JSON");
  }
  int run(const Context& ctx) override { return run_resume(ctx, o_); }

 private:
  ResumeLine o_;
};

}  // namespace

std::unique_ptr<Command> resume_command() { return std::make_unique<ResumeCommand>(); }

}  // namespace reactor::cli
