#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

#include "reactor/trace.hpp"

namespace reactor {
namespace {

TraceEvent event(TraceType type, std::string step, int attempt = 1) {
  TraceEvent e;
  e.type = type;
  e.step = std::move(step);
  e.attempt = attempt;
  e.outcome = "success";
  return e;
}

TEST(TraceTest, TypeNames) {
  EXPECT_STREQ(to_string(TraceType::kRun), "run");
  EXPECT_STREQ(to_string(TraceType::kCompensate), "compensate");
  EXPECT_STREQ(to_string(TraceType::kUndo), "undo");
}

TEST(TraceTest, SummaryOfEmptyTraceIsEmpty) { EXPECT_EQ(summarize({}), ""); }

TEST(TraceTest, SummaryFoldsConsecutiveEventsOfOneType) {
  const std::vector<TraceEvent> trace{event(TraceType::kRun, "a"), event(TraceType::kRun, "b"),
                                      event(TraceType::kCompensate, "b"),
                                      event(TraceType::kUndo, "a")};
  EXPECT_EQ(summarize(trace), "ran a, b; compensated b; undid a");
}

TEST(TraceTest, SummaryStartsANewClauseWhenTheTypeComesBack) {
  const std::vector<TraceEvent> trace{event(TraceType::kRun, "a"), event(TraceType::kUndo, "x"),
                                      event(TraceType::kRun, "c"), event(TraceType::kUndo, "c"),
                                      event(TraceType::kUndo, "a")};
  EXPECT_EQ(summarize(trace), "ran a; undid x; ran c; undid c, a");
}

TEST(TraceTest, SummaryListsRetriesAndNestedPaths) {
  const std::vector<TraceEvent> trace{
      event(TraceType::kRun, "charge", 1), event(TraceType::kRun, "charge", 2),
      event(TraceType::kRun, "payment/capture"), event(TraceType::kRun, "items[0]/ship")};
  EXPECT_EQ(summarize(trace), "ran charge, charge, payment/capture, items[0]/ship");
}

// A fan-out map's step is traced twice as a run: its elements handed to the queue (outcome
// "dispatched"), then its collection once they settled.
TEST(TraceTest, SummaryNamesAMapsDispatchApartFromItsCollection) {
  TraceEvent dispatched = event(TraceType::kRun, "sum");
  dispatched.outcome = "dispatched";
  const std::vector<TraceEvent> trace{event(TraceType::kRun, "reserve"), dispatched,
                                      event(TraceType::kRun, "sum"),
                                      event(TraceType::kRun, "after")};
  EXPECT_EQ(summarize(trace), "ran reserve; dispatched sum; ran sum, after");
  const std::vector<TraceEvent> two{dispatched, dispatched, event(TraceType::kUndo, "sum")};
  EXPECT_EQ(summarize(two), "dispatched sum, sum; undid sum");
}

// A hand-off reads where it happened, between what ran in the caller and what ran in a worker.
TEST(TraceTest, SummarySaysWhereTheRunWasHandedOff) {
  TraceEvent after = event(TraceType::kHandOff, "charge");
  after.outcome = "after";
  EXPECT_EQ(summarize({event(TraceType::kRun, "reserve"), event(TraceType::kRun, "charge"), after,
                       event(TraceType::kRun, "ship")}),
            "ran reserve, charge; handed off after charge; ran ship");
  TraceEvent before = event(TraceType::kHandOff, "ship");
  before.outcome = "before";
  EXPECT_EQ(summarize({before}), "handed off before ship");
  EXPECT_EQ(trace_type_from_string(to_string(TraceType::kHandOff)), TraceType::kHandOff);
}

TEST(TraceTest, JsonRoundTrip) {
  TraceEvent e = event(TraceType::kCompensate, "payment/charge", 3);
  e.outcome = "failure";
  e.message = "card declined";
  e.at_ms = 1'700'000'000'123;
  const Value j = e;
  EXPECT_EQ(j, (Value{{"type", "compensate"},
                      {"step", "payment/charge"},
                      {"attempt", 3},
                      {"outcome", "failure"},
                      {"message", "card declined"},
                      {"at_ms", 1'700'000'000'123}}));
  EXPECT_EQ(j.get<TraceEvent>(), e);
}

TEST(TraceTest, UnknownTypeIsRejected) {
  Value j = event(TraceType::kRun, "a");
  j["type"] = "teleport";
  EXPECT_THROW(j.get<TraceEvent>(), std::invalid_argument);
}

}  // namespace
}  // namespace reactor
