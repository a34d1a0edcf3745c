// What cli_main says about a command line it cannot take, and the top-level options a user's
// own command is given along with its arguments.
#include "cli/usage.hpp"

#include <CLI/CLI.hpp>

#include "base/suggest.hpp"
#include "cli/text.hpp"

namespace reactor::cli {

namespace {

std::vector<std::string> command_list(CLI::App& app) {
  std::vector<std::string> out;
  for (const CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; })) {
    out.push_back(sub->get_name());
  }
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

}  // namespace

std::string command_names(CLI::App& app) {
  std::string out;
  for (const std::string& name : command_list(app)) out += (out.empty() ? "" : ", ") + name;
  return out;
}

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

}  // namespace reactor::cli
