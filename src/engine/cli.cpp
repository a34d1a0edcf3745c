// cli_main: the command line, parsed with CLI11 (a private dependency: no
// CLI11 type reaches reactor/cli.hpp).
#include "reactor/cli.hpp"

#include <CLI/CLI.hpp>
#include <stdexcept>
#include <tuple>
#include <utility>

#include "base/suggest.hpp"
#include "engine/cli_commands.hpp"
#include "engine/cli_text.hpp"

namespace reactor {

namespace {

using cli::print_error;

const char* const kBuiltIn[] = {"start", "worker", "runs", "show", "sweep", "enqueue", "reactors"};

std::string file_name(const char* path) {
  const std::string p = path ? path : "";
  const auto slash = p.rfind('/');
  const std::string name = slash == std::string::npos ? p : p.substr(slash + 1);
  return name.empty() ? "reactor" : name;
}

std::vector<std::string> command_list(CLI::App& app) {
  std::vector<std::string> out;
  for (const CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; })) {
    out.push_back(sub->get_name());
  }
  return out;
}

std::string command_names(CLI::App& app) {
  std::string out;
  for (const std::string& name : command_list(app)) out += (out.empty() ? "" : ", ") + name;
  return out;
}

// The option names `app` knows, as typed: "--threads", "-h".
void add_option_names(const CLI::App& app, std::vector<std::string>& out) {
  for (const CLI::Option* option : app.get_options()) {
    for (const std::string& name : option->get_lnames()) out.push_back("--" + name);
    for (const std::string& name : option->get_snames()) out.push_back("-" + name);
  }
}

// "; did you mean --input-file?" for each unknown option among `extras` that is near one the
// command (or the top level) knows. CLI11 says only which arguments it did not expect.
std::string option_suggestions(CLI::App& app, const std::vector<std::string>& extras) {
  std::vector<std::string> known;
  add_option_names(app, known);
  for (const CLI::App* sub : app.get_subcommands()) add_option_names(*sub, known);
  std::vector<std::pair<std::string, std::string>> found;  // typed, meant
  for (const std::string& extra : extras) {
    if (extra.size() < 2 || extra[0] != '-') continue;
    const std::string typed = extra.substr(0, extra.find('='));
    if (auto meant = did_you_mean(typed, known); meant && *meant != typed) {
      found.emplace_back(typed, *meant);
    }
  }
  std::string out;
  for (const auto& [typed, meant] : found) {
    out += "; did you mean " + meant + (found.size() > 1 ? " for " + typed : "") + "?";
  }
  return out;
}

// Takes the top-level options (--storage URL, --storage=URL) out of a command's own arguments.
std::vector<std::string> without_top_level_options(std::vector<std::string> args,
                                                   std::string& storage, bool& given) {
  std::vector<std::string> rest;
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--storage" && i + 1 < args.size()) {
      storage = args[++i];
      given = true;
    } else if (args[i].rfind("--storage=", 0) == 0) {
      storage = args[i].substr(std::string_view("--storage=").size());
      given = true;
    } else {
      rest.push_back(std::move(args[i]));
    }
  }
  return rest;
}

