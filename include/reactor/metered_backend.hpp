// MeteredBackend: a BackendWrapper (reactor/backend_wrapper.hpp) that counts every store
// request and times it in a MetricsRegistry (reactor/metrics.hpp):
//   reactor_store_requests_total{operation,outcome}   outcome "ok" or "error"
//   reactor_store_request_duration_seconds{operation}  (a blocking wait_for_jobs counts its wait)
// `operation` is the Backend method's name. Everything else is the wrapped backend's.
//
//   auto store = reactor::open_backend(url, nullptr);
//   auto metered = std::make_shared<reactor::MeteredBackend>(std::move(store).value(), metrics);
//   reactor::Engine engine({.backend = metered});
//
// Thread safety: as the wrapped backend's; the counting is thread-safe.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "reactor/backend_wrapper.hpp"
#include "reactor/metrics.hpp"

namespace reactor {

class MeteredBackend final : public BackendWrapper {
 public:
  MeteredBackend(std::shared_ptr<Backend> target, std::shared_ptr<MetricsRegistry> registry);

  Status commit(const CommitRequest& c) override;
  Result<std::optional<Delivery>> commit_then_fetch(const CommitRequest& c,
                                                    const FetchRequest& f) override;
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
  template <typename F>
  auto timed(const char* operation, F&& call);

  std::shared_ptr<MetricsRegistry> registry_;
};

}  // namespace reactor
