// Scheduled and periodic starts (issue 24; docs/schedules.md) on every backend: the
// ScheduleStore facet; a start at a time (`scheduled` until then, an early delivery put back, a
// lost job re-enqueued due then); schedules added, listed and fired, each period exactly one
// run, missed periods by their policy. Periods are fired on an injected clock: no test sleeps
// for them. On Redis the store judges a job due by its own clock, so the start-at cases wait
// there in real time, briefly.
#include <atomic>

#include "conformance/conformance_support.hpp"
#include "reactor/reactor.hpp"
#include "support/result_testing.hpp"

namespace reactor::conformance {
namespace {

using namespace std::chrono_literals;

template <typename Factory>
class Schedules : public BackendConformance<Factory> {
 protected:
  // Long enough for a store judged in real time (Redis) to see the job not yet due.
  static constexpr Duration kLater = 800ms;

  // The engine's store: a second open of the factory's (for memory, a store of its own; the
  // fixture's db() is not used here).
  void SetUp() override {
    BackendConformance<Factory>::SetUp();
    std::unique_ptr<Backend> raw;
    Status s = this->factory_.open(raw);
    ASSERT_TRUE(s.ok()) << s.to_string();
    store_ = std::move(raw);
    engine_ = make_engine(this->factory_.clock());
  }

  std::unique_ptr<Engine> make_engine(std::shared_ptr<Clock> clock) {
    EngineOptions options;
    options.clock = std::move(clock);
    options.backend = store_;
    auto engine = std::make_unique<Engine>(std::move(options));
    engine->registry().add(Builder("Report")
                               .input("region", string().default_value("eu"))
                               .step("write",
                                     [this](const Args&) -> StepResult {
                                       ++writes_;
                                       return Success("written");
                                     })
                               .build());
    return engine;
  }

  RunStatus status_of(Engine& e, const std::string& id) {
    RunResult r;
    EXPECT_OK_AND_ASSIGN(r, e.find(id));
    return r.status;
  }

  std::vector<std::string> run_ids(RunStatus status) {
    std::vector<RunHeaderRow> rows;
    EXPECT_OK_AND_ASSIGN(rows, store_->list_runs({status, std::string("Report"), 100, false}));
    std::vector<std::string> ids;
    for (const auto& h : rows) ids.push_back(h.id);
    std::sort(ids.begin(), ids.end());
    return ids;
  }

  ScheduleRow row(const std::string& name, std::int64_t fired) {
    ScheduleRow r;
    r.name = name;
    r.reactor = "Report";
    r.every_ms = 60'000;
    r.inputs = R"({"region":"us"})";
    r.missed = MissedPeriods::kSkip;
    r.grace_ms = 5000;
    r.last_fired_ms = fired;
    r.updated_at_ms = 7;
    return r;
  }

  std::shared_ptr<Backend> store_;
  std::unique_ptr<Engine> engine_;
  std::atomic<int> writes_{0};
};
TYPED_TEST_SUITE(Schedules, ConformanceBackends, BackendName);

TYPED_TEST(Schedules, TheStoreKeepsSchedulesAndWhatTheyFired) {
  Backend& db = *this->store_;
  ASSERT_TRUE(db.upsert_schedule(this->row("nightly", 100)).ok());
  ASSERT_TRUE(db.upsert_schedule(this->row("hourly", 0)).ok());
  ASSERT_TRUE(db.mark_schedule_fired("nightly", 500).ok());
  ASSERT_TRUE(db.mark_schedule_fired("nightly", 300).ok());  // never back
  // Added again (every worker adds it at its start): the record replaced, what it fired kept.
  ScheduleRow again = this->row("nightly", 0);
  again.cron = "0 3 * * *";
  again.every_ms = 0;
  ASSERT_TRUE(db.upsert_schedule(again).ok());

  std::vector<ScheduleRow> rows;
  ASSERT_OK_AND_ASSIGN(rows, db.list_schedules());
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].name, "hourly");
  EXPECT_EQ(rows[0].last_fired_ms, 0);
  EXPECT_EQ(rows[1].name, "nightly");
  EXPECT_EQ(rows[1].last_fired_ms, 500);
  EXPECT_EQ(rows[1].cron, "0 3 * * *");
  EXPECT_EQ(rows[1].every_ms, 0);
  EXPECT_EQ(rows[1].inputs, R"({"region":"us"})");
  EXPECT_EQ(rows[1].missed, MissedPeriods::kSkip);
  EXPECT_EQ(rows[1].grace_ms, 5000);
  EXPECT_EQ(db.mark_schedule_fired("nobody", 1).code(), StatusCode::kNotFound);
}

