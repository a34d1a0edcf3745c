// BackendWrapper: a Backend that forwards every call to another one (after
// LevelDB's EnvWrapper). Derive from it and override only the calls to
// observe or alter — count commits, time fetches, inject a failure — and
// every other rule stays the wrapped backend's. This is where a metrics or
// tracing layer hooks store calls.
//
// Every method forwards, the combined ones included (commit_then_fetch,
// wait_then_fetch), so the wrapped backend keeps its one-round-trip paths. A
// wrapper that must see every commit overrides commit_then_fetch too (calling
// Backend::commit_then_fetch there makes it a commit() then a fetch()).
//
// Thread safety: as the wrapped backend's; overrides must be as safe.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "reactor/backend.hpp"

namespace reactor {

class BackendWrapper : public Backend {
 public:
  // Owns `target`, which must not be null.
  explicit BackendWrapper(std::unique_ptr<Backend> target);
  // Shares `target` (e.g. with an engine that uses it unwrapped too).
  explicit BackendWrapper(std::shared_ptr<Backend> target);

  Backend& target() const { return *target_; }

  std::string describe() const override;
  Status commit(const CommitRequest& c) override;
  Result<std::optional<Delivery>> commit_then_fetch(const CommitRequest& c,
                                                    const FetchRequest& f) override;
  std::uint64_t round_trips() const override;

  Result<StoredRun> load_run(const std::string& root_id) override;
  Result<RunHeaderRow> load_header(const std::string& run_id) override;
  Result<std::vector<RunHeaderRow>> list_runs(const RunFilter& filter) override;
  Result<std::size_t> count_runs(const RunFilter& filter) override;
  Result<std::vector<RunHeaderRow>> find_orphans(std::size_t limit) override;
  Result<std::size_t> purge_expired(std::size_t limit) override;

  Result<std::optional<Delivery>> fetch(const FetchRequest& f) override;
  Status wait_for_jobs(const std::vector<std::string>& queues, Duration max_wait) override;
  Result<std::optional<Delivery>> wait_then_fetch(const FetchRequest& f,
                                                  Duration max_wait) override;
  bool wakes_waiters() const override;
  void interrupt_waits() override;
  Status release_job(std::int64_t job_id, const std::string& owner, Duration delay) override;
  Result<bool> has_job(const std::string& run_id) override;
  Result<std::vector<QueueStats>> queue_stats(const std::vector<std::string>& queues) override;

  Result<LeaseGrant> acquire_lease(const std::string& key, const std::string& owner,
                                   Duration ttl) override;
  Status extend_lease(const std::string& key, const std::string& owner, std::uint64_t token,
                      Duration ttl) override;
  Status release_lease(const std::string& key, const std::string& owner,
                       std::uint64_t token) override;
  Result<Lease> peek_lease(const std::string& key) override;
  Result<Lease> seize_lease(const std::string& key, const std::string& owner,
                            Duration ttl) override;

  Result<MapRow> load_map(const std::string& map_id) override;
  Result<std::vector<MapSlotRow>> load_map_slots(const std::string& map_id, std::uint32_t first,
                                                 std::uint32_t limit) override;
  Result<bool> wait_for_settle(const std::string& map_id, Duration max_wait) override;

  Status upsert_schedule(const ScheduleRow& row) override;
  Result<std::vector<ScheduleRow>> list_schedules() override;
  Status mark_schedule_fired(const std::string& name, std::int64_t period_ms) override;
  Result<TakeResult> take_holds(const TakeRequest& r) override;
  Result<CoordinationView> coordination() override;
  Result<OrderedChainRow> ordered_peek(const std::string& key) override;
  Result<OrderedChainRow> ordered_skip(const std::string& key) override;
  Result<OrderedChainRow> ordered_reset(const std::string& key) override;

 private:
  std::shared_ptr<Backend> target_;
};

}  // namespace reactor
