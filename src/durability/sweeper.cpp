#include "durability/sweeper.hpp"

namespace reactor {

std::string sweeper_lease_key(TimePoint at, Duration interval) {
  return "sweeper:" + std::to_string(at.time_since_epoch() / interval);
}

Sweeper::Sweeper(Backend& backend, Clock& clock, Duration interval, std::size_t limit,
                 std::function<std::string(const std::string&)> queue_for)
    : backend_(backend),
      clock_(clock),
      interval_(interval),
      limit_(limit),
      queue_for_(std::move(queue_for)) {}

SweepReport Sweeper::sweep_if_due(const std::string& owner) {
  // The claim outlives its window, so nobody claims the same window again.
  Result<LeaseGrant> claim =
      backend_.acquire_lease(sweeper_lease_key(clock_.now(), interval_), owner, interval_ * 2);
  if (!claim.ok()) return SweepReport{false, 0, 0, claim.status()};
  if (!claim->granted) return SweepReport{};
  return sweep_now();
}

SweepReport Sweeper::sweep_now() {
  SweepReport report;
  report.swept = true;
  Result<std::vector<RunHeaderRow>> found = backend_.find_orphans(limit_);
  report.status = found.status();
  if (!report.status.ok()) return report;
  const std::vector<RunHeaderRow>& orphans = *found;
  const std::int64_t now = to_unix_ms(clock_.now());
  // Every orphan in one commit (one round trip per sweep): the job its dead worker held is
  // deliverable again at once, whatever its visibility timeout; a run with no job gets one.
  // A redelivery that races a live worker is harmless: the duplicate only snoozes on the
  // run's lease.
  if (!orphans.empty()) {
    CommitRequest c;
    for (const auto& run : orphans) {
      // A waiting run is woken when its suspension ends, not before; a scheduled one starts then.
      const bool later = run.status == RunStatus::kWaiting || run.status == RunStatus::kPaused ||
                         run.status == RunStatus::kScheduled;
      const std::int64_t due = later ? run.wake_at_ms : now;
      c.redeliver.push_back(
          JobSpec{queue_for_(run.reactor), JobKind::kResume, run.id, run.reactor, due, 0});
    }
    report.status = backend_.commit(c);
    if (!report.status.ok()) return report;
    report.requeued = orphans.size();
  }
  Result<std::size_t> purged = backend_.purge_expired(limit_);
  report.status = purged.status();
  if (purged.ok()) report.purged = *purged;
  return report;
}

}  // namespace reactor
