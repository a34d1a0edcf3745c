// tracing-cli: the reactors of tests/tracing/tracing.sh on the library's cli_main. TracedTrip
// has every kind of job a trace must cross: `reserve` fails its first attempt (a retry, a job
// due later), the fan-out map `legs` (each element a run of its own, TracedLeg), the async unit
// `notify` (a run of its own), then `close`, which reads them.
#include <reactor/cli.hpp>
#include <reactor/reactor.hpp>

using namespace reactor;
using namespace std::chrono_literals;

namespace {

Definition traced_leg() {
  return Builder("TracedLeg")
      .input("x", integer())
      .step("book", [](const Args& a) { return Success(10 * a.get<std::int64_t>("x")); })
      .argument("x", input("x"))
      .returns("book")
      .build();
}

Definition traced_trip() {
  Builder b("TracedTrip");
  b.input("items", array());
  b.step("reserve", [](const Args&, StepContext& ctx) -> StepResult {
     if (ctx.attempt() == 1) return Failure("reservation service busy");
     return Success("reserved");
   }).retries(fixed_backoff(3, 200ms));
  b.map("legs", traced_leg())
      .source(input("items"))
      .argument("x", element("legs"))
      .wait_for("reserve");
  b.fan_out(2);
  b.async_step("notify", [](const Args&) { return Success("notified"); }).wait_for("reserve");
  b.step("close",
         [](const Args& a) {
           return Success({{"legs", a["legs"]}, {"notify", a["notify"]}});
         })
      .argument("legs", result("legs"))
      .argument("notify", result("notify"));
  return b.returns("close").build();
}

}  // namespace

int main(int argc, char** argv) {
  Engine engine;
  engine.registry().add(traced_trip());
  CliOptions options;
  options.description = "the reactors of the tracing process test";
  return cli_main(engine, argc, argv, options);
}
