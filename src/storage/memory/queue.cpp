#include <unordered_set>

#include "storage/memory/backend.hpp"
#include "storage/storage_time.hpp"

namespace reactor {

Result<std::optional<Delivery>> MemoryBackend::fetch(const FetchRequest& f) {
  std::optional<Delivery> out;
  const auto& [queues, owner, visibility, run_lease_ttl, worker] = f;
  out.reset();
  if (owner.empty()) return Status::InvalidArgument("fetch: owner must not be empty");
  std::lock_guard lock(mu_);
  const std::int64_t now = storage::now_ms(*clock_);
  const std::unordered_set<std::string> wanted(queues.begin(), queues.end());

  Job* best = nullptr;
  for (auto& [id, job] : jobs_) {
    if (job.spec.run_at_ms > now || !wanted.count(job.spec.queue)) continue;
    if (!job.lease_owner.empty() && job.lease_expires_ms > now) continue;  // in delivery
    if (!best || job.spec.run_at_ms < best->spec.run_at_ms) best = &job;   // ids ascend
  }
  if (!best) return out;

  best->lease_owner = owner;
  best->lease_expires_ms = now + storage::to_ms(visibility);
  best->deliveries += 1;

  Delivery d;
  d.job = *best;
  d.run_leased = try_acquire(run_lease_key(best->spec.run_id), owner, storage::to_ms(run_lease_ttl),
                             now, d.run_lease);
  if (StoredRun run; d.run_leased && load_run_locked(best->spec.run_id, run).ok()) {
    d.run = std::move(run);
    // An enqueued root (load_run found it) is filed as running by its
    // delivery (Delivery::run_started).
    RunHeaderRow& header = runs_.at(best->spec.run_id);
    if (header.status == RunStatus::kEnqueued) {
      header.status = RunStatus::kRunning;
      header.updated_at_ms = now;
      d.run_started = true;
    }
    header.exec_token = d.run_lease.token;  // who executes it from now on
    header.exec_worker = worker;
    d.run_deliveries = ++run_deliveries_[best->spec.run_id];
  }
  out = std::move(d);
  return out;
}

Status MemoryBackend::release_job(std::int64_t job_id, const std::string& owner, Duration delay) {
  std::lock_guard lock(mu_);
  auto it = jobs_.find(job_id);
  if (it == jobs_.end() || owner.empty() || it->second.lease_owner != owner) return Status::Ok();
  it->second.lease_owner.clear();
  it->second.lease_expires_ms = 0;
  it->second.spec.run_at_ms = storage::now_ms(*clock_) + storage::to_ms(delay);
  return Status::Ok();
}

Result<bool> MemoryBackend::has_job(const std::string& run_id) {
  bool out = false;
  std::lock_guard lock(mu_);
  out = run_has_job(run_id);
  return out;
}

}  // namespace reactor

namespace reactor {

Result<std::vector<QueueStats>> MemoryBackend::queue_stats(const std::vector<std::string>& queues) {
  std::lock_guard lock(mu_);
  const std::int64_t now = storage::now_ms(*clock_);
  std::vector<QueueStats> out;
  std::map<std::string, std::size_t> at;
  for (const std::string& q : queues) {
    at.emplace(q, out.size());
    out.push_back(QueueStats{q, 0, 0, 0, 0, now});
  }
  for (const auto& [id, job] : jobs_) {
    auto it = at.find(job.spec.queue);
    if (it == at.end()) continue;
    QueueStats& s = out[it->second];
    if (!job.lease_owner.empty() && job.lease_expires_ms > now) {
      ++s.in_flight;
    } else if (job.spec.run_at_ms > now) {
      ++s.delayed;
    } else {
      ++s.ready;
      if (s.oldest_due_at_ms == 0 || job.spec.run_at_ms < s.oldest_due_at_ms) {
        s.oldest_due_at_ms = job.spec.run_at_ms;
      }
    }
  }
  return out;
}

}  // namespace reactor
