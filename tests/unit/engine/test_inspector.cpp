// Inspector: run summaries with their creation and update times, and how many
// runs a listing cut at its limit left out (the headers written as the engine
// writes them, the record codec, straight into a memory store); the progress of
// fan-out maps and what an element run belongs to (runs of an engine on a
// memory store, their elements executed inline or not at all).
#include <gtest/gtest.h>

#include "reactor/backend.hpp"
#include "reactor/inspector.hpp"
#include "reactor/reactor.hpp"
#include "records/codec.hpp"
#include "support/result_testing.hpp"

namespace {

using namespace reactor;

class InspectorTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(assign_or_status(store_, open_backend("memory:", nullptr)).ok());
  }

  // A root run's header as the engine stores it.
  RunHeaderRow file(const std::string& id, const std::string& reactor, RunStatus status,
                    std::int64_t created_at_ms, std::int64_t updated_at_ms) {
    reactor::Run run;
    run.id = run.root_id = id;
    run.reactor = reactor;
    run.status = status;
    run.created_at_ms = created_at_ms;
    run.updated_at_ms = updated_at_ms;
    CommitRequest c;
    c.headers.push_back(records::encode_header(run, 0));
    EXPECT_TRUE(store_->commit(c).ok());
    return c.headers.back();
  }

  RunListing list(const RunFilter& filter) {
    Result<RunListing> listing = Inspector(*store_).list_runs(filter);
    EXPECT_TRUE(listing.ok());
    return std::move(listing).value_or(RunListing{});
  }

  std::unique_ptr<Backend> store_;
};

TEST_F(InspectorTest, ListsSummariesNewestFirstWithTheirTimesAndTheTotal) {
  file("a", "Booking", RunStatus::kEnqueued, 1000, 1000);
  file("b", "Refund", RunStatus::kEnqueued, 2000, 2000);
  file("c", "Booking", RunStatus::kEnqueued, 3000, 3000);
  file("d", "Booking", RunStatus::kCompleted, 1500, 4000);

  RunFilter two;
  two.limit = 2;
  RunListing listing = list(two);
  ASSERT_EQ(listing.runs.size(), 2u);
  EXPECT_EQ(listing.total, 4u);
  EXPECT_TRUE(listing.truncated());
  EXPECT_EQ(listing.runs[0].id, "d");
  EXPECT_EQ(listing.runs[0].reactor, "Booking");
  EXPECT_EQ(listing.runs[0].status, RunStatus::kCompleted);
  EXPECT_EQ(listing.runs[0].created_at_ms, 1500);
  EXPECT_EQ(listing.runs[0].updated_at_ms, 4000);
  EXPECT_EQ(listing.runs[1].id, "c");
  EXPECT_EQ(listing.runs[1].created_at_ms, 3000);

  RunFilter booked;
  booked.reactor = "Booking";
  booked.status = RunStatus::kEnqueued;
  listing = list(booked);
  ASSERT_EQ(listing.runs.size(), 2u);
  EXPECT_EQ(listing.total, 2u);
  EXPECT_FALSE(listing.truncated());
  EXPECT_EQ(listing.runs[0].id, "c");
  EXPECT_EQ(listing.runs[1].id, "a");
  EXPECT_EQ(listing.runs[1].created_at_ms, 1000);

  RunFilter none;
  none.reactor = "Nothing";
  listing = list(none);
  EXPECT_TRUE(listing.runs.empty());
  EXPECT_EQ(listing.total, 0u);
  EXPECT_FALSE(listing.truncated());
}

TEST_F(InspectorTest, ARunWhoseHeaderCannotBeReadIsListedWithoutItsCreationTime) {
  RunHeaderRow header = file("a", "Booking", RunStatus::kEnqueued, 1000, 1000);
  header.body = "{not json";
  CommitRequest corrupt;
  corrupt.headers.push_back(header);
  ASSERT_TRUE(store_->commit(corrupt).ok());

  RunListing listing = list({});
  ASSERT_EQ(listing.runs.size(), 1u);
  EXPECT_EQ(listing.runs[0].id, "a");
  EXPECT_EQ(listing.runs[0].created_at_ms, 0);
  EXPECT_EQ(listing.runs[0].updated_at_ms, 1000);
}

// Element x: returns x, or fails for good when x equals fail_at.
Definition echo() {
  return Builder("Echo")
      .input("x", integer())
      .input("fail_at", any().optional())
      .step("echo",
            [](const Args& a) -> StepResult {
              const Value& fail_at = a["fail_at"];
              if (fail_at.is_number_integer() && fail_at == a["x"]) return Failure("no", false);
              return Success(a["x"]);
            })
      .argument("x", input("x"))
      .argument("fail_at", input("fail_at"))
      .undo([](const Value&, const Args&, StepContext&) { return Success(); })
      .returns("echo")
      .build();
}

