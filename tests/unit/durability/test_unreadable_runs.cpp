// Runs a worker cannot execute as stored: a record naming a reactor not registered here, and
// records the store itself cannot read. Each fails its run at once and acknowledges its job.
#include "support/result_testing.hpp"
#include "unit/durability/durable_fixture.hpp"

namespace reactor::durable_test {
namespace {

TEST_F(DurableRules, ARecordNamingAReactorNotRegisteredHereFailsAtOnce) {
  open();
  std::string id;
  ASSERT_OK_AND_ASSIGN(id, engine_->run_in_background("Five", {{"n", 0}}));
  // The job still routes as "Five"; the record says the run is a "Retired".
  RunHeaderRow h;
  ASSERT_OK_AND_ASSIGN(h, store_->load_header(id));
  h.reactor = "Retired";
  CommitRequest rename;
  rename.headers.push_back(h);
  ASSERT_TRUE(store_->commit(rename).ok());

  auto worker = start_worker();
  RunHeaderRow failed = wait_for(id, RunStatus::kFailed);
  ASSERT_EQ(failed.status, RunStatus::kFailed);
  EXPECT_NE(failed.body.find("unknown_reactor"), std::string::npos) << failed.body;
  EXPECT_NE(failed.body.find("'Retired'"), std::string::npos) << failed.body;
  std::string next;
  ASSERT_OK_AND_ASSIGN(next, engine_->run_in_background("Five", {{"n", 1}}));
  EXPECT_EQ(wait_for(next, RunStatus::kCompleted).status, RunStatus::kCompleted);
}

TEST_F(DurableRules, ARunTheStoreCannotReadBackFailsWithCorruptRecordAndItsJobIsAcknowledged) {
  open();
  std::string id;
  ASSERT_OK_AND_ASSIGN(id, engine_->run_in_background("Five", {{"n", 0}}));
  store_->make_unreadable(id);
  auto worker = start_worker();

  // Not redelivered for ever: failed on its first delivery, job acknowledged.
  RunHeaderRow failed = wait_for(id, RunStatus::kFailed);
  ASSERT_EQ(failed.status, RunStatus::kFailed);
  EXPECT_NE(failed.body.find("corrupt_record"), std::string::npos) << failed.body;
  EXPECT_NE(failed.body.find("not JSON (injected)"), std::string::npos) << failed.body;
  bool has_job = true;
  ASSERT_OK_AND_ASSIGN(has_job, store_->has_job(id));
  EXPECT_FALSE(has_job);
  RunResult r;
  ASSERT_OK_AND_ASSIGN(r, engine_->find(id));
  EXPECT_EQ(r.status, RunStatus::kFailed);
  ASSERT_TRUE(r.error.has_value());
  EXPECT_EQ(r.error->kind, ErrorKind::kCorruptRecord);

  // A duplicate job finds the run ended and is acknowledged; its verdict stands.
  CommitRequest duplicate;  // as `reactor enqueue` writes it (default queue: the reactor's name)
  duplicate.enqueue.push_back(JobSpec{"Five", JobKind::kResume, id, "Five", 0, 0});
  ASSERT_TRUE(store_->commit(duplicate).ok());
  std::string next;
  ASSERT_OK_AND_ASSIGN(next, engine_->run_in_background("Five", {{"n", 10}}));
  EXPECT_EQ(wait_for(next, RunStatus::kCompleted).status, RunStatus::kCompleted);
  EXPECT_TRUE(eventually([&] { return worker->stats().runs_finished == 1; }))
      << worker->stats().runs_finished;
  ASSERT_OK_AND_ASSIGN(has_job, store_->has_job(id));
  EXPECT_FALSE(has_job);
  RunHeaderRow after;
  ASSERT_OK_AND_ASSIGN(after, store_->load_header(id));
  EXPECT_EQ(after.body, failed.body);
}

}  // namespace
}  // namespace reactor::durable_test
