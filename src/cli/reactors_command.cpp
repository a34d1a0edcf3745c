// `reactors`: the registered reactors — their inputs (name, type, required, default), steps and
// queue —, as text or one JSON object per line. It opens no store.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <iostream>

#include "cli/command.hpp"
#include "cli/text.hpp"
#include "web/shared_json.hpp"

namespace reactor::cli {

namespace {

// "integer, required", "string, default \"EUR\"", "any, optional, redacted".
std::string describe_input(const InputSpec& input) {
  const Schema& schema = input.schema;
  std::string out = to_string(schema.type());
  if (schema.default_val()) {
    out += ", default " +
           (schema.is_redacted() ? std::string("[REDACTED]") : schema.default_val()->dump());
  } else {
    out += schema.is_optional() ? ", optional" : ", required";
  }
  if (schema.is_redacted()) out += ", redacted";
  return out;
}

Value input_json(const InputSpec& input) {
  const Schema& schema = input.schema;
  Value j{{"name", input.name},
          {"type", to_string(schema.type())},
          {"required", !schema.is_optional()},
          {"redacted", schema.is_redacted()}};
  if (schema.default_val()) {
    j["default"] = schema.is_redacted() ? Value("[REDACTED]") : *schema.default_val();
  }
  return j;
}

// "reserve, charge, ship"; a step that is not a plain one says what it is: "sum (map)".
std::string describe_steps(const Definition& def) {
  std::string out;
  for (const StepSpec& step : def.steps()) {
    out += (out.empty() ? "" : ", ") + step.name;
    if (step.kind != StepKind::kStep)
      out += std::string(" (") + web::step_kind_name(step.kind) + ")";
  }
  return out.empty() ? "none" : out;
}

int run_reactors(const Context& ctx, bool json) {
  const Registry& registry = ctx.definitions.registry();
  const auto& queue_for = ctx.options.engine.durability.queue_for;
  const std::vector<std::string> names = registry.names();
  if (names.empty() && !json) std::printf("no reactors registered\n");
  for (const std::string& name : names) {
    std::optional<Definition> def = registry.find(name);
    if (!def) continue;
    const std::string queue = queue_for ? queue_for(name) : name;
    if (json) {
      Value inputs = Value::array(), steps = Value::array();
      for (const InputSpec& input : def->inputs()) inputs.push_back(input_json(input));
      for (const StepSpec& step : def->steps()) {
        steps.push_back(Value{{"name", step.name}, {"kind", web::step_kind_name(step.kind)}});
      }
      std::cout
          << Value{{"name", name}, {"queue", queue}, {"inputs", inputs}, {"steps", steps}}.dump()
          << "\n";
      continue;
    }
    std::printf("%s\n  queue   %s\n", name.c_str(), queue.c_str());
    if (def->inputs().empty()) std::printf("  inputs  none\n");
    for (std::size_t i = 0; i < def->inputs().size(); ++i) {
      const InputSpec& input = def->inputs()[i];
      std::printf("  %-7s %s (%s)\n", i == 0 ? "inputs" : "", input.name.c_str(),
                  describe_input(input).c_str());
    }
    std::printf("  steps   %s\n", describe_steps(*def).c_str());
  }
  return 0;
}

class ReactorsCommand final : public Command {
 public:
  const char* name() const override { return "reactors"; }
  const char* description() const override {
    return "List the registered reactors: their inputs, steps and queue";
  }
  bool uses_store() const override { return false; }
  void declare(CLI::App& sub) override {
    sub.add_flag("--json", json_, "One JSON object per line");
  }
  int run(const Context& ctx) override { return run_reactors(ctx, json_); }

 private:
  bool json_ = false;
};

}  // namespace

std::unique_ptr<Command> reactors_command() { return std::make_unique<ReactorsCommand>(); }

}  // namespace reactor::cli
