// crash-loop-cli: a user's program on cli_main for the process tests of its own reactors.
// - Tally (the crash_loop test, issue 30): its own code kills its worker outside any step body,
//   in a fan-out map's collect(), which the owner runs when its map has settled. Its elements
//   each return their index, or "crash" when the run asks for it; collect() then dies of
//   SIGSEGV, as a user's bug there would, in every worker that delivers the owner's resume.
// - Echo: one step, to show that other runs go on.
// - Receipt (the cli_async_wait test, issue 23): reserve, then an async_step bill that close
//   reads; each appends "S|U <idempotency key> <pid>" to the examples' ledger ($REACTOR_LEDGER).
// - Trip (the same test): Receipt with a fan_out(2) map of two ticket emails beside the bill,
//   which close reads too; each email appends S and U lines as reserve does.
#include <csignal>
#include <cstdlib>
#include <reactor/cli.hpp>
#include <reactor/reactor.hpp>
#include <string>

#include "order_saga/order_saga.hpp"

using namespace reactor;

namespace {

// One line of evidence per side effect, in the examples' ledger ($REACTOR_LEDGER).
void ledger(char kind, const StepContext& ctx) {
  static const char* path = std::getenv("REACTOR_LEDGER");
  static const examples::Ledger kLedger(path != nullptr ? path : "");
  kLedger.append(kind, ctx.idempotency_key());
}

// Step reserve (undone by an undo), then an async_step bill after it.
Builder reserve_then_bill(const std::string& name) {
  Builder b(name);
  b.step("reserve",
         [](const Args&, StepContext& ctx) {
           ledger('S', ctx);
           return Success("reserved");
         })
      .undo([](const Value&, const Args&, StepContext& ctx) {
        ledger('U', ctx);
        return Success();
      })
      .async_step("bill",
                  [](const Args&, StepContext& ctx) {
                    ledger('S', ctx);
                    return Success(Value{{"invoice", 7}});
                  })
      .wait_for("reserve");
  return b;
}

Definition receipt() {
  return reserve_then_bill("Receipt")
      .step("close", [](const Args& a) { return Success(a["bill"]); })
      .argument("bill", result("bill"))
      .returns("close")
      .build();
}

Definition ticket_email() {
  return Builder("Trip.email")
      .input("ticket", integer())
      .step("email",
            [](const Args& a, StepContext& ctx) {
              ledger('S', ctx);
              return Success(a["ticket"]);
            })
      .argument("ticket", input("ticket"))
      .undo([](const Value&, const Args&, StepContext& ctx) {
        ledger('U', ctx);
        return Success();
      })
      .returns("email")
      .build();
}

Definition trip() {
  return reserve_then_bill("Trip")
      .map("tickets", ticket_email())
      .source_pages([](const Args&, std::size_t offset, std::size_t limit) {
        Value page = Value::array();
        for (std::size_t i = offset; i < 2 && i < offset + limit; ++i) page.push_back(i);
        return page;
      })
      .argument("ticket", element("tickets"))
      .fan_out(2)
      .wait_for("reserve")
      .step("close", [](const Args& a) { return Success(a["bill"]); })
      .argument("bill", result("bill"))
      .argument("tickets", result("tickets"))
      .returns("close")
      .build();
}

Definition tally_element() {
  return Builder("Tally.element")
      .input("i", integer().min(0))
      .input("crash", boolean())
      .step("count",
            [](const Args& a) -> StepResult {
              if (a.get<bool>("crash")) return Success("crash");
              return Success(a.get<std::int64_t>("i"));
            })
      .argument("i", input("i"))
      .argument("crash", input("crash"))
      .returns("count")
      .build();
}

Definition tally() {
  return Builder("Tally")
      .input("n", integer().min(1).max(100))
      .input("crash_in_collect", boolean().default_value(false))
      .map("tally", tally_element())
      .source_pages([](const Args& a, std::size_t offset, std::size_t limit) {
        const auto n = static_cast<std::size_t>(a.get<std::int64_t>("n"));
        Value page = Value::array();
        for (std::size_t i = offset; i < n && i < offset + limit; ++i) page.push_back(i);
        return page;
      })
      .argument("n", input("n"))
      .argument("i", element("tally"))
      .argument("crash", input("crash_in_collect"))
      .fan_out(2)
      .collect([](const MapResults& results) {
        std::int64_t sum = 0;
        for (const ElementOutcome& e : results) {
          if (e.value == "crash") std::raise(SIGSEGV);  // the user's bug, outside any step body
          sum += e.value.get<std::int64_t>();
        }
        return Value{{"sum", sum}};
      })
      .returns("tally")
      .build();
}

Definition echo() {
  return Builder("Echo")
      .input("text", string())
      .step("echo", [](const Args& a) { return Success(a["text"]); })
      .argument("text", input("text"))
      .returns("echo")
      .build();
}

}  // namespace

int main(int argc, char** argv) {
  Engine engine;
  engine.registry().add(tally());
  engine.registry().add(echo());
  engine.registry().add(receipt());
  engine.registry().add(trip());
  CliOptions options;
  options.description = "a collect() that crashes its worker (the crash_loop test)";
  return cli_main(engine, argc, argv, options);
}
