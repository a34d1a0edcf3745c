// Inline map: one element-reactor run per item, addressed "map[k]/step". Atomic (default):
// the first failure stops the map and completed elements are undone highest index first.
// Non-atomic: every element runs and the map succeeds with each outcome. collect() turns the
// element outcomes (in index order) into the map's value.
#include <set>
#include <stdexcept>

#include "unit/engine_test_support.hpp"

using namespace reactor;
using namespace reactor_test;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

namespace {

struct Shop {
  Journal log;
  std::set<int> declined;
  std::set<int> halted;
  std::vector<std::string> keys;

  Definition charge_one() {
    return Builder("ChargeOne")
        .input("item", integer())
        .step("charge",
              [this](const Args& a, StepContext& ctx) {
                const int item = a["item"].get<int>();
                log.add("charge " + std::to_string(item));
                keys.push_back(ctx.idempotency_key());
                if (halted.count(item)) return Halt("hold item " + std::to_string(item));
                if (declined.count(item)) return Failure("declined " + std::to_string(item), false);
                return Success(item * 10);
              })
        .argument("item", input("item"))
        .compensate([this](const std::string&, const Args& a, StepContext&) {
          log.add("void " + a["item"].dump());
          return Success();
        })
        .undo([this](const Value&, const Args& a, StepContext&) {
          log.add("refund " + a["item"].dump());
          return Success();
        })
        .returns("charge")
        .build();
  }

  // open -> charge_all (map over inputs.items) -> close
  Definition batch(bool atomic, CollectFn collect = nullptr, bool close_fails = false) {
    Builder b("Batch");
    b.input("items", array())
        .step("open",
              [this](const Args&) {
                log.add("open");
                return Success();
              })
        .undo([this](const Value&, const Args&, StepContext&) {
          log.add("reopen");
          return Success();
        })
        .map("charge_all", charge_one())
        .source(input("items"))
        .argument("item", element("charge_all"))
        .wait_for("open")
        .atomic(atomic);
    if (collect) b.collect(std::move(collect));
    b.step("close",
           [this, close_fails](const Args&) {
             log.add("close");
             return close_fails ? Failure("ledger closed", false) : Success();
           })
        .wait_for("charge_all")
        .returns("charge_all");
    return b.build();
  }
};

Value items(std::initializer_list<int> xs) {
  Value v = Value::array();
  for (int x : xs) v.push_back(x);
  return v;
}

}  // namespace

TEST(Map, ResultsAreInIndexOrder) {
  Shop s;
  Engine engine;
  RunOptions opts;
  opts.run_id = "b1";
  RunResult r = engine.run(s.batch(true), Value{{"items", items({3, 1, 2})}}, opts);
  ASSERT_TRUE(r.ok()) << (r.error ? r.error->message : "");
  EXPECT_EQ(r.value, items({30, 10, 20}));
  EXPECT_EQ(s.log.entries(),
            (std::vector<std::string>{"open", "charge 3", "charge 1", "charge 2", "close"}));
  EXPECT_EQ(r.trace_summary(),
            "ran open, charge_all[0]/charge, charge_all[1]/charge, charge_all[2]/charge, "
            "charge_all, close");
  EXPECT_EQ(s.keys, (std::vector<std::string>{"b1:charge_all[0]/charge", "b1:charge_all[1]/charge",
                                              "b1:charge_all[2]/charge"}));
  ASSERT_NE(r.step("charge_all[1]/charge"), nullptr);
  EXPECT_EQ(r.step("charge_all[1]/charge")->result, 10);
}