// A mistake on the command line: CLI11's message (arguments it echoes masked) and what was
// probably meant, exit 2. Help: printed on stdout, exit 0.
int usage_error(CLI::App& app, const CLI::ParseError& e, const std::string& program) {
  if (e.get_exit_code() == static_cast<int>(CLI::ExitCodes::Success)) return app.exit(e);
  const std::vector<CLI::App*> chosen = app.get_subcommands();
  std::string message = e.what();
  const std::vector<std::string> extras = app.remaining(true);
  if (chosen.empty() && !extras.empty() && !extras.front().empty() && extras.front()[0] != '-') {
    message = "unknown command '" + extras.front() + "' (commands: " + command_names(app) + ")";
    if (auto meant = did_you_mean(extras.front(), command_list(app))) {
      message += "; did you mean '" + *meant + "'?";
    }
  } else {
    message += option_suggestions(app, extras);
  }
  const std::string help = chosen.empty() ? program : program + " " + chosen.front()->get_name();
  print_error(program, message + "\nRun '" + help + " --help' for more information.");
  return 2;
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

  std::vector<std::pair<CLI::App*, const CliCommand*>> own;
  for (const CliCommand& command : options.commands) {
    for (const char* name : kBuiltIn) {
      if (command.name == name) {
        throw std::invalid_argument("cli_main: '" + command.name + "' is a built-in command");
      }
    }
    CLI::App* sub = app.add_subcommand(command.name, command.description);
    // Every argument after its name is the command's own, --help included.
    sub->prefix_command();
    sub->fallthrough(false);
    sub->set_help_flag();
    own.emplace_back(sub, &command);
  }
  // A built-in command, with --storage and the variable in its --help.
  const auto command = [&](const std::string& name, const std::string& description) {
    CLI::App* sub = app.add_subcommand(name, description);
    storage_options.push_back(add_storage_option(*sub, storage, options));
    sub->footer(app.get_footer());
    return sub;
  };

  cli::StartOptions start;
  auto* start_cmd = command("start", "Start one run of a registered reactor");
  start_cmd->add_option("reactor", start.reactor, "Registered reactor name")->required();
  auto* input = start_cmd->add_option(
      "--input", start.input,
      "Inputs: a JSON object, @PATH (a file holding one) or - (read from stdin); default {}");
  start_cmd->add_option("--input-file", start.input_file, "Inputs: a file holding a JSON object")
      ->excludes(input);
  start_cmd->add_flag("--background", start.background,
                      "Persist the run with its job and print its id at once");
  start_cmd->add_flag("--json", start.json,
                      "Print the run result as JSON (with --background: {\"id\", \"status\"})");
  start_cmd->add_option("--id", start.run_id,
                        "The run's id, e.g. a business key: starting it again with the same "
                        "inputs gives the stored run, with others a run_id_conflict");
  start_cmd
      ->add_option("--async-wait-timeout", start.async_wait_timeout_s,
                   "Seconds a step reading an async unit waits for it here before it fails "
                   "(async_wait_timeout; default 30; 0: hand the run to the workers instead)")
      ->check(CLI::Range(0.0, 31536000.0));  // up to a year: a Duration holds it
  start_cmd->add_flag("--wait", start.wait,
                      "Wait here for the run's async units even when no worker serves their "
                      "queue now (by default the run then goes on in a worker at once)");

  cli::WorkerLoopOptions worker;
  bool create = false;
  auto* worker_cmd = command("worker", "Serve the reactors' background runs until SIGTERM/SIGINT");
  cli::add_worker_options(*worker_cmd, worker);
  worker_cmd->footer(
      "Recovery: the runs of a worker that dies are taken over within about --lease-ttl + "
      "--sweep-interval. A shorter lease recovers sooner, at the cost of more heartbeats to the "
      "store.\n\n" +
      app.get_footer());
  worker_cmd->add_flag("--create", create,
                       "Make the store if it does not exist, even the default one (a store "
                       "named by --storage or " +
                           std::string(cli::kStorageVariable) + " is made anyway)");

  cli::RunsOptions runs;
  auto* runs_cmd = command("runs", "List stored runs, newest first");
  runs_cmd->add_option("--status", runs.status, "Only runs with this status");
  runs_cmd->add_option("--reactor", runs.reactor, "Only runs of this reactor");
  runs_cmd->add_option("--limit", runs.limit, "At most this many")->capture_default_str();
  runs_cmd->add_flag("--json", runs.json, "One JSON object per line");
  runs_cmd->add_flag("--all", runs.all,
                     "Element runs of fan-out maps too (runs of their own, '<run>:<map>[i]')");

  std::string run_id;
  bool show_json = false;
  auto* show_cmd =
      command("show", "Show one stored run: status, steps, fan-out maps' progress, trace, error");
  show_cmd->add_option("run_id", run_id, "Run id (a map's element run too: '<run>:<map>[i]')")
      ->required();
  show_cmd->add_flag("--json", show_json, "Print the run result as JSON");

  auto* sweep_cmd = command("sweep", "Re-enqueue runs nobody executes; purge expired ones");

  std::string enqueue_id;
  bool force = false;
  auto* enqueue_cmd =
      command("enqueue", "Enqueue a resume job for a stored run (an operator's nudge)");
  enqueue_cmd->add_option("run_id", enqueue_id, "Root run id")->required();
  enqueue_cmd->add_flag("--force", force,
                        "Enqueue it even for a run that has ended, or one of a reactor not "
                        "registered here");

  bool reactors_json = false;
  auto* reactors_cmd =
      app.add_subcommand("reactors", "List the registered reactors: their inputs, steps and queue");
  reactors_cmd->add_flag("--json", reactors_json, "One JSON object per line");

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return usage_error(app, e, program);
  }
  if (app.get_subcommands().empty()) {
    print_error(program, "a command is required (commands: " + command_names(app) + ")\nRun '" +
                             program + " --help' for more information.");
    return 2;
  }

  bool storage_given = false;
  for (const CLI::Option* option : storage_options) storage_given |= option->count() > 0;
  for (const auto& [sub, own_command] : own) {
    if (!*sub) continue;
    const std::vector<std::string> args =
        without_top_level_options(sub->remaining(), storage, storage_given);
    if (!storage_given) storage = cli::storage_from_environment(options.default_storage).first;
    return own_command->run(storage, args);
  }
  cli::Context ctx{engine, options, program, storage};
  if (!storage_given) {
    std::tie(ctx.storage, ctx.storage_source) =
        cli::storage_from_environment(options.default_storage);
  }
  if (*start_cmd) return cli::run_start(ctx, start);
  if (*worker_cmd) return cli::run_worker(ctx, worker, create);
  if (*runs_cmd) return cli::run_runs(ctx, runs);
  if (*show_cmd) return cli::run_show(ctx, run_id, show_json);
  if (*sweep_cmd) return cli::run_sweep(ctx);
  if (*enqueue_cmd) return cli::run_enqueue(ctx, enqueue_id, force);
  if (*reactors_cmd) return cli::run_reactors(ctx, reactors_json);
  return 2;
}

}  // namespace reactor