TYPED_TEST(Schedules, AStartAtIsScheduledUntilThenAndAnEarlyDeliveryIsPutBack) {
  Engine& e = *this->engine_;
  const TimePoint at = e.clock().now() + this->kLater;
  std::string id;
  ASSERT_OK_AND_ASSIGN(id, e.run_in_background("Report", Value::object(), {.start_at = at}));
  EXPECT_EQ(this->status_of(e, id), RunStatus::kScheduled);
  EXPECT_EQ(this->run_ids(RunStatus::kScheduled), std::vector<std::string>{id});
  RunHeaderRow h;
  ASSERT_OK_AND_ASSIGN(h, this->store_->load_header(id));
  EXPECT_EQ(h.wake_at_ms, to_unix_ms(at));

  // A duplicate job due now (as a racing sweep could leave): delivered early, it is put back.
  CommitRequest dup;
  dup.enqueue.push_back(
      JobSpec{e.queue_for("Report"), JobKind::kResume, id, "Report", this->now_ms(), 0});
  ASSERT_TRUE(this->store_->commit(dup).ok());
  ASSERT_TRUE(e.run_due_jobs("Report").ok());
  EXPECT_EQ(this->status_of(e, id), RunStatus::kScheduled);
  EXPECT_EQ(this->writes_.load(), 0);

  this->advance(this->kLater + 100ms);
  ASSERT_TRUE(e.run_due_jobs("Report").ok());
  EXPECT_EQ(this->status_of(e, id), RunStatus::kCompleted);
  EXPECT_EQ(this->writes_.load(), 1);  // the second job found the run ended
}

TYPED_TEST(Schedules, ADelayCountsFromNowAndAStartUnderItsIdIsIdempotent) {
  Engine& e = *this->engine_;
  BackgroundOptions later{.run_id = "TRIP-1", .delay = this->kLater};
  std::string id;
  ASSERT_OK_AND_ASSIGN(id, e.run_in_background("Report", Value::object(), later));
  EXPECT_EQ(id, "TRIP-1");
  EXPECT_EQ(this->status_of(e, id), RunStatus::kScheduled);
  EXPECT_TRUE(e.run_in_background("Report", Value::object(), later).ok());
  EXPECT_EQ(e.run_in_background("Report", {{"region", "us"}}, later).status().code(),
            StatusCode::kAlreadyExists);
  // A start time already past starts at once, enqueued.
  BackgroundOptions past{.run_id = "TRIP-2", .start_at = e.clock().now() - 1h};
  ASSERT_OK_AND_ASSIGN(id, e.run_in_background("Report", Value::object(), past));
  EXPECT_EQ(this->status_of(e, id), RunStatus::kEnqueued);
  ASSERT_TRUE(e.run_due_jobs("Report").ok());
  EXPECT_EQ(this->status_of(e, "TRIP-2"), RunStatus::kCompleted);
  EXPECT_EQ(this->status_of(e, "TRIP-1"), RunStatus::kScheduled);
}

