// JobQueue::queue_stats on every backend: ready, delayed and in-flight jobs per queue, the
// oldest due job's run_at, a lapsed delivery counted ready again, queues asked in order.
#include "conformance/conformance_support.hpp"
#include "support/result_testing.hpp"

namespace reactor::conformance {
namespace {

template <typename Factory>
class QueueStatsConformance : public BackendConformance<Factory> {
 protected:
  std::vector<QueueStats> stats(const std::vector<std::string>& queues) {
    Result<std::vector<QueueStats>> got = this->db().queue_stats(queues);
    EXPECT_TRUE(got.ok()) << got.status().to_string();
    return got.ok() ? *got : std::vector<QueueStats>{};
  }
};
TYPED_TEST_SUITE(QueueStatsConformance, ConformanceBackends, BackendName);

TYPED_TEST(QueueStatsConformance, CountsReadyDelayedAndInFlightPerQueue) {
  const std::int64_t now = this->now_ms();
  const std::int64_t later = now + this->ms(this->kShortTtl) * 10;
  this->enqueue({job("q", "r-a", now - 50), job("q", "r-b", now - 20), job("q", "r-c", later),
                 job("other", "r-d", now - 10)});
  auto d = this->fetch({"q"}, "w1", this->kShortTtl);  // r-a, the oldest, in flight
  ASSERT_TRUE(d);
  ASSERT_EQ(d->job.spec.run_id, "r-a");

  std::vector<QueueStats> s = this->stats({"q", "empty", "other"});
  ASSERT_EQ(s.size(), 3u);
  EXPECT_EQ(s[0].queue, "q");
  EXPECT_EQ(s[0].ready, 1u);
  EXPECT_EQ(s[0].delayed, 1u);
  EXPECT_EQ(s[0].in_flight, 1u);
  EXPECT_EQ(s[0].oldest_due_at_ms, now - 20);
  EXPECT_GE(s[0].now_ms, now);
  EXPECT_EQ(s[1].queue, "empty");
  EXPECT_EQ(s[1].ready + s[1].delayed + s[1].in_flight, 0u);
  EXPECT_EQ(s[1].oldest_due_at_ms, 0);
  EXPECT_EQ(s[2].ready, 1u);
  EXPECT_EQ(s[2].oldest_due_at_ms, now - 10);

  // The delivery lapses: its job is ready again, the oldest due.
  this->advance_to(d->job.lease_expires_ms);
  s = this->stats({"q"});
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(s[0].ready, 2u);
  EXPECT_EQ(s[0].in_flight, 0u);
  EXPECT_EQ(s[0].oldest_due_at_ms, now - 50);
}

TYPED_TEST(QueueStatsConformance, NoQueuesNoStats) { EXPECT_TRUE(this->stats({}).empty()); }

}  // namespace
}  // namespace reactor::conformance
