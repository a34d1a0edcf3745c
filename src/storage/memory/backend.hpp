// MemoryBackend: the Backend contract held in maps under one mutex. For unit
// tests and inline mode; nothing survives the process. Expiry is judged by the
// injected Clock, so tests drive leases and visibility timeouts without sleeping.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>

#include "reactor/backend.hpp"
#include "storage/hold_rules.hpp"

namespace reactor {

class MemoryBackend final : public Backend {
 public:
  explicit MemoryBackend(std::shared_ptr<Clock> clock, std::string url = "memory:");

  std::string describe() const override;
  Status commit(const CommitRequest& c) override;
  Result<StoredRun> load_run(const std::string& root_id) override;
  Result<RunHeaderRow> load_header(const std::string& run_id) override;
  Result<std::vector<RunHeaderRow>> list_runs(const RunFilter& filter) override;
  Result<std::size_t> count_runs(const RunFilter& filter) override;
  Result<std::optional<Delivery>> fetch(const FetchRequest& f) override;
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
  Result<std::vector<RunHeaderRow>> find_orphans(std::size_t limit) override;
  Result<std::size_t> purge_expired(std::size_t limit) override;
  Result<MapRow> load_map(const std::string& map_id) override;
  Result<std::vector<MapSlotRow>> load_map_slots(const std::string& map_id, std::uint32_t first,
                                                 std::uint32_t limit) override;
  // Waits on a condition variable that a settling commit notifies; max_wait
  // is real time (the injected Clock judges expiry, not how long a caller blocks).
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
  // All helpers expect mu_ held.
  bool lease_live(const Lease& l, std::int64_t now) const;
  bool try_acquire(const std::string& key, const std::string& owner, std::int64_t ttl_ms,
                   std::int64_t now, Lease& out);
  bool run_has_job(const std::string& run_id) const;
  Status load_run_locked(const std::string& root_id, StoredRun& out) const;
  // The writes of a commit past its checks (commit.cpp): its rows; its jobs and redeliveries;
  // the ack of its job and the release of its run lease (`run_lease`: the fenced commit's).
  void write_rows(const CommitRequest& c);
  void write_jobs(const CommitRequest& c, std::int64_t now);
  void ack_and_release(const CommitRequest& c, Lease* run_lease, std::int64_t now);
  // Whether the settle settled its map.
  bool apply_settle(const MapSettle& settle, std::int64_t now);
  void purge_tree(const std::string& root_id, std::int64_t now);
  // The runs as the coordination rules see them (holds.cpp).
  storage::RunFacts facts_locked(std::int64_t now) const;

  const std::shared_ptr<Clock> clock_;
  const std::string url_;

  mutable std::mutex mu_;
  std::map<std::string, RunHeaderRow> runs_;                            // by run id
  std::map<std::string, std::string> inputs_;                           // run id -> inputs
  std::map<std::pair<std::string, std::uint32_t>, std::string> steps_;  // (run, idx) -> body
  std::map<std::pair<std::string, std::uint64_t>, std::string> trace_;  // (root, seq) -> body
  std::map<std::int64_t, Job> jobs_;                                    // by id = enqueue order
  std::map<std::string, Lease> leases_;  // owner empty = released; the token stays
  // Root run id -> deliveries since its last progress (Delivery::run_deliveries); absent: 0.
  std::map<std::string, int> run_deliveries_;
  std::map<std::string, MapRow> maps_;                                 // by map id
  std::map<std::pair<std::string, std::uint32_t>, MapSlotRow> slots_;  // (map, index)
  std::map<std::string, ScheduleRow> schedules_;                       // by name
  storage::HoldState holds_;                                           // every key's
  std::condition_variable map_settled_;  // notified by a commit that settles a map
  std::int64_t next_job_id_ = 1;
  // One counter for every key: a token is never reused, even for a lease row
  // that was deleted and created again.
  std::uint64_t last_token_ = 0;
};

}  // namespace reactor
