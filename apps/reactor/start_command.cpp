#include <iostream>

#include "commands.hpp"
#include "order_saga/order_saga.hpp"

namespace reactor_cli {

using namespace reactor;

int run_start(const StartOptions& options) {
  Value inputs;
  try {
    inputs = Value::parse(options.input_json);
  } catch (const std::exception& e) {
    std::cerr << "reactor start: --input is not valid JSON: " << e.what() << "\n";
    return 2;
  }
  examples::OrderServices services;
  Engine engine;
  examples::register_examples(engine.registry(), services);

  RunResult r = engine.run(options.reactor, std::move(inputs));
  if (options.json) {
    std::cout << to_json(r).dump(2) << "\n";
  } else {
    std::cout << "run " << (r.run_id.empty() ? "-" : r.run_id) << ": " << to_string(r.status)
              << "\n";
    if (r.ok()) std::cout << "value: " << r.value.dump() << "\n";
    if (!r.trace.empty()) std::cout << "trace: " << r.trace_summary() << "\n";
  }
  if (r.error) {
    std::cerr << "reactor start: " << to_string(r.error->kind) << ": " << r.error->message << "\n";
  }
  // Unknown names and invalid inputs are the caller's mistake (2); a saga
  // that ran and failed is an outcome (1).
  if (r.ok() || r.status == RunStatus::kHalted) return 0;
  if (r.error && (r.error->kind == ErrorKind::kUnknownReactor ||
                  r.error->kind == ErrorKind::kInputInvalid)) {
    return 2;
  }
  return 1;
}

}  // namespace reactor_cli
