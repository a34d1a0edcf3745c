// The `reactor` command-line tool: one function per subcommand.
#pragma once

#include <string>

namespace reactor_cli {

struct DemoOptions {
  int orders = 20;
  bool log_events = false;
};

// Runs a batch of order sagas and prints a summary. Returns the exit code:
// 0 when every order ended as the example says it must.
int run_demo(const DemoOptions& options);

struct StartOptions {
  std::string reactor;
  std::string input_json = "{}";
  bool json = false;
};

// Runs one registered example reactor in this process and prints its result.
int run_start(const StartOptions& options);

}  // namespace reactor_cli
