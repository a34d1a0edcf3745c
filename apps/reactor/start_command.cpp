#include <iostream>

#include "cli_engine.hpp"
#include "commands.hpp"

namespace reactor_cli {

using namespace reactor;

namespace {

void print_result(const RunResult& r, bool json) {
  if (json) {
    std::cout << to_json(r).dump(2) << "\n";
    return;
  }
  std::cout << "run " << (r.run_id.empty() ? "-" : r.run_id) << ": " << to_string(r.status)
            << "\n";
  if (r.ok()) std::cout << "value: " << r.value.dump() << "\n";
  if (!r.trace.empty()) std::cout << "trace: " << r.trace_summary() << "\n";
}

// Unknown names and invalid inputs are the caller's mistake (2); a saga that
// ran and failed is an outcome (1).
int exit_code(const RunResult& r) {
  if (r.ok() || r.status == RunStatus::kHalted) return 0;
  if (r.error && (r.error->kind == ErrorKind::kUnknownReactor ||
                  r.error->kind == ErrorKind::kInputInvalid)) {
    return 2;
  }
  return 1;
}

}  // namespace

int run_start(const StartOptions& options) {
  Value inputs;
  try {
    inputs = Value::parse(options.input_json);
  } catch (const std::exception& e) {
    std::cerr << "reactor start: --input is not valid JSON: " << e.what() << "\n";
    return 2;
  }
  CliEngine cli;
  if (!cli.open(options.storage, {})) return 2;

  if (options.background) {
    std::string id;
    Status s = cli.engine().run_in_background(options.reactor, std::move(inputs), id);
    if (!s.ok()) {
      std::cerr << "reactor start: " << s.to_string() << "\n";
      return s.code() == StatusCode::kUnavailable ? 1 : 2;
    }
    std::cout << id << "\n";
    return 0;
  }
  RunResult r = cli.engine().run(options.reactor, std::move(inputs));
  print_result(r, options.json);
  if (r.error) {
    std::cerr << "reactor start: " << to_string(r.error->kind) << ": " << r.error->message << "\n";
  }
  return exit_code(r);
}

}  // namespace reactor_cli
