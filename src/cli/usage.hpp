// What cli_main says about a command line it cannot take — an unknown command or option, with
// the nearest it knows — and the top-level options a user's own command is given with its
// arguments.
#pragma once

#include <string>
#include <vector>

namespace CLI {
class App;
class ParseError;
}  // namespace CLI

namespace reactor::cli {

// "start, worker, runs, …": the commands `app` knows, in the order it lists them.
std::string command_names(CLI::App& app);

// `args` without the top-level options among them (--storage URL, --storage=URL), which set
// `storage` and `given`.
std::vector<std::string> without_top_level_options(std::vector<std::string> args,
                                                   std::string& storage, bool& given);

// A mistake on the command line: CLI11's message (arguments it echoes masked) and what was
// probably meant ("did you mean …"), exit 2. Help: printed on stdout, exit 0.
int usage_error(CLI::App& app, const CLI::ParseError& e, const std::string& program);

}  // namespace reactor::cli
