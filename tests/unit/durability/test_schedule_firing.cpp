// What one look at the schedules does when a start or the store fails
// (durability/schedules.hpp): a start refused for good is noted fired and reported once; a store
// that is down notes nothing, and the next look fires the period; a reactor not served here is
// left alone. Memory store, injected clock, the start a function of the test's.
#include <gtest/gtest.h>

#include "durability/schedules.hpp"
#include "reactor/backend_wrapper.hpp"
#include "support/result_testing.hpp"

namespace reactor {
namespace {

using namespace std::chrono_literals;

// Lists schedules while `up`, else answers Unavailable, as a store that is down.
class FlakyStore : public BackendWrapper {
 public:
  using BackendWrapper::BackendWrapper;
  bool up = true;
  Result<std::vector<ScheduleRow>> list_schedules() override {
    if (!up) return Status::Unavailable("store down (injected)");
    return BackendWrapper::list_schedules();
  }
};

class ScheduleFiring : public ::testing::Test {
 protected:
  void SetUp() override {
    std::unique_ptr<Backend> memory;
    ASSERT_OK_AND_ASSIGN(memory, open_backend("memory:", clock_));
    store_ = std::make_unique<FlakyStore>(std::move(memory));
    Schedule s{.name = "hourly", .reactor = "Report", .every = 1h};
    ASSERT_TRUE(store_->upsert_schedule(schedule_row(s, ms("2026-12-03T10:00:00Z"), 0)).ok());
  }

  static std::int64_t ms(const char* iso) { return to_unix_ms(*parse_utc(iso)); }

  ScheduleTick look(const char* at, Status answer, bool served = true) {
    return fire_due_schedules(
        *store_, *parse_utc(at), [served](const std::string&) { return served; },
        [this, answer](const std::string& reactor, Value, const std::string& run_id) {
          started_.push_back(reactor + " " + run_id);
          return answer;
        });
  }

  std::int64_t last_fired() {
    std::vector<ScheduleRow> rows;
    EXPECT_OK_AND_ASSIGN(rows, store_->target().list_schedules());
    return rows.empty() ? -1 : rows[0].last_fired_ms;
  }

  std::shared_ptr<ManualClock> clock_ = std::make_shared<ManualClock>();
  std::unique_ptr<FlakyStore> store_;
  std::vector<std::string> started_;
};

TEST_F(ScheduleFiring, AStoreThatIsDownNotesNothingAndTheNextLookFires) {
  ScheduleTick tick = look("2026-12-03T11:00:01Z", Status::Unavailable("store down"));
  EXPECT_EQ(tick.fired, 0u);
  ASSERT_EQ(tick.errors.size(), 1u);
  EXPECT_NE(tick.errors[0].find("schedule hourly, period 2026-12-03T11:00:00Z"), std::string::npos)
      << tick.errors[0];
  EXPECT_EQ(last_fired(), ms("2026-12-03T10:00:00Z"));  // not noted: tried again
  tick = look("2026-12-03T11:00:02Z", Status::Ok());
  EXPECT_EQ(tick.fired, 1u);
  EXPECT_EQ(last_fired(), ms("2026-12-03T11:00:00Z"));
  EXPECT_EQ(started_, (std::vector<std::string>{"Report hourly@20261203T110000Z",
                                                "Report hourly@20261203T110000Z"}));
  store_->up = false;
  tick = look("2026-12-03T12:00:01Z", Status::Ok());
  EXPECT_EQ(tick.status.code(), StatusCode::kUnavailable);
  EXPECT_EQ(tick.fired, 0u);
}

TEST_F(ScheduleFiring, AStartRefusedForGoodIsNotedFiredAndReportedOnce) {
  ScheduleTick tick =
      look("2026-12-03T11:00:01Z", Status::InvalidArgument("invalid inputs: region: is missing"));
  EXPECT_EQ(tick.fired, 0u);
  ASSERT_EQ(tick.errors.size(), 1u);
  EXPECT_NE(tick.errors[0].find("region: is missing"), std::string::npos);
  EXPECT_EQ(last_fired(), ms("2026-12-03T11:00:00Z"));
  tick = look("2026-12-03T11:00:02Z", Status::InvalidArgument("again"));
  EXPECT_TRUE(tick.errors.empty());  // the period is not tried again
  EXPECT_EQ(started_.size(), 1u);
}

TEST_F(ScheduleFiring, AReactorNotServedHereIsLeftAlone) {
  ScheduleTick tick = look("2026-12-03T11:00:01Z", Status::Ok(), /*served=*/false);
  EXPECT_EQ(tick.fired, 0u);
  EXPECT_TRUE(tick.errors.empty());
  EXPECT_TRUE(started_.empty());
  EXPECT_EQ(last_fired(), ms("2026-12-03T10:00:00Z"));
}

}  // namespace
}  // namespace reactor
