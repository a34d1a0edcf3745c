// CountingBackend: a BackendWrapper that counts every call of the Backend interface that
// reaches the store — what a process asks of it, on every store (Backend::round_trips() counts
// only a server's exchanges: Redis) — by kind, and can time the commits. `reactor-bench async`
// counts a dispatch with it, `reactor-bench coordination` what a lock costs a step.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <mutex>
#include <vector>

#include "reactor/backend_wrapper.hpp"

namespace reactor_bench {

// The kinds of call a report breaks the count down by.
enum class Call { kFetch, kCommit, kCommitThenFetch, kTakeHolds, kLease, kOther };
inline constexpr std::size_t kCallKinds = 6;
// "fetch", "commit", "commit+fetch", "take_holds", "lease", "other".
const char* to_string(Call c);

// How many calls of each kind; `b - a`: those between two snapshots.
struct CallCounts {
  std::array<std::uint64_t, kCallKinds> by{};
  std::uint64_t total() const;
  std::uint64_t of(Call c) const { return by[static_cast<std::size_t>(c)]; }
  CallCounts operator-(const CallCounts& earlier) const;
};

class CountingBackend final : public reactor::BackendWrapper {
 public:
  using BackendWrapper::BackendWrapper;
  std::uint64_t requests() const { return counts().total(); }
  CallCounts counts() const;
  // From now on (or no longer), the wall time of every commit() and commit_then_fetch() is
  // kept, in microseconds; take_commit_us() hands over those kept so far.
  void time_commits(bool on) { timing_ = on; }
  struct CommitTimes {
    std::vector<double> commit_us, commit_then_fetch_us;
  };
  CommitTimes take_commit_us();

  reactor::Status commit(const reactor::CommitRequest& c) override;
  reactor::Result<std::optional<reactor::Delivery>> commit_then_fetch(
      const reactor::CommitRequest& c, const reactor::FetchRequest& f) override;
  reactor::Result<reactor::StoredRun> load_run(const std::string& id) override;
  reactor::Result<reactor::RunHeaderRow> load_header(const std::string& id) override;
  reactor::Result<std::vector<reactor::RunHeaderRow>> list_runs(
      const reactor::RunFilter& filter) override;
  reactor::Result<std::size_t> count_runs(const reactor::RunFilter& filter) override;
  reactor::Result<std::vector<reactor::RunHeaderRow>> find_orphans(std::size_t limit) override;
  reactor::Result<std::size_t> purge_expired(std::size_t limit) override;
  reactor::Result<std::optional<reactor::Delivery>> fetch(const reactor::FetchRequest& f) override;
  reactor::Status wait_for_jobs(const std::vector<std::string>& queues,
                                reactor::Duration max_wait) override;
  reactor::Result<std::optional<reactor::Delivery>> wait_then_fetch(
      const reactor::FetchRequest& f, reactor::Duration max_wait) override;
  reactor::Status release_job(std::int64_t job_id, const std::string& owner,
                              reactor::Duration delay) override;
  reactor::Result<bool> has_job(const std::string& id) override;
  reactor::Result<reactor::LeaseGrant> acquire_lease(const std::string& key,
                                                     const std::string& owner,
                                                     reactor::Duration ttl) override;
  reactor::Status extend_lease(const std::string& key, const std::string& owner,
                               std::uint64_t token, reactor::Duration ttl) override;
  reactor::Status release_lease(const std::string& key, const std::string& owner,
                                std::uint64_t token) override;
  reactor::Result<reactor::Lease> peek_lease(const std::string& key) override;
  reactor::Result<reactor::Lease> seize_lease(const std::string& key, const std::string& owner,
                                              reactor::Duration ttl) override;
  reactor::Result<reactor::MapRow> load_map(const std::string& id) override;
  reactor::Result<std::vector<reactor::MapSlotRow>> load_map_slots(const std::string& id,
                                                                   std::uint32_t first,
                                                                   std::uint32_t limit) override;
  reactor::Result<bool> wait_for_settle(const std::string& id, reactor::Duration max_wait) override;
  reactor::Status upsert_schedule(const reactor::ScheduleRow& row) override;
  reactor::Result<std::vector<reactor::ScheduleRow>> list_schedules() override;
  reactor::Status mark_schedule_fired(const std::string& name, std::int64_t period_ms) override;
  reactor::Result<reactor::TakeResult> take_holds(const reactor::TakeRequest& r) override;
  reactor::Result<reactor::CoordinationView> coordination() override;
  reactor::Result<reactor::OrderedChainRow> ordered_peek(const std::string& key) override;
  reactor::Result<reactor::OrderedChainRow> ordered_skip(const std::string& key) override;
  reactor::Result<reactor::OrderedChainRow> ordered_reset(const std::string& key) override;

 private:
  template <class T>
  T count(Call c, T s) {
    n_[static_cast<std::size_t>(c)].fetch_add(1, std::memory_order_relaxed);
    return s;
  }
  void keep(std::vector<double> CommitTimes::*which, double us);

  std::array<std::atomic<std::uint64_t>, kCallKinds> n_{};
  std::atomic<bool> timing_{false};
  std::mutex mu_;
  CommitTimes times_;
};

}  // namespace reactor_bench
