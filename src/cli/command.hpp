// Command: one built-in command of cli_main (reactor/cli.hpp) — its name, the arguments and
// options it declares on its CLI11 subcommand, and what it does once the line is parsed. One
// file per command (<name>_command.cpp) holds its options and its work; cli_main.cpp only
// declares them all and runs the one chosen.
#pragma once

#include <memory>
#include <vector>

#include "cli/context.hpp"

namespace CLI {
class App;
}

namespace reactor::cli {

class Command {
 public:
  virtual ~Command() = default;
  virtual const char* name() const = 0;
  virtual const char* description() const = 0;
  // Whether it opens a store: then cli_main declares --storage on it (its --help lists it and
  // the environment variable).
  virtual bool uses_store() const { return true; }
  // Declares its arguments and options on `sub`, the values landing in the command's members.
  virtual void declare(CLI::App& sub) = 0;
  // Does the work, once parsed: the process's exit code.
  virtual int run(const Context& ctx) = 0;
};

std::unique_ptr<Command> start_command();
std::unique_ptr<Command> worker_command();
std::unique_ptr<Command> runs_command();
std::unique_ptr<Command> show_command();
std::unique_ptr<Command> sweep_command();
std::unique_ptr<Command> enqueue_command();
std::unique_ptr<Command> reactors_command();
std::unique_ptr<Command> resume_command();
std::unique_ptr<Command> schedules_command();
std::unique_ptr<Command> cancel_command();
std::unique_ptr<Command> undo_command();
std::unique_ptr<Command> retry_command();
std::unique_ptr<Command> locks_command();
std::unique_ptr<Command> ordered_lock_command();
std::unique_ptr<Command> dashboard_command();

// Every built-in command, in the order --help lists them.
std::vector<std::unique_ptr<Command>> built_in_commands();

}  // namespace reactor::cli