TYPED_TEST(Schedules, TheSweeperReEnqueuesAScheduledRunWhoseJobWasLostDueAtItsStart) {
  Engine& e = *this->engine_;
  const TimePoint at = e.clock().now() + this->kLater;
  std::string id;
  ASSERT_OK_AND_ASSIGN(id, e.run_in_background("Report", Value::object(), {.start_at = at}));
  // Its job lost: the store's first job (id 1), deleted as an ack of a job nobody holds.
  CommitRequest lose;
  lose.ack_job = 1;
  ASSERT_TRUE(this->store_->commit(lose).ok());
  bool job = true;
  ASSERT_OK_AND_ASSIGN(job, this->store_->has_job(id));
  ASSERT_FALSE(job);
  std::vector<RunHeaderRow> orphans;
  ASSERT_OK_AND_ASSIGN(orphans, this->store_->find_orphans(10));
  ASSERT_EQ(orphans.size(), 1u);
  EXPECT_EQ(orphans[0].wake_at_ms, to_unix_ms(at));

  SweepResult swept;
  ASSERT_OK_AND_ASSIGN(swept, e.sweep_once());
  EXPECT_EQ(swept.requeued, 1u);
  ASSERT_OK_AND_ASSIGN(job, this->store_->has_job(id));
  EXPECT_TRUE(job);
  ASSERT_TRUE(e.run_due_jobs("Report").ok());  // not due yet: nothing starts
  EXPECT_EQ(this->status_of(e, id), RunStatus::kScheduled);
  this->advance(this->kLater + 100ms);
  ASSERT_TRUE(e.run_due_jobs("Report").ok());
  EXPECT_EQ(this->status_of(e, id), RunStatus::kCompleted);
  EXPECT_EQ(this->writes_.load(), 1);
}

