// Async units in an engine without a store (docs/async.md): the unit runs in place, as a run of
// its own, with the same rules as when it is dispatched — a failure nobody reads leaves the run
// to complete, a failure read is the reader's own, and the run never undoes a unit.
#include <mutex>

#include "unit/engine_test_support.hpp"

using namespace reactor;

namespace {

struct UnitLedger {
  std::mutex mu;
  std::vector<std::string> lines;
  void add(std::string s) {
    std::lock_guard lock(mu);
    lines.push_back(std::move(s));
  }
  int count(const std::string& s) {
    std::lock_guard lock(mu);
    return static_cast<int>(std::count(lines.begin(), lines.end(), s));
  }
};

// reserve → note (async_step; fails when input "fail") → side (waits for note, reads nothing);
// with `read`, close returns note's result.
Definition inline_order(UnitLedger& ledger, bool read) {
  Builder b("Order");
  b.input("fail", boolean().default_value(false))
      .step("reserve",
            [&ledger](const Args&) {
              ledger.add("reserve");
              return Success("reserved");
            })
      .undo([&ledger](const Value&, const Args&, StepContext&) {
        ledger.add("undo reserve");
        return Success();
      })
      .async_step("note",
                  [&ledger](const Args& a) -> StepResult {
                    if (a.get<bool>("fail")) return Failure("note fails", false);
                    ledger.add("note");
                    return Success(7);
                  })
      .argument("fail", input("fail"))
      .compensate([&ledger](const std::string&, const Args&, StepContext&) {
        ledger.add("compensate note");
        return Success();
      })
      .wait_for("reserve")
      .step("side", [](const Args&) { return Success("side"); })
      .wait_for("note");
  if (read) {
    b.step("close", [](const Args& a) { return Success(a["note"]); })
        .argument("note", result("note"))
        .returns("close");
  }
  return b.build();
}

TEST(AsyncInline, AUnitsValueReachesItsReader) {
  UnitLedger ledger;
  Engine engine;
  RunResult r = engine.run(inline_order(ledger, true), Value::object());
  ASSERT_EQ(r.status, RunStatus::kCompleted) << (r.error ? r.error->message : "");
  EXPECT_EQ(r.value, 7);
  EXPECT_EQ(r.step("note")->status, StepStatus::kCompleted);
}

TEST(AsyncInline, AnUnreadFailureCompensatesItselfAndTheRunCompletes) {
  UnitLedger ledger;
  Engine engine;
  RunResult r = engine.run(inline_order(ledger, false), {{"fail", true}});
  ASSERT_EQ(r.status, RunStatus::kCompleted) << (r.error ? r.error->message : "");
  EXPECT_EQ(r.step("note")->status, StepStatus::kUnitFailed);
  EXPECT_EQ(r.step("side")->status, StepStatus::kCompleted);
  EXPECT_EQ(ledger.count("compensate note"), 1);
  EXPECT_EQ(ledger.count("undo reserve"), 0);
}

TEST(AsyncInline, AFailureReadIsTheReadersAndRollsTheRunBackWithoutTheUnit) {
  UnitLedger ledger;
  Engine engine;
  RunResult r = engine.run(inline_order(ledger, true), {{"fail", true}});
  ASSERT_EQ(r.status, RunStatus::kFailed);
  ASSERT_TRUE(r.error.has_value());
  EXPECT_EQ(r.error->kind, ErrorKind::kAsyncUnitFailed);
  EXPECT_EQ(r.error->step, "close");
  EXPECT_EQ(ledger.count("compensate note"), 1);  // in the unit, never again by the run
  EXPECT_EQ(ledger.count("undo reserve"), 1);
}

TEST(AsyncInline, ACompletedUnitIsNeverUndoneByItsRun) {
  UnitLedger ledger;
  Engine engine;
  Definition d = Builder("Undoes")
                     .async_step("note",
                                 [&ledger](const Args&) {
                                   ledger.add("note");
                                   return Success(1);
                                 })
                     .step("boom", [](const Args&) { return Failure("boom", false); })
                     .argument("n", result("note"))
                     .build();
  RunResult r = engine.run(d, Value::object());
  ASSERT_EQ(r.status, RunStatus::kFailed);
  EXPECT_EQ(r.step("note")->status, StepStatus::kCompleted);  // not undone: it is no step's
  EXPECT_EQ(ledger.count("note"), 1);
}

}  // namespace
