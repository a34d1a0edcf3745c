// dashboard_fixture: a user's program built on cli_main, with reactors of its own, for the
// dashboard's browser test. `dashboard_fixture seed --storage URL` fills the store with runs in
// every state the dashboard draws: completed (Charge, a redacted card), failed with a rollback
// failure (Trip), waiting on a fan-out map no worker serves (Batch), paused at an interrupt
// (Approval), and last running (Crash: the process exits inside its step, leaving the run
// running). Every other command is cli_main's (`dashboard`, `show`, ...), for the same reactors.
#include <cstdio>
#include <cstdlib>

#include "reactor/reactor.hpp"

namespace {

using namespace reactor;

Definition charge() {
  return Builder("Charge")
      .input("card", string().redacted())
      .input("amount", integer())
      .step("authorize", [](const Args& a) { return Success(a.get<int>("amount")); })
      .argument("amount", input("amount"))
      .step("capture", [](const Args& a) { return Success(a.get<int>("authorized")); })
      .argument("authorized", result("authorize"))
      .build();
}

Definition trip() {
  return Builder("Trip")
      .input("city", string())
      .step("hotel", [](const Args& a) { return Success("room in " + a.get<std::string>("city")); })
      .argument("city", input("city"))
      .undo([](const Value&, const Args&, StepContext&) -> StepResult {
        return Failure("hotel cancellation desk closed", /*retryable=*/false);
      })
      .step("flight", [](const Args&) -> StepResult { return Failure("no seats", false); })
      .wait_for("hotel")
      .build();
}

Definition square() {
  return Builder("Batch.element")
      .input("x", integer())
      .step("square", [](const Args& a) { return Success(a.get<int>("x") * a.get<int>("x")); })
      .argument("x", input("x"))
      .build();
}

Definition batch() {
  return Builder("Batch")
      .input("items", array())
      .map("squares", square())
      .source(input("items"))
      .argument("x", element("squares"))
      .fan_out(2)
      .build();
}

Definition approval() {
  return Builder("Approval")
      .input("order_id", integer())
      .step("check", [](const Args& a) { return Success(a.get<int>("order_id")); })
      .argument("order_id", input("order_id"))
      .interrupt("approve")
      .wait_for("check")
      .payload("approved", boolean())
      .step("refund", [](const Args& a) { return Success(a.get<Value>("decision")); })
      .argument("decision", result("approve"))
      .build();
}

Definition crash() {
  return Builder("Crash")
      .input("n", integer())
      .step("prepare", [](const Args& a) { return Success(a.get<int>("n")); })
      .argument("n", input("n"))
      .step("hang",
            [](const Args&) -> StepResult {
              std::fflush(nullptr);
              std::_Exit(0);  // the run stays `running`, as with a worker killed mid-step
            })
      .wait_for("prepare")
      .build();
}

void register_all(Engine& engine) {
  for (const Definition& d : {charge(), trip(), batch(), approval(), crash()}) {
    engine.registry().add(d);
  }
}

int seed(const std::string& storage) {
  Result<std::unique_ptr<Backend>> backend = open_backend(storage, nullptr);
  if (!backend.ok()) {
    std::fprintf(stderr, "seed: %s\n", backend.status().to_string().c_str());
    return 2;
  }
  EngineOptions options;
  options.backend = std::move(backend).value();
  Engine engine(std::move(options));
  register_all(engine);
  for (int i = 1; i <= 3; ++i) {
    engine.run("Charge", {{"card", "4111-1111-1111-1111"}, {"amount", 10 * i}});
  }
  std::printf("failed %s\n", engine.run("Trip", {{"city", "Lisbon"}}).run_id.c_str());
  std::printf("waiting %s\n", engine.run("Batch", {{"items", {1, 2, 3, 4, 5}}}).run_id.c_str());
  std::printf("paused %s\n", engine.run("Approval", {{"order_id", 7}}).run_id.c_str());
  std::fflush(stdout);
  engine.run("Crash", {{"n", 1}});  // never returns: the process ends inside its step
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  Engine engine;
  register_all(engine);
  CliOptions options;
  options.program = "dashboard_fixture";
  options.commands.push_back(CliCommand{
      "seed", "Fill the store with runs in every state",
      [](const std::string& storage, const std::vector<std::string>&) { return seed(storage); }});
  return cli_main(engine, argc, argv, options);
}
