// Inspector: run summaries with their creation and update times, and how many
// runs a listing cut at its limit left out. The headers are written as the
// engine writes them (the record codec), straight into a memory store.
#include <gtest/gtest.h>

#include "reactor/backend.hpp"
#include "reactor/inspector.hpp"
#include "records/codec.hpp"

namespace {

using namespace reactor;

class InspectorTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(open_backend("memory:", nullptr, store_).ok()); }

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
    RunListing listing;
    EXPECT_TRUE(Inspector(*store_).list_runs(filter, listing).ok());
    return listing;
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

}  // namespace
