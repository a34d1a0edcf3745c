#include "reactor/metered_backend.hpp"

#include <chrono>

namespace reactor {

MeteredBackend::MeteredBackend(std::shared_ptr<Backend> target,
                               std::shared_ptr<MetricsRegistry> registry)
    : BackendWrapper(std::move(target)), registry_(std::move(registry)) {
  registry_->counter("reactor_store_requests_total", "Store requests, by operation and outcome.",
                     {"operation", "outcome"});
  registry_->histogram(
      "reactor_store_request_duration_seconds", "Store request latency, by operation.",
      {"operation"}, {0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5});
}

template <typename F>
auto MeteredBackend::timed(const char* operation, F&& call) {
  const auto begin = std::chrono::steady_clock::now();
  auto out = call();
  const std::chrono::duration<double> took = std::chrono::steady_clock::now() - begin;
  registry_->add("reactor_store_requests_total", {operation, out.ok() ? "ok" : "error"});
  registry_->observe("reactor_store_request_duration_seconds", {operation}, took.count());
  return out;
}

Status MeteredBackend::commit(const CommitRequest& c) {
  return timed("commit", [&] { return BackendWrapper::commit(c); });
}

Result<std::optional<Delivery>> MeteredBackend::commit_then_fetch(const CommitRequest& c,
                                                                  const FetchRequest& f) {
  return timed("commit_then_fetch", [&] { return BackendWrapper::commit_then_fetch(c, f); });
}

Result<StoredRun> MeteredBackend::load_run(const std::string& root_id) {
  return timed("load_run", [&] { return BackendWrapper::load_run(root_id); });
}

Result<RunHeaderRow> MeteredBackend::load_header(const std::string& run_id) {
  return timed("load_header", [&] { return BackendWrapper::load_header(run_id); });
}

Result<std::vector<RunHeaderRow>> MeteredBackend::list_runs(const RunFilter& filter) {
  return timed("list_runs", [&] { return BackendWrapper::list_runs(filter); });
}

Result<std::size_t> MeteredBackend::count_runs(const RunFilter& filter) {
  return timed("count_runs", [&] { return BackendWrapper::count_runs(filter); });
}

Result<std::vector<RunHeaderRow>> MeteredBackend::find_orphans(std::size_t limit) {
  return timed("find_orphans", [&] { return BackendWrapper::find_orphans(limit); });
}

Result<std::size_t> MeteredBackend::purge_expired(std::size_t limit) {
  return timed("purge_expired", [&] { return BackendWrapper::purge_expired(limit); });
}

Result<std::optional<Delivery>> MeteredBackend::fetch(const FetchRequest& f) {
  return timed("fetch", [&] { return BackendWrapper::fetch(f); });
}

Status MeteredBackend::wait_for_jobs(const std::vector<std::string>& queues, Duration max_wait) {
  return timed("wait_for_jobs", [&] { return BackendWrapper::wait_for_jobs(queues, max_wait); });
}

Result<std::optional<Delivery>> MeteredBackend::wait_then_fetch(const FetchRequest& f,
                                                                Duration max_wait) {
  return timed("wait_then_fetch", [&] { return BackendWrapper::wait_then_fetch(f, max_wait); });
}

Status MeteredBackend::release_job(std::int64_t job_id, const std::string& owner, Duration delay) {
  return timed("release_job", [&] { return BackendWrapper::release_job(job_id, owner, delay); });
}

Result<bool> MeteredBackend::has_job(const std::string& run_id) {
  return timed("has_job", [&] { return BackendWrapper::has_job(run_id); });
}

Result<LeaseGrant> MeteredBackend::acquire_lease(const std::string& key, const std::string& owner,
                                                 Duration ttl) {
  return timed("acquire_lease", [&] { return BackendWrapper::acquire_lease(key, owner, ttl); });
}

Status MeteredBackend::extend_lease(const std::string& key, const std::string& owner,
                                    std::uint64_t token, Duration ttl) {
  return timed("extend_lease",
               [&] { return BackendWrapper::extend_lease(key, owner, token, ttl); });
}

Status MeteredBackend::release_lease(const std::string& key, const std::string& owner,
                                     std::uint64_t token) {
  return timed("release_lease", [&] { return BackendWrapper::release_lease(key, owner, token); });
}

Result<Lease> MeteredBackend::peek_lease(const std::string& key) {
  return timed("peek_lease", [&] { return BackendWrapper::peek_lease(key); });
}

Result<Lease> MeteredBackend::seize_lease(const std::string& key, const std::string& owner,
                                          Duration ttl) {
  return timed("seize_lease", [&] { return BackendWrapper::seize_lease(key, owner, ttl); });
}

Result<MapRow> MeteredBackend::load_map(const std::string& map_id) {
  return timed("load_map", [&] { return BackendWrapper::load_map(map_id); });
}

Result<std::vector<MapSlotRow>> MeteredBackend::load_map_slots(const std::string& map_id,
                                                               std::uint32_t first,
                                                               std::uint32_t limit) {
  return timed("load_map_slots",
               [&] { return BackendWrapper::load_map_slots(map_id, first, limit); });
}

Result<bool> MeteredBackend::wait_for_settle(const std::string& map_id, Duration max_wait) {
  return timed("wait_for_settle",
               [&] { return BackendWrapper::wait_for_settle(map_id, max_wait); });
}

Status MeteredBackend::upsert_schedule(const ScheduleRow& row) {
  return timed("upsert_schedule", [&] { return BackendWrapper::upsert_schedule(row); });
}

Result<std::vector<ScheduleRow>> MeteredBackend::list_schedules() {
  return timed("list_schedules", [&] { return BackendWrapper::list_schedules(); });
}

Status MeteredBackend::mark_schedule_fired(const std::string& name, std::int64_t period_ms) {
  return timed("mark_schedule_fired",
               [&] { return BackendWrapper::mark_schedule_fired(name, period_ms); });
}

Result<TakeResult> MeteredBackend::take_holds(const TakeRequest& r) {
  return timed("take_holds", [&] { return BackendWrapper::take_holds(r); });
}

Result<CoordinationView> MeteredBackend::coordination() {
  return timed("coordination", [&] { return BackendWrapper::coordination(); });
}

Result<OrderedChainRow> MeteredBackend::ordered_peek(const std::string& key) {
  return timed("ordered_peek", [&] { return BackendWrapper::ordered_peek(key); });
}

Result<OrderedChainRow> MeteredBackend::ordered_skip(const std::string& key) {
  return timed("ordered_skip", [&] { return BackendWrapper::ordered_skip(key); });
}

Result<OrderedChainRow> MeteredBackend::ordered_reset(const std::string& key) {
  return timed("ordered_reset", [&] { return BackendWrapper::ordered_reset(key); });
}
Result<std::vector<QueueStats>> MeteredBackend::queue_stats(
    const std::vector<std::string>& queues) {
  return timed("queue_stats", [&] { return BackendWrapper::queue_stats(queues); });
}

}  // namespace reactor
