// Inspector: run summaries with their creation and update times, and how many
// runs a listing cut at its limit left out.
#include <gtest/gtest.h>

#include <chrono>

#include "reactor/inspector.hpp"
#include "reactor/reactor.hpp"

namespace {

using namespace reactor;
using namespace std::chrono_literals;

class InspectorTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::unique_ptr<Backend> backend;
    ASSERT_TRUE(open_backend("memory:", clock_, backend).ok());
    EngineOptions options;
    options.clock = clock_;
    options.backend = std::move(backend);
    engine_ = std::make_unique<Engine>(std::move(options));
    for (const char* name : {"Booking", "Refund"}) {
      engine_->registry().add(Builder(name)
                                  .input("n", integer())
                                  .step("a", [](const Args& a) { return Success(a["n"]); })
                                  .argument("n", input("n"))
                                  .build());
    }
  }

  std::string start(const std::string& reactor, int n) {
    std::string id;
    EXPECT_TRUE(engine_->run_in_background(reactor, {{"n", n}}, id).ok());
    return id;
  }

  std::shared_ptr<ManualClock> clock_ = std::make_shared<ManualClock>();
  std::unique_ptr<Engine> engine_;
};

TEST_F(InspectorTest, ListsSummariesNewestFirstWithTheirTimesAndTheTotal) {
  const std::int64_t t0 = to_unix_ms(clock_->now());
  const std::string first = start("Booking", 1);
  clock_->advance(1s);
  const std::string second = start("Refund", 2);
  clock_->advance(1s);
  const std::string third = start("Booking", 3);
  clock_->advance(1s);
  RunResult done = engine_->run("Booking", {{"n", 4}});  // created and updated at t0 + 3 s
  ASSERT_TRUE(done.ok());

  Inspector inspector(*engine_->backend());
  RunFilter filter;
  filter.limit = 2;
  RunListing listing;
  ASSERT_TRUE(inspector.list_runs(filter, listing).ok());
  ASSERT_EQ(listing.runs.size(), 2u);
  EXPECT_EQ(listing.total, 4u);
  EXPECT_TRUE(listing.truncated());
  EXPECT_EQ(listing.runs[0].id, done.run_id);
  EXPECT_EQ(listing.runs[0].status, RunStatus::kCompleted);
  EXPECT_EQ(listing.runs[0].created_at_ms, t0 + 3000);
  EXPECT_GE(listing.runs[0].updated_at_ms, t0 + 3000);
  EXPECT_EQ(listing.runs[1].id, third);
  EXPECT_EQ(listing.runs[1].reactor, "Booking");
  EXPECT_EQ(listing.runs[1].status, RunStatus::kEnqueued);
  EXPECT_EQ(listing.runs[1].created_at_ms, t0 + 2000);
  EXPECT_EQ(listing.runs[1].updated_at_ms, t0 + 2000);

  filter.limit = 50;
  filter.reactor = "Booking";
  filter.status = RunStatus::kEnqueued;
  ASSERT_TRUE(inspector.list_runs(filter, listing).ok());
  ASSERT_EQ(listing.runs.size(), 2u);
  EXPECT_EQ(listing.total, 2u);
  EXPECT_FALSE(listing.truncated());
  EXPECT_EQ(listing.runs[0].id, third);
  EXPECT_EQ(listing.runs[1].id, first);
  EXPECT_EQ(listing.runs[1].created_at_ms, t0);

  filter.reactor = "Refund";
  ASSERT_TRUE(inspector.list_runs(filter, listing).ok());
  ASSERT_EQ(listing.runs.size(), 1u);
  EXPECT_EQ(listing.runs[0].id, second);
  EXPECT_EQ(listing.total, 1u);
}

TEST_F(InspectorTest, ARunWhoseHeaderCannotBeReadIsListedWithoutItsCreationTime) {
  const std::string id = start("Booking", 1);
  RunHeaderRow header;
  ASSERT_TRUE(engine_->backend()->load_header(id, header).ok());
  header.body = "{not json";
  CommitRequest corrupt;
  corrupt.headers.push_back(header);
  ASSERT_TRUE(engine_->backend()->commit(corrupt).ok());

  RunListing listing;
  ASSERT_TRUE(Inspector(*engine_->backend()).list_runs({}, listing).ok());
  ASSERT_EQ(listing.runs.size(), 1u);
  EXPECT_EQ(listing.runs[0].id, id);
  EXPECT_EQ(listing.runs[0].created_at_ms, 0);
  EXPECT_EQ(listing.runs[0].updated_at_ms, header.updated_at_ms);
}

}  // namespace
