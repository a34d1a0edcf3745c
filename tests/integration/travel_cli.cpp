// travel-cli: a program with a reactor of its own, TravelBooking, that gets every
// command of `reactor` for it from reactor::cli_main — a user's main, as
// tests/integration/cli_own_reactors.sh and cli_large_input.sh drive it. It
// knows nothing of the examples: `start OrderSaga` is an unknown reactor here.
#include <reactor/cli.hpp>
#include <reactor/reactor.hpp>
#include <string>

using namespace reactor;

namespace {

// Books a flight and a hotel, then confirms the trip; the confirmation names the booking and
// counts the notes' bytes (a test compares them with the stored inputs).
Definition travel_booking() {
  return Builder("TravelBooking")
      .input("trip_id", integer().min(1))
      .input("traveller", string().min_length(1))
      .input("notes", string().default_value(""))
      .step("flight",
            [](const Args& a) {
              return Success({{"flight", "FL-" + a["trip_id"].dump()}});
            })
      .argument("trip_id", input("trip_id"))
      .undo([](const Value&, const Args&, StepContext&) { return Success(); })
      .step("hotel",
            [](const Args& a) {
              return Success({{"hotel", "HT-" + a["trip_id"].dump()}});
            })
      .argument("trip_id", input("trip_id"))
      .undo([](const Value&, const Args&, StepContext&) { return Success(); })
      .step("confirm",
            [](const Args& a) {
              return Success({{"traveller", a["traveller"]},
                              {"flight", a["flight"]["flight"]},
                              {"hotel", a["hotel"]["hotel"]},
                              {"notes_bytes", a.get<std::string>("notes").size()}});
            })
      .argument("traveller", input("traveller"))
      .argument("notes", input("notes"))
      .argument("flight", result("flight"))
      .argument("hotel", result("hotel"))
      .returns("confirm")
      .build();
}

}  // namespace

int main(int argc, char** argv) {
  Engine engine;
  engine.registry().add(travel_booking());
  CliOptions options;
  options.description = "trips booked as sagas";
  return cli_main(engine, argc, argv, options);
}