TEST(Map, AtomicMapStopsAtTheFirstFailureAndUndoesHighestIndexFirst) {
  Shop s;
  s.declined = {3};
  Engine engine;
  RunResult r = engine.run(s.batch(true), Value{{"items", items({1, 2, 3, 4})}});
  EXPECT_EQ(r.status, RunStatus::kFailed);
  EXPECT_EQ(s.log.entries(),
            (std::vector<std::string>{"open", "charge 1", "charge 2", "charge 3", "void 3",
                                      "refund 2", "refund 1", "reopen"}));
  EXPECT_EQ(s.log.count("charge 4"), 0);
  EXPECT_EQ(r.step("charge_all[3]/charge"), nullptr) << "element 3 must never start";
  ASSERT_TRUE(r.error);
  EXPECT_EQ(r.error->step, "charge_all[2]/charge");
  EXPECT_EQ(r.error->reactor, "ChargeOne");
  EXPECT_EQ(r.error->message, "declined 3");
  EXPECT_EQ(r.trace_summary(),
            "ran open, charge_all[0]/charge, charge_all[1]/charge, charge_all[2]/charge; "
            "compensated charge_all[2]/charge; undid charge_all[1]/charge, charge_all[0]/charge; "
            "ran charge_all; undid open");
  EXPECT_EQ(r.step("charge_all[0]/charge")->status, StepStatus::kUndone);
  EXPECT_EQ(r.step("charge_all[2]/charge")->status, StepStatus::kCompensated);
}

TEST(Map, NonAtomicMapCollectsSuccessesAndFailures) {
  Shop s;
  s.declined = {2, 4};
  Engine engine;
  RunResult r = engine.run(s.batch(false), Value{{"items", items({1, 2, 3, 4})}});
  ASSERT_TRUE(r.ok()) << (r.error ? r.error->message : "");
  // Failed elements roll themselves back; successful ones stay.
  EXPECT_EQ(s.log.entries(), (std::vector<std::string>{"open", "charge 1", "charge 2", "void 2",
                                                       "charge 3", "charge 4", "void 4", "close"}));
  EXPECT_EQ(r.value, (Value::array({
                         Value{{"index", 0}, {"ok", true}, {"value", 10}},
                         Value{{"index", 1}, {"ok", false}, {"error", "declined 2"}},
                         Value{{"index", 2}, {"ok", true}, {"value", 30}},
                         Value{{"index", 3}, {"ok", false}, {"error", "declined 4"}},
                     })));
}

TEST(Map, LaterFailureUndoesANonAtomicMapsSuccessfulElementsHighestIndexFirst) {
  Shop s;
  s.declined = {2};
  Engine engine;
  RunResult r = engine.run(s.batch(false, nullptr, true), Value{{"items", items({1, 2, 3})}});
  EXPECT_EQ(r.status, RunStatus::kFailed);
  EXPECT_EQ(s.log.entries(),
            (std::vector<std::string>{"open", "charge 1", "charge 2", "void 2", "charge 3", "close",
                                      "refund 3", "refund 1", "reopen"}));
  ASSERT_TRUE(r.error);
  EXPECT_EQ(r.error->step, "close");
}

TEST(Map, CollectSeesEveryOutcomeInIndexOrder) {
  Shop s;
  s.declined = {2};
  std::vector<std::size_t> seen;
  auto collect = [&](const MapResults& m) {
    int total = 0;
    for (const auto& v : m.successes()) total += v.get<int>();
    Value failed = Value::array();
    for (const auto& f : m.failures()) failed.push_back(f.index);
    for (const auto& e : m.elements()) seen.push_back(e.index);
    return Value{{"total", total}, {"failed", failed}};
  };
  Engine engine;
  RunResult r = engine.run(s.batch(false, collect), Value{{"items", items({1, 2, 3, 4})}});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.value, (Value{{"total", 10 + 30 + 40}, {"failed", Value::array({1})}}));
  EXPECT_THAT(seen, ElementsAre(0, 1, 2, 3));
}

TEST(Map, CollectOnAnAtomicMap) {
  Shop s;
  Engine engine;
  RunResult r =
      engine.run(s.batch(true, [](const MapResults& m) { return Value(m.successes().size()); }),
                 Value{{"items", items({5, 6})}});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.value, 2);
}