TYPED_TEST(Schedules, AddScheduleRefusesWhatCannotFire) {
  Engine& e = *this->engine_;
  Schedule s{.name = "nightly", .reactor = "Report", .every = 1h};
  EXPECT_TRUE(e.add_schedule(s).ok());
  Schedule unknown = s;
  unknown.reactor = "Nope";
  EXPECT_EQ(e.add_schedule(unknown).code(), StatusCode::kNotFound);
  Schedule bad_inputs = s;
  bad_inputs.inputs = {{"region", 5}, {"extra", true}};
  Status refused = e.add_schedule(bad_inputs);
  EXPECT_EQ(refused.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(refused.message().find("region"), std::string::npos) << refused.message();
  EXPECT_NE(refused.message().find("extra"), std::string::npos) << refused.message();
  Schedule bad_cron = s;
  bad_cron.every = Duration::zero();
  bad_cron.cron = "0 25 * * *";
  refused = e.add_schedule(bad_cron);
  EXPECT_EQ(refused.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(refused.message().find("field 2 (hour)"), std::string::npos) << refused.message();
  Schedule both = s;
  both.cron = "0 * * * *";
  EXPECT_EQ(e.add_schedule(both).code(), StatusCode::kInvalidArgument);
  Schedule neither = s;
  neither.every = Duration::zero();
  EXPECT_EQ(e.add_schedule(neither).code(), StatusCode::kInvalidArgument);
  Schedule never = bad_cron;
  never.cron = "0 0 30 2 *";  // February 30th
  EXPECT_EQ(e.add_schedule(never).code(), StatusCode::kInvalidArgument);
  std::vector<ScheduleStatus> listed;
  ASSERT_OK_AND_ASSIGN(listed, e.list_schedules());
  ASSERT_EQ(listed.size(), 1u);  // only the valid one was kept
  EXPECT_EQ(listed[0].schedule.name, "nightly");
}

// Two engines (two workers) on one store and one injected clock fire the same schedule.
TYPED_TEST(Schedules, EachPeriodStartsExactlyOneRunWhoeverFiresIt) {
  auto clock = std::make_shared<ManualClock>(*parse_utc("2026-12-03T10:30:00Z"));
  auto a = this->make_engine(clock);
  auto b = this->make_engine(clock);
  ASSERT_TRUE(a->add_schedule({.name = "hourly", .reactor = "Report", .every = 1h}).ok());
  ASSERT_TRUE(b->add_schedule({.name = "hourly", .reactor = "Report", .every = 1h}).ok());
  std::size_t fired = 9;
  ASSERT_OK_AND_ASSIGN(fired, a->fire_schedules());
  EXPECT_EQ(fired, 0u);  // added in the 10:00 period: its first run is at 11:00
  std::vector<ScheduleStatus> listed;
  ASSERT_OK_AND_ASSIGN(listed, a->list_schedules());
  ASSERT_EQ(listed.size(), 1u);
  EXPECT_EQ(format_utc(*listed[0].fire.next), "2026-12-03T11:00:00Z");
  EXPECT_FALSE(listed[0].fire.due.has_value());

  clock->set(*parse_utc("2026-12-03T11:00:00.200Z"));
  ASSERT_OK_AND_ASSIGN(fired, a->fire_schedules());
  EXPECT_EQ(fired, 1u);
  ASSERT_OK_AND_ASSIGN(fired, b->fire_schedules());
  EXPECT_EQ(fired, 0u);  // noted fired
  // A second start of the period (a worker that looked before the note): the same run.
  EXPECT_TRUE(
      b->run_in_background("Report", Value::object(), {.run_id = "hourly@20261203T110000Z"}).ok());
  clock->set(*parse_utc("2026-12-03T12:00:01Z"));
  ASSERT_OK_AND_ASSIGN(fired, b->fire_schedules());
  EXPECT_EQ(fired, 1u);
  EXPECT_EQ(this->run_ids(RunStatus::kEnqueued),
            (std::vector<std::string>{"hourly@20261203T110000Z", "hourly@20261203T120000Z"}));
  ASSERT_OK_AND_ASSIGN(listed, b->list_schedules());
  EXPECT_EQ(format_utc(*listed[0].last_fired), "2026-12-03T12:00:00Z");
}

TYPED_TEST(Schedules, MissedPeriodsFireOnceOrAreSkipped) {
  auto clock = std::make_shared<ManualClock>(*parse_utc("2026-12-03T10:30:00Z"));
  auto e = this->make_engine(clock);
  ASSERT_TRUE(
      e->add_schedule(
           {.name = "once", .reactor = "Report", .every = 1h, .missed = MissedPeriods::kFireOnce})
          .ok());
  ASSERT_TRUE(e->add_schedule({.name = "skip",
                               .reactor = "Report",
                               .cron = "0 * * * *",
                               .missed = MissedPeriods::kSkip,
                               .grace = 60s})
                  .ok());
  // No worker from 10:30 to 15:20: four periods passed.
  clock->set(*parse_utc("2026-12-03T15:20:00Z"));
  std::size_t fired = 0;
  ASSERT_OK_AND_ASSIGN(fired, e->fire_schedules());
  EXPECT_EQ(fired, 1u);  // once: one run, for the current period; skip: none
  ASSERT_OK_AND_ASSIGN(fired, e->fire_schedules());
  EXPECT_EQ(fired, 0u);
  std::vector<ScheduleStatus> listed;
  ASSERT_OK_AND_ASSIGN(listed, e->list_schedules());
  ASSERT_EQ(listed.size(), 2u);
  EXPECT_EQ(listed[1].schedule.name, "skip");
  EXPECT_FALSE(listed[1].fire.due.has_value());
  EXPECT_EQ(format_utc(*listed[1].fire.next), "2026-12-03T16:00:00Z");
  // At the next boundary (within its grace) the skipping schedule fires.
  clock->set(*parse_utc("2026-12-03T16:00:30Z"));
  ASSERT_OK_AND_ASSIGN(fired, e->fire_schedules());
  EXPECT_EQ(fired, 2u);
  EXPECT_EQ(this->run_ids(RunStatus::kEnqueued),
            (std::vector<std::string>{"once@20261203T150000Z", "once@20261203T160000Z",
                                      "skip@20261203T160000Z"}));
}

}  // namespace
}  // namespace reactor::conformance
