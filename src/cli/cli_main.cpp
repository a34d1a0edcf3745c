// cli_main: the command line, parsed with CLI11 (a private dependency: no CLI11 type reaches
// reactor/cli.hpp). It declares the built-in commands (command.hpp, one file each) and the
// user's own, parses, and runs the one chosen.
#include <CLI/CLI.hpp>
#include <stdexcept>
#include <tuple>
#include <utility>

#include "cli/command.hpp"
#include "cli/text.hpp"
#include "cli/usage.hpp"
#include "reactor/cli.hpp"

namespace reactor {

namespace cli {

std::vector<std::unique_ptr<Command>> built_in_commands() {
  std::vector<std::unique_ptr<Command>> out;
  out.push_back(start_command());
  out.push_back(worker_command());
  out.push_back(runs_command());
  out.push_back(show_command());
  out.push_back(sweep_command());
  out.push_back(enqueue_command());
  out.push_back(reactors_command());
  out.push_back(schedules_command());
  out.push_back(cancel_command());
  out.push_back(undo_command());
  out.push_back(retry_command());
  out.push_back(resume_command());
  out.push_back(locks_command());
  out.push_back(ordered_lock_command());
  out.push_back(dashboard_command());
  return out;
}

}  // namespace cli

namespace {

std::string file_name(const char* path) {
  const std::string p = path ? path : "";
  const auto slash = p.rfind('/');
  const std::string name = slash == std::string::npos ? p : p.substr(slash + 1);
  return name.empty() ? "reactor" : name;
}

// --storage on `app`, the top level or a command: every command's --help lists it, and it may
// come before or after the command.
CLI::Option* add_storage_option(CLI::App& app, std::string& storage, const CliOptions& options) {
  return app.add_option(
      "--storage", storage,
      "Where runs are stored: sqlite:///path.db, sqlite://relative.db, "
      "redis://[:password@]host:port/db or memory: (before or after the command). Default: $" +
          std::string(cli::kStorageVariable) + " when set, else " + options.default_storage);
}

// --otlp-endpoint, as --storage: on the top level and on every command that opens a store.
CLI::Option* add_otlp_option(CLI::App& app, std::string& endpoint) {
  return app.add_option("--otlp-endpoint", endpoint,
                        "Export traces (OTLP/HTTP JSON) to this receiver, e.g. "
                        "http://127.0.0.1:4318 (default: $OTEL_EXPORTER_OTLP_ENDPOINT)");
}

// The user's own commands (CliOptions::commands), each taking every argument after its name.
std::vector<std::pair<CLI::App*, const CliCommand*>> declare_own(
    CLI::App& app, const CliOptions& options,
    const std::vector<std::unique_ptr<cli::Command>>& built_in) {
  std::vector<std::pair<CLI::App*, const CliCommand*>> own;
  for (const CliCommand& command : options.commands) {
    for (const auto& b : built_in) {
      if (command.name == b->name()) {
        throw std::invalid_argument("cli_main: '" + command.name + "' is a built-in command");
      }
    }
    CLI::App* sub = app.add_subcommand(command.name, command.description);
    sub->prefix_command();  // every argument after its name is the command's, --help included
    sub->fallthrough(false);
    sub->set_help_flag();
    own.emplace_back(sub, &command);
  }
  return own;
}

}  // namespace

int cli_main(Engine& engine, int argc, char** argv, const CliOptions& options) {
  const std::string program =
      options.program.empty() ? file_name(argc > 0 ? argv[0] : nullptr) : options.program;
  CLI::App app{program + ": " + options.description, program};
  // An option of the top level is also taken after the command (set before the commands are
  // added, so that each inherits it).
  app.fallthrough();
  app.footer(std::string("Environment:\n  ") + cli::kStorageVariable +
             "  the store when --storage is not given (default " + options.default_storage + ")");
  std::string storage;
  std::vector<CLI::Option*> storage_options{add_storage_option(app, storage, options)};
  std::string otlp_endpoint;
  add_otlp_option(app, otlp_endpoint);
  const std::vector<std::unique_ptr<cli::Command>> built_in = cli::built_in_commands();
  const auto own = declare_own(app, options, built_in);
  std::vector<CLI::App*> subs;
  for (const auto& command : built_in) {
    CLI::App* sub = app.add_subcommand(command->name(), command->description());
    if (command->uses_store()) {  // --storage and the variable in its --help
      storage_options.push_back(add_storage_option(*sub, storage, options));
      add_otlp_option(*sub, otlp_endpoint);
      sub->footer(app.get_footer());
    }
    command->declare(*sub);
    subs.push_back(sub);
  }

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return cli::usage_error(app, e, program);
  }
  if (app.get_subcommands().empty()) {
    cli::print_error(program, "a command is required (commands: " + cli::command_names(app) +
                                  ")\nRun '" + program + " --help' for more information.");
    return 2;
  }
  bool storage_given = false;
  for (const CLI::Option* option : storage_options) storage_given |= option->count() > 0;
  for (const auto& [sub, own_command] : own) {
    if (!*sub) continue;
    const std::vector<std::string> args =
        cli::without_top_level_options(sub->remaining(), storage, storage_given);
    if (!storage_given) storage = cli::storage_from_environment(options.default_storage).first;
    return own_command->run(storage, args);
  }
  cli::Context ctx{engine, options, program, storage};
  ctx.otlp_endpoint = otlp_endpoint;
  if (!storage_given) {
    std::tie(ctx.storage, ctx.storage_source) =
        cli::storage_from_environment(options.default_storage);
  }
  for (std::size_t k = 0; k < built_in.size(); ++k) {
    if (*subs[k]) return built_in[k]->run(ctx);
  }
  return 2;
}

}  // namespace reactor
