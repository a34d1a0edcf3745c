// A run id names one run for ever: starting it again — synchronously or in the background —
// returns that run, never a second execution or an overwrite; other inputs or another reactor
// under the id are a conflict, and nothing is written.
#include "support/result_testing.hpp"
#include "unit/durability/durable_fixture.hpp"

namespace reactor::durable_test {
namespace {

Definition trip(std::atomic<int>& booked) {
  return Builder("TravelBooking")
      .input("city", string())
      .input("nights", integer().default_value(1))
      .step("book",
            [&booked](const Args& a) {
              ++booked;
              return Success(a["city"]);
            })
      .argument("city", input("city"))
      .returns("book")
      .build();
}

class IdempotentStart : public DurableRules {
 protected:
  void SetUp() override {
    DurabilityOptions d;
    d.inline_jobs = true;  // background runs execute in the caller: no worker needed
    open(d);
    engine_->registry().add(trip(booked_));
  }
  std::size_t stored_runs() {
    std::vector<RunHeaderRow> rows;
    EXPECT_OK_AND_ASSIGN(rows, store_->list_runs(RunFilter{}));
    return rows.size();
  }
  std::atomic<int> booked_{0};
};

TEST_F(IdempotentStart, ASynchronousRunStartedAgainUnderItsIdReturnsTheStoredRun) {
  RunOptions o;
  o.run_id = "TRIP-1001";
  RunResult first = engine_->run("TravelBooking", {{"city", "Lyon"}}, o);
  ASSERT_EQ(first.status, RunStatus::kCompleted);
  // The defaults applied, the inputs are the same: the same run, not run again.
  RunResult again = engine_->run("TravelBooking", {{"city", "Lyon"}, {"nights", 1}}, o);
  EXPECT_EQ(again.status, RunStatus::kCompleted);
  EXPECT_EQ(again.run_id, "TRIP-1001");
  EXPECT_EQ(again.value, "Lyon");
  EXPECT_EQ(again.trace_summary(), "ran book");
  EXPECT_EQ(booked_.load(), 1);
  EXPECT_EQ(stored_runs(), 1u);
}

TEST_F(IdempotentStart, OtherInputsUnderAnIdThatExistsAreAConflictNamingTheId) {
  RunOptions o;
  o.run_id = "TRIP-1001";
  ASSERT_EQ(engine_->run("TravelBooking", {{"city", "Lyon"}}, o).status, RunStatus::kCompleted);
  RunResult other = engine_->run("TravelBooking", {{"city", "Oslo"}}, o);
  ASSERT_TRUE(other.error);
  EXPECT_EQ(other.error->kind, ErrorKind::kRunIdConflict);
  EXPECT_NE(other.error->message.find("TRIP-1001"), std::string::npos) << other.error->message;
  Status s =
      engine_->run_in_background("TravelBooking", {{"city", "Oslo"}}, {"TRIP-1001"}).status();
  EXPECT_EQ(s.code(), StatusCode::kAlreadyExists);
  EXPECT_NE(s.message().find("TRIP-1001"), std::string::npos) << s.message();
  RunResult stored;
  ASSERT_OK_AND_ASSIGN(stored, engine_->find("TRIP-1001"));
  EXPECT_EQ(stored.value, "Lyon");  // never overwritten
  EXPECT_EQ(booked_.load(), 1);
}

TEST_F(IdempotentStart, ABackgroundStartUnderABusinessKeyRunsOnce) {
  std::string first, again;
  ASSERT_OK_AND_ASSIGN(first,
                       engine_->run_in_background("TravelBooking", {{"city", "Rome"}}, {"TRIP-7"}));
  EXPECT_EQ(first, "TRIP-7");
  ASSERT_OK_AND_ASSIGN(again,
                       engine_->run_in_background("TravelBooking", {{"city", "Rome"}}, {"TRIP-7"}));
  EXPECT_EQ(again, "TRIP-7");
  RunResult r;
  ASSERT_OK_AND_ASSIGN(r, engine_->find("TRIP-7"));
  EXPECT_EQ(r.status, RunStatus::kCompleted);
  EXPECT_EQ(booked_.load(), 1);
  bool has_job = true;
  ASSERT_OK_AND_ASSIGN(has_job, store_->has_job("TRIP-7"));
  EXPECT_FALSE(has_job);
  // Started synchronously under the same id: the stored run, not a second execution.
  RunOptions o;
  o.run_id = "TRIP-7";
  EXPECT_EQ(engine_->run("TravelBooking", {{"city", "Rome"}}, o).value, "Rome");
  EXPECT_EQ(booked_.load(), 1);
  // Another reactor (open() registers "Five") under the id is a conflict too.
  EXPECT_EQ(engine_->run_in_background("Five", {{"n", 1}}, {"TRIP-7"}).status().code(),
            StatusCode::kAlreadyExists);
}

}  // namespace
}  // namespace reactor::durable_test