// "Sum": a fan-out map "m" of Echo over input "items", batch_size 2 at a time.
Definition summing(const std::string& name = "Sum") {
  return Builder(name)
      .input("items", array())
      .input("fail_at", any().optional())
      .map("m", echo())
      .source(input("items"))
      .argument("x", element("m"))
      .argument("fail_at", input("fail_at"))
      .fan_out(2)
      .returns("m")
      .build();
}

// "Outer": a composed child "child" (a Sum), then a fan-out map "own" of its own.
Definition outer() {
  return Builder("Outer")
      .input("items", array())
      .compose("child", summing("Child"))
      .argument("items", input("items"))
      .map("own", echo())
      .source(input("items"))
      .argument("x", element("own"))
      .wait_for("child")
      .fan_out(3)
      .returns("own")
      .build();
}

Value items(int n) {
  Value v = Value::array();
  for (int i = 0; i < n; ++i) v.push_back(i);
  return v;
}

class InspectorMapsTest : public ::testing::Test {
 protected:
  // An engine on a memory store; with `inline_jobs` its runs' elements execute before run()
  // returns, else nobody executes them.
  std::unique_ptr<Engine> engine(bool inline_jobs) {
    std::unique_ptr<Backend> store;
    EXPECT_OK_AND_ASSIGN(store, open_backend("memory:", nullptr));
    EngineOptions options;
    options.backend = std::move(store);
    options.durability.inline_jobs = inline_jobs;
    auto e = std::make_unique<Engine>(std::move(options));
    e->registry().add(summing());
    e->registry().add(outer());
    return e;
  }

  static std::vector<MapProgress> maps_of(Engine& e, const std::string& run_id) {
    Result<std::vector<MapProgress>> maps = Inspector(*e.backend()).run_maps(run_id);
    EXPECT_TRUE(maps.ok()) << maps.status().to_string();
    return std::move(maps).value_or(std::vector<MapProgress>{});
  }
};

TEST_F(InspectorMapsTest, AMapWhoseElementsAreOutShowsThemInFlight) {
  auto e = engine(false);
  RunResult r = e->run("Sum", {{"items", items(5)}});
  ASSERT_EQ(r.status, RunStatus::kWaiting);
  const std::string map_id = r.run_id + ":m";

  std::vector<MapProgress> maps = maps_of(*e, r.run_id);
  ASSERT_EQ(maps.size(), 1u);
  const MapProgress& m = maps[0];
  EXPECT_EQ(m.map_id, map_id);
  EXPECT_EQ(m.step, "m");
  EXPECT_EQ(m.owner_id, r.run_id);
  EXPECT_EQ(m.element_reactor, "Echo");
  EXPECT_EQ(m.state, MapState::kRunning);
  EXPECT_EQ(m.total, 5u);
  EXPECT_EQ(m.batch_size, 2u);
  EXPECT_EQ(m.released, 2u);
  EXPECT_EQ(m.done, 0u);
  EXPECT_EQ(m.in_flight(), 2u);

  MapProgress by_id;
  ASSERT_OK_AND_ASSIGN(by_id, Inspector(*e->backend()).map_progress(map_id));
  EXPECT_EQ(by_id.total, 5u);
  EXPECT_EQ(by_id.step, "m");
  EXPECT_EQ(Inspector(*e->backend()).map_progress(r.run_id + ":nothing").status().code(),
            StatusCode::kNotFound);
  EXPECT_EQ(r.trace_summary(), "dispatched m");
}

TEST_F(InspectorMapsTest, ElementRunsAreListedOnlyWhenAskedAndCountedAsListed) {
  auto e = engine(false);
  RunResult r = e->run("Sum", {{"items", items(5)}});
  ASSERT_EQ(r.status, RunStatus::kWaiting);
  Inspector inspector(*e->backend());

  RunListing roots;
  ASSERT_OK_AND_ASSIGN(roots, inspector.list_runs({}));
  ASSERT_EQ(roots.runs.size(), 1u);
  EXPECT_EQ(roots.runs[0].id, r.run_id);
  EXPECT_EQ(roots.total, 1u);

  RunFilter all;
  all.elements = true;
  all.limit = 4;
  RunListing listing;
  ASSERT_OK_AND_ASSIGN(listing, inspector.list_runs(all));
  EXPECT_EQ(listing.runs.size(), 4u);
  EXPECT_EQ(listing.total, 6u);  // the owner and its 5 elements
  EXPECT_TRUE(listing.truncated());
}

