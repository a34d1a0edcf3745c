// The reactors of the stored-record corpus (tests/data/README.md), shared by the program that
// writes the corpus (tests/data/generate/corpus_gen.cpp, compiled against the build of each
// storage version) and the test that reads it (tests/conformance/test_stored_corpus.cpp, against
// the current build).
//
// Stored runs name their reactor and carry its fingerprint, and a run is resumed only by a
// definition with the same fingerprint: so these graphs must never change once a corpus was
// written with them (a new shape of run means a new reactor here). Only the public API is used,
// as it was at af05d79^ (the oldest build that writes a corpus) and as it is now.
#pragma once

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <reactor/reactor.hpp>
#include <string>

namespace corpus {

// The backoff of CorpusRetry's call_partner: so long that the run written into the corpus is
// still waiting for its retry whenever the corpus is read (the test moves time past it).
inline constexpr std::chrono::hours kRetryBackoff{24 * 3650};

// Set only in the generator's child process that writes the interrupted run: CorpusCrash's
// second step then ends the process (_exit) inside its body.
inline std::atomic<bool>& crash_inside_second_step() {
  static std::atomic<bool> flag{false};
  return flag;
}
inline constexpr int kCrashExitCode = 42;

// CorpusOrder: reserve -> charge -> ship (returns ship). With fail_ship, ship fails for good: it
// is compensated, charge is undone, and reserve's undo fails (it always does), so the run's
// error lists one rollback failure.
inline reactor::Definition order() {
  using namespace reactor;
  return Builder("CorpusOrder")
      .input("order_id", integer().min(1))
      .input("customer", object())
      .input("note", string().max_length(200))
      .input("remark", string().default_value(""))
      .input("amount", integer().min(1))
      .input("card", string().pattern("[0-9]{4}-[0-9]{4}").redacted())
      .input("fail_ship", boolean().default_value(false))
      .step("reserve",
            [](const Args& a) {
              return Success({{"reservation", "R-" + a["order_id"].dump()}, {"city", a["city"]}});
            })
      .argument("order_id", input("order_id"))
      .argument("city", input("customer", "address.city"))
      .undo([](const Value&, const Args&, StepContext&) {
        return Failure("warehouse offline: reservation kept", false);
      })
      .step("charge",
            [](const Args& a) {
              return Success({{"charged", a["amount"]}, {"currency", "EUR"}, {"rate", 0.1}});
            })
      .argument("amount", input("amount"))
      .argument("card", input("card"))
      .wait_for("reserve")
      .compensate([](const std::string&, const Args&, StepContext&) { return Success(); })
      .undo([](const Value&, const Args&, StepContext&) { return Success(); })
      .step("ship",
            [](const Args& a) {
              if (a.get<bool>("fail_ship")) {
                return Failure("carrier refused the parcel",
                               {{"code", 503}, {"carrier", "ÜberFracht"}}, false);
              }
              return Success({{"tracking", "TRK-" + a["reservation"].get<std::string>()},
                              {"note", a["note"]},
                              {"remark", a["remark"]}});
            })
      .argument("reservation", result("reserve", "reservation"))
      .argument("charged", result("charge", "charged"))
      .argument("note", input("note"))
      .argument("remark", input("remark"))
      .argument("fail_ship", input("fail_ship"))
      .compensate([](const std::string&, const Args&, StepContext&) { return Success(); })
      .returns("ship")
      .build();
}

// CorpusReview: screen -> review (Halt with a reason object) -> settle (never runs).
inline reactor::Definition review() {
  using namespace reactor;
  return Builder("CorpusReview")
      .input("applicant", string())
      .step("screen",
            [](const Args&) {
              return Success({{"score", 87}});
            })
      .argument("applicant", input("applicant"))
      .step("review",
            [](const Args& a) {
              return Halt({{"reason", "manual review"},
                           {"score", a["score"]},
                           {"flags", {"velocity", "geo"}}});
            })
      .argument("score", result("screen", "score"))
      .step("settle", [](const Args&) { return Success("settled"); })
      .wait_for("review")
      .build();
}

// CorpusShipping, composed as CorpusShipment's step "ship": pack -> label (fails for good with
// fail_label; then label is compensated and pack undone inside the child).
inline reactor::Definition shipping() {
  using namespace reactor;
  return Builder("CorpusShipping")
      .input("order_id", integer())
      .input("fail_label", boolean())
      .step("pack",
            [](const Args& a) {
              return Success({{"parcel", "P-" + a["order_id"].dump()}});
            })
      .argument("order_id", input("order_id"))
      .undo([](const Value&, const Args&, StepContext&) { return Success(); })
      .step("label",
            [](const Args& a) {
              if (a.get<bool>("fail_label")) return Failure("label printer jammed", false);
              return Success({{"tracking", "TRK-" + a["parcel"].get<std::string>()}});
            })
      .argument("parcel", result("pack", "parcel"))
      .argument("fail_label", input("fail_label"))
      .compensate([](const std::string&, const Args&, StepContext&) { return Success(); })
      .returns("label")
      .build();
}

// CorpusShipment: prepare -> ship (CorpusShipping composed) -> notify.
inline reactor::Definition shipment(const reactor::Definition& child) {
  using namespace reactor;
  return Builder("CorpusShipment")
      .input("order_id", integer())
      .input("fail_label", boolean().default_value(false))
      .step("prepare",
            [](const Args&) {
              return Success({{"prepared", true}});
            })
      .undo([](const Value&, const Args&, StepContext&) { return Success(); })
      .compose("ship", child)
      .argument("order_id", input("order_id"))
      .argument("fail_label", input("fail_label"))
      .wait_for("prepare")
      .step("notify",
            [](const Args& a) {
              return Success({{"sent", true}, {"tracking", a["tracking"]}});
            })
      .argument("tracking", result("ship", "tracking"))
      .build();
}

// CorpusLine, one element of CorpusBatch's map "items": charge (fails for good on fail_item).
inline reactor::Definition line() {
  using namespace reactor;
  return Builder("CorpusLine")
      .input("item", integer())
      .input("fail_item", integer())
      .step("charge",
            [](const Args& a) {
              const int item = a.get<int>("item");
              if (item == a.get<int>("fail_item")) {
                return Failure("item " + std::to_string(item) + " out of stock", false);
              }
              return Success(item * 10);
            })
      .argument("item", input("item"))
      .argument("fail_item", input("fail_item"))
      .compensate([](const std::string&, const Args&, StepContext&) { return Success(); })
      .undo([](const Value&, const Args&, StepContext&) { return Success(); })
      .returns("charge")
      .build();
}

// CorpusBatch: open -> items (atomic map of CorpusLine over the input "lines") -> close.
inline reactor::Definition batch(const reactor::Definition& element_reactor) {
  using namespace reactor;
  return Builder("CorpusBatch")
      .input("lines", array())
      .input("fail_item", integer().default_value(-1))
      .step("open", [](const Args&) { return Success("opened"); })
      .undo([](const Value&, const Args&, StepContext&) { return Success(); })
      .map("items", element_reactor)
      .source(input("lines"))
      .argument("item", element("items"))
      .argument("fail_item", input("fail_item"))
      .wait_for("open")
      .atomic(true)
      .step("close", [](const Args&) { return Success("closed"); })
      .wait_for("items")
      .returns("items")
      .build();
}

// CorpusGift: check -> wrap (Skipped when not a gift) -> confirm.
inline reactor::Definition gift() {
  using namespace reactor;
  return Builder("CorpusGift")
      .input("gift", boolean())
      .step("check", [](const Args&) { return Success("checked"); })
      .step("wrap",
            [](const Args& a) {
              if (!a.get<bool>("gift")) return Skipped({{"reason", "not a gift"}});
              return Success("wrapped");
            })
      .argument("gift", input("gift"))
      .wait_for("check")
      .step("confirm",
            [](const Args& a) {
              return Success({{"wrap", a["wrap"]}});
            })
      .argument("wrap", result("wrap"))
      .build();
}

// CorpusRetry: prepare -> call_partner, whose first attempt fails (retryable) and whose second,
// kRetryBackoff later, succeeds.
inline reactor::Definition retry() {
  using namespace reactor;
  return Builder("CorpusRetry")
      .input("partner", string())
      .step("prepare", [](const Args&) { return Success("prepared"); })
      .step("call_partner",
            [](const Args& a, StepContext& ctx) {
              if (ctx.attempt() == 1) {
                return Failure("partner unavailable", {{"retry_after_s", 3600}});
              }
              return Success({{"confirmed", a["partner"]}, {"attempt", ctx.attempt()}});
            })
      .argument("partner", input("partner"))
      .wait_for("prepare")
      .retries(fixed_backoff(3, kRetryBackoff))
      .returns("call_partner")
      .build();
}

// CorpusCrash: first -> second -> third; second ends the process inside its body when
// crash_inside_second_step() is set.
inline reactor::Definition crash() {
  using namespace reactor;
  return Builder("CorpusCrash")
      .input("batch", string())
      .step("first", [](const Args&) { return Success(1); })
      .step("second",
            [](const Args&) {
              if (crash_inside_second_step().load()) ::_exit(kCrashExitCode);
              return Success(2);
            })
      .wait_for("first")
      .step("third", [](const Args&) { return Success(3); })
      .wait_for("second")
      .build();
}

inline void register_all(reactor::Registry& registry) {
  const reactor::Definition shipping_def = shipping();
  const reactor::Definition line_def = line();
  registry.add(order());
  registry.add(review());
  registry.add(shipping_def);
  registry.add(shipment(shipping_def));
  registry.add(line_def);
  registry.add(batch(line_def));
  registry.add(gift());
  registry.add(retry());
  registry.add(crash());
}

}  // namespace corpus
