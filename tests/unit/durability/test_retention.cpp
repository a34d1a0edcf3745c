// Retention: every write re-stamps a run's expiry, and only expired terminal runs are purged.
#include "support/result_testing.hpp"
#include "unit/durability/durable_fixture.hpp"

namespace reactor::durable_test {
namespace {

TEST_F(DurableRules, EveryWriteRestampsTheExpiryAndOnlyExpiredTerminalRunsArePurged) {
  DurabilityOptions d;
  d.context_ttl = 1h;
  open(d);
  const std::int64_t t0 = to_unix_ms(clock_->now());
  RunResult done = engine_->run("Five", {{"n", 0}});
  RunHeaderRow h;
  ASSERT_OK_AND_ASSIGN(h, store_->load_header(done.run_id));
  EXPECT_EQ(h.expires_at_ms, t0 + 3'600'000);

  clock_->advance(30min);
  std::string waiting;  // enqueued, never served: not terminal, so never purged
  ASSERT_OK_AND_ASSIGN(waiting, engine_->run_in_background("Five", {{"n", 1}}));
  ASSERT_OK_AND_ASSIGN(h, store_->load_header(waiting));
  EXPECT_EQ(h.expires_at_ms, t0 + 5'400'000);  // stamped at its own write

  SweepResult swept;
  ASSERT_OK_AND_ASSIGN(swept, engine_->sweep_once());
  EXPECT_EQ(swept.purged, 0u);
  clock_->advance(31min);  // the completed run's expiry has passed
  ASSERT_OK_AND_ASSIGN(swept, engine_->sweep_once());
  EXPECT_EQ(swept.purged, 1u);
  EXPECT_EQ(assign_or_status(h, store_->load_header(done.run_id)).code(), StatusCode::kNotFound);
  clock_->advance(10h);  // long past the waiting run's expiry too
  ASSERT_OK_AND_ASSIGN(swept, engine_->sweep_once());
  EXPECT_EQ(swept.purged, 0u);
  EXPECT_OK_AND_ASSIGN(h, store_->load_header(waiting));
}

}  // namespace
}  // namespace reactor::durable_test
