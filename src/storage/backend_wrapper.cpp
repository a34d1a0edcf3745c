#include "reactor/backend_wrapper.hpp"

#include <stdexcept>

namespace reactor {

BackendWrapper::BackendWrapper(std::unique_ptr<Backend> target)
    : BackendWrapper(std::shared_ptr<Backend>(std::move(target))) {}

BackendWrapper::BackendWrapper(std::shared_ptr<Backend> target) : target_(std::move(target)) {
  if (!target_) throw std::invalid_argument("BackendWrapper: no backend to wrap");
}

std::string BackendWrapper::describe() const { return target_->describe(); }
Status BackendWrapper::commit(const CommitRequest& c) { return target_->commit(c); }
Result<std::optional<Delivery>> BackendWrapper::commit_then_fetch(const CommitRequest& c,
                                                                  const FetchRequest& f) {
  return target_->commit_then_fetch(c, f);
}
std::uint64_t BackendWrapper::round_trips() const { return target_->round_trips(); }

Result<StoredRun> BackendWrapper::load_run(const std::string& root_id) {
  return target_->load_run(root_id);
}
Result<RunHeaderRow> BackendWrapper::load_header(const std::string& run_id) {
  return target_->load_header(run_id);
}
Result<std::vector<RunHeaderRow>> BackendWrapper::list_runs(const RunFilter& filter) {
  return target_->list_runs(filter);
}
Result<std::size_t> BackendWrapper::count_runs(const RunFilter& filter) {
  return target_->count_runs(filter);
}
Result<std::vector<RunHeaderRow>> BackendWrapper::find_orphans(std::size_t limit) {
  return target_->find_orphans(limit);
}
Result<std::size_t> BackendWrapper::purge_expired(std::size_t limit) {
  return target_->purge_expired(limit);
}

Result<std::optional<Delivery>> BackendWrapper::fetch(const FetchRequest& f) {
  return target_->fetch(f);
}
Status BackendWrapper::wait_for_jobs(const std::vector<std::string>& queues, Duration max_wait) {
  return target_->wait_for_jobs(queues, max_wait);
}
Result<std::optional<Delivery>> BackendWrapper::wait_then_fetch(const FetchRequest& f,
                                                                Duration max_wait) {
  return target_->wait_then_fetch(f, max_wait);
}
bool BackendWrapper::wakes_waiters() const { return target_->wakes_waiters(); }
void BackendWrapper::interrupt_waits() { target_->interrupt_waits(); }
Status BackendWrapper::release_job(std::int64_t job_id, const std::string& owner, Duration delay) {
  return target_->release_job(job_id, owner, delay);
}
Result<bool> BackendWrapper::has_job(const std::string& run_id) { return target_->has_job(run_id); }
Result<std::vector<QueueStats>> BackendWrapper::queue_stats(
    const std::vector<std::string>& queues) {
  return target_->queue_stats(queues);
}

Result<LeaseGrant> BackendWrapper::acquire_lease(const std::string& key, const std::string& owner,
                                                 Duration ttl) {
  return target_->acquire_lease(key, owner, ttl);
}
Status BackendWrapper::extend_lease(const std::string& key, const std::string& owner,
                                    std::uint64_t token, Duration ttl) {
  return target_->extend_lease(key, owner, token, ttl);
}
Status BackendWrapper::release_lease(const std::string& key, const std::string& owner,
                                     std::uint64_t token) {
  return target_->release_lease(key, owner, token);
}

Result<Lease> BackendWrapper::peek_lease(const std::string& key) {
  return target_->peek_lease(key);
}

Result<Lease> BackendWrapper::seize_lease(const std::string& key, const std::string& owner,
                                          Duration ttl) {
  return target_->seize_lease(key, owner, ttl);
}

Result<MapRow> BackendWrapper::load_map(const std::string& map_id) {
  return target_->load_map(map_id);
}

Result<std::vector<MapSlotRow>> BackendWrapper::load_map_slots(const std::string& map_id,
                                                               std::uint32_t first,
                                                               std::uint32_t limit) {
  return target_->load_map_slots(map_id, first, limit);
}

Result<bool> BackendWrapper::wait_for_settle(const std::string& map_id, Duration max_wait) {
  return target_->wait_for_settle(map_id, max_wait);
}

Status BackendWrapper::upsert_schedule(const ScheduleRow& row) {
  return target_->upsert_schedule(row);
}

Result<std::vector<ScheduleRow>> BackendWrapper::list_schedules() {
  return target_->list_schedules();
}

Status BackendWrapper::mark_schedule_fired(const std::string& name, std::int64_t period_ms) {
  return target_->mark_schedule_fired(name, period_ms);
}

Result<TakeResult> BackendWrapper::take_holds(const TakeRequest& r) {
  return target_->take_holds(r);
}

Result<CoordinationView> BackendWrapper::coordination() { return target_->coordination(); }

Result<OrderedChainRow> BackendWrapper::ordered_peek(const std::string& key) {
  return target_->ordered_peek(key);
}

Result<OrderedChainRow> BackendWrapper::ordered_skip(const std::string& key) {
  return target_->ordered_skip(key);
}

Result<OrderedChainRow> BackendWrapper::ordered_reset(const std::string& key) {
  return target_->ordered_reset(key);
}

}  // namespace reactor