TEST_F(InspectorMapsTest, AnElementRunNamesItsMapAndOwner) {
  auto e = engine(false);
  RunResult r = e->run("Sum", {{"items", items(5)}});
  ASSERT_EQ(r.status, RunStatus::kWaiting);
  Inspector inspector(*e->backend());

  std::optional<ElementInfo> element;
  ASSERT_OK_AND_ASSIGN(element, inspector.element_of(r.run_id + ":m[3]"));  // not released yet
  ASSERT_TRUE(element.has_value());
  EXPECT_EQ(element->map_id, r.run_id + ":m");
  EXPECT_EQ(element->index, 3u);
  EXPECT_EQ(element->owner_id, r.run_id);
  EXPECT_EQ(element->parent_id, r.run_id);

  ASSERT_OK_AND_ASSIGN(element, inspector.element_of(r.run_id));
  EXPECT_FALSE(element.has_value());
  EXPECT_EQ(inspector.element_of(r.run_id + ":m[9]").status().code(), StatusCode::kNotFound);
  // An element that dispatched no map of its own.
  std::vector<MapProgress> maps = maps_of(*e, r.run_id + ":m[0]");
  EXPECT_TRUE(maps.empty());
}

TEST_F(InspectorMapsTest, ASettledMapCountsWhatItsElementsCameTo) {
  auto e = engine(true);
  RunResult r = e->run("Sum", {{"items", items(5)}});
  ASSERT_EQ(r.status, RunStatus::kCompleted) << (r.error ? r.error->message : "");
  EXPECT_EQ(r.value, items(5));
  EXPECT_EQ(r.trace_summary(), "dispatched m; ran m");

  std::vector<MapProgress> maps = maps_of(*e, r.run_id);
  ASSERT_EQ(maps.size(), 1u);
  EXPECT_EQ(maps[0].state, MapState::kSettled);
  EXPECT_EQ(maps[0].total, 5u);
  EXPECT_EQ(maps[0].released, 5u);
  EXPECT_EQ(maps[0].done, 5u);
  EXPECT_EQ(maps[0].failed, 0u);
  EXPECT_EQ(maps[0].undone, 0u);
  EXPECT_EQ(maps[0].in_flight(), 0u);
}

TEST_F(InspectorMapsTest, AFailedAtomicMapCountsItsFailureAndItsRolledBackElements) {
  auto e = engine(true);
  RunResult r = e->run("Sum", {{"items", items(6)}, {"fail_at", 3}});
  ASSERT_EQ(r.status, RunStatus::kFailed);

  std::vector<MapProgress> maps = maps_of(*e, r.run_id);
  ASSERT_EQ(maps.size(), 1u);
  const MapProgress& m = maps[0];
  EXPECT_EQ(m.state, MapState::kSettled);
  EXPECT_EQ(m.failed, 1u);
  EXPECT_LT(m.released, 6u);  // none released after the failure
  EXPECT_EQ(m.done, m.released);
  EXPECT_EQ(m.undone, m.done - m.failed);  // every completed element rolled back
  EXPECT_EQ(m.in_flight(), 0u);
}

TEST_F(InspectorMapsTest, TheMapsOfAComposedChildAreTheRunsToo) {
  auto e = engine(true);
  RunResult r = e->run("Outer", {{"items", items(4)}});
  ASSERT_EQ(r.status, RunStatus::kCompleted) << (r.error ? r.error->message : "");

  std::vector<MapProgress> maps = maps_of(*e, r.run_id);
  ASSERT_EQ(maps.size(), 2u);
  EXPECT_EQ(maps[0].step, "child/m");
  EXPECT_EQ(maps[0].map_id, r.run_id + ":child/m");
  EXPECT_EQ(maps[0].batch_size, 2u);
  EXPECT_EQ(maps[0].done, 4u);
  EXPECT_EQ(maps[1].step, "own");
  EXPECT_EQ(maps[1].batch_size, 3u);
  EXPECT_EQ(maps[1].done, 4u);

  // An element of the child's map: its parent is the child, its owner the root.
  std::optional<ElementInfo> element;
  ASSERT_OK_AND_ASSIGN(element, Inspector(*e->backend()).element_of(r.run_id + ":child/m[1]"));
  ASSERT_TRUE(element.has_value());
  EXPECT_EQ(element->map_id, r.run_id + ":child/m");
  EXPECT_EQ(element->owner_id, r.run_id);
  EXPECT_NE(element->parent_id, r.run_id);
}

TEST_F(InspectorMapsTest, ARunWithoutFanOutMapsHasNone) {
  auto e = engine(true);
  e->registry().add(Builder("Plain")
                        .input("items", array())
                        .map("m", echo())
                        .source(input("items"))
                        .argument("x", element("m"))  // inline: no map record
                        .build());
  RunResult r = e->run("Plain", {{"items", items(3)}});
  ASSERT_EQ(r.status, RunStatus::kCompleted) << (r.error ? r.error->message : "");
  EXPECT_TRUE(maps_of(*e, r.run_id).empty());
  EXPECT_EQ(Inspector(*e->backend()).run_maps("absent").status().code(), StatusCode::kNotFound);
}

}  // namespace
