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
Status BackendWrapper::commit_then_fetch(const CommitRequest& c, const FetchRequest& f,
                                         std::optional<Delivery>& next) {
  return target_->commit_then_fetch(c, f, next);
}
std::uint64_t BackendWrapper::round_trips() const { return target_->round_trips(); }

Status BackendWrapper::load_run(const std::string& root_id, StoredRun& out) {
  return target_->load_run(root_id, out);
}
Status BackendWrapper::load_header(const std::string& run_id, RunHeaderRow& out) {
  return target_->load_header(run_id, out);
}
Status BackendWrapper::list_runs(const RunFilter& filter, std::vector<RunHeaderRow>& out) {
  return target_->list_runs(filter, out);
}
Status BackendWrapper::count_runs(const RunFilter& filter, std::size_t& out) {
  return target_->count_runs(filter, out);
}
Status BackendWrapper::find_orphans(std::size_t limit, std::vector<RunHeaderRow>& out) {
  return target_->find_orphans(limit, out);
}
Status BackendWrapper::purge_expired(std::size_t limit, std::size_t& purged) {
  return target_->purge_expired(limit, purged);
}

Status BackendWrapper::fetch(const FetchRequest& f, std::optional<Delivery>& out) {
  return target_->fetch(f, out);
}
Status BackendWrapper::wait_for_jobs(const std::vector<std::string>& queues, Duration max_wait) {
  return target_->wait_for_jobs(queues, max_wait);
}
Status BackendWrapper::wait_then_fetch(const FetchRequest& f, Duration max_wait,
                                       std::optional<Delivery>& out) {
  return target_->wait_then_fetch(f, max_wait, out);
}
bool BackendWrapper::wakes_waiters() const { return target_->wakes_waiters(); }
Status BackendWrapper::release_job(std::int64_t job_id, const std::string& owner, Duration delay) {
  return target_->release_job(job_id, owner, delay);
}
Status BackendWrapper::has_job(const std::string& run_id, bool& out) {
  return target_->has_job(run_id, out);
}

Status BackendWrapper::acquire_lease(const std::string& key, const std::string& owner, Duration ttl,
                                     bool& granted, Lease& out) {
  return target_->acquire_lease(key, owner, ttl, granted, out);
}
Status BackendWrapper::extend_lease(const std::string& key, const std::string& owner,
                                    std::uint64_t token, Duration ttl) {
  return target_->extend_lease(key, owner, token, ttl);
}
Status BackendWrapper::release_lease(const std::string& key, const std::string& owner,
                                     std::uint64_t token) {
  return target_->release_lease(key, owner, token);
}

Status BackendWrapper::peek_lease(const std::string& key, Lease& out) {
  return target_->peek_lease(key, out);
}

Status BackendWrapper::load_map(const std::string& map_id, MapRow& out) {
  return target_->load_map(map_id, out);
}

Status BackendWrapper::load_map_slots(const std::string& map_id, std::uint32_t first,
                                      std::uint32_t limit, std::vector<MapSlotRow>& out) {
  return target_->load_map_slots(map_id, first, limit, out);
}

Status BackendWrapper::wait_for_settle(const std::string& map_id, Duration max_wait,
                                       bool& settled) {
  return target_->wait_for_settle(map_id, max_wait, settled);
}

}  // namespace reactor