TEST(Map, ThrowingCollectFailsTheMapAndRollsBackItsElements) {
  Shop s;
  Engine engine;
  RunResult r = engine.run(
      s.batch(true, [](const MapResults&) -> Value { throw std::runtime_error("bad sum"); }),
      Value{{"items", items({1, 2, 3})}});
  EXPECT_EQ(r.status, RunStatus::kFailed);
  EXPECT_EQ(s.log.entries(),
            (std::vector<std::string>{"open", "charge 1", "charge 2", "charge 3", "refund 3",
                                      "refund 2", "refund 1", "reopen"}));
  ASSERT_TRUE(r.error);
  EXPECT_EQ(r.error->step, "charge_all");
  EXPECT_EQ(r.error->reactor, "Batch");
  EXPECT_EQ(r.error->message, "bad sum");
  EXPECT_EQ(r.error->exception_type, "std::runtime_error");
  EXPECT_EQ(r.error->attempts, 1);
  EXPECT_EQ(s.log.count("close"), 0);
}

TEST(Map, EmptyCollectionSucceedsWithNoElements) {
  Shop s;
  int collected = -1;
  Engine engine;
  RunResult r = engine.run(s.batch(true,
                                   [&](const MapResults& m) {
                                     collected = static_cast<int>(m.elements().size());
                                     return Value("none");
                                   }),
                           Value{{"items", Value::array()}});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(collected, 0);
  EXPECT_EQ(r.value, "none");
}

TEST(Map, SourceThatIsNotAnArrayIsAnArgumentError) {
  Shop s;
  Definition d = Builder("Batch")
                     .step("list",
                           [](const Args&) {
                             return Success(Value{{"not", "a list"}});
                           })
                     .map("charge_all", s.charge_one())
                     .source(result("list"))
                     .argument("item", element("charge_all"))
                     .build();
  Engine engine;
  RunResult r = engine.run(d, Value::object());
  EXPECT_EQ(r.status, RunStatus::kFailed);
  ASSERT_TRUE(r.error);
  EXPECT_EQ(r.error->kind, ErrorKind::kArgumentResolution);
  EXPECT_EQ(r.error->step, "charge_all");
  EXPECT_THAT(r.error->message, HasSubstr("not an array"));
}

TEST(Map, SourceFromAnEarlierStepAndElementTransform) {
  Shop s;
  Definition d = Builder("Batch")
                     .step("list",
                           [](const Args&) {
                             return Success(Value{{"skus", {4, 5}}});
                           })
                     .map("charge_all", s.charge_one())
                     .source(result("list", "skus"))
                     .argument("item", element("charge_all").transform([](const Value& v) {
                       return Value(v.get<int>() + 100);
                     }))
                     .returns("charge_all")
                     .build();
  Engine engine;
  RunResult r = engine.run(d, Value::object());
  ASSERT_TRUE(r.ok()) << (r.error ? r.error->message : "");
  EXPECT_EQ(r.value, items({1040, 1050}));
}

TEST(Map, HaltInAnElementHaltsTheRun) {
  Shop s;
  s.halted = {2};
  Engine engine;
  RunResult r = engine.run(s.batch(true), Value{{"items", items({1, 2, 3})}});
  EXPECT_EQ(r.status, RunStatus::kHalted);
  EXPECT_EQ(r.value, "hold item 2");
  EXPECT_EQ(s.log.entries(), (std::vector<std::string>{"open", "charge 1", "charge 2"}));
}

TEST(Map, ElementInputRejectedAtRunTimeNamesTheElement) {
  Shop s;
  Definition strict = Builder("ChargePositive")
                          .input("item", integer().min(1))
                          .step("charge", [](const Args&) { return Success(); })
                          .build();
  Definition d = Builder("Batch")
                     .input("items", array())
                     .map("charge_all", strict)
                     .source(input("items"))
                     .argument("item", element("charge_all"))
                     .build();
  Engine engine;
  RunResult r = engine.run(d, Value{{"items", items({4, 0, 5})}});
  EXPECT_EQ(r.status, RunStatus::kFailed);
  ASSERT_TRUE(r.error);
  EXPECT_EQ(r.error->kind, ErrorKind::kInputInvalid);
  EXPECT_EQ(r.error->step, "charge_all[1]");
  EXPECT_EQ(r.error->reactor, "ChargePositive");
  EXPECT_EQ(r.trace_summary(), "ran charge_all[0]/charge, charge_all");
}
