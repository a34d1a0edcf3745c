#include "storage/commit_check.hpp"
#include "storage/commit_refusals.hpp"
#include "storage/map_settle.hpp"
#include "storage/memory/backend.hpp"
#include "storage/storage_time.hpp"

namespace reactor {

Status MemoryBackend::commit(const CommitRequest& c) {
  if (Status s = storage::check_commit(c); !s.ok()) return s;
  std::lock_guard lock(mu_);
  const std::int64_t now = storage::now_ms(*clock_);

  // Fence first: every write below happens only if this writer's token is still the newest.
  // Nothing below can fail, so the commit is all or nothing.
  Lease* run_lease = nullptr;
  if (c.fencing_token != 0) {
    auto it = leases_.find(run_lease_key(c.root_id));
    if (it == leases_.end() || it->second.token != c.fencing_token) {
      return storage::fenced_out(c.root_id, c.fencing_token);
    }
    run_lease = &it->second;
  }
  // A start never overwrites a run.
  if (c.create) {
    for (const auto& h : c.headers) {
      if (h.parent_id.empty() && runs_.count(h.id)) {
        return storage::run_exists(h.id);
      }
    }
  }

  if (storage::is_progress(c)) run_deliveries_.erase(c.root_id);
  write_rows(c);
  write_jobs(c, now);
  for (const auto& m : c.maps) maps_[m.map_id] = m;
  if (c.settle && apply_settle(*c.settle, now)) map_settled_.notify_all();
  storage::apply_commit_holds(holds_, c);
  ack_and_release(c, run_lease, now);
  return Status::Ok();
}

void MemoryBackend::write_rows(const CommitRequest& c) {
  for (const auto& h : c.headers) runs_[h.id] = h;
  for (const auto& i : c.inputs) inputs_.emplace(i.run_id, i.inputs);
  for (const auto& s : c.steps) steps_[{s.run_id, s.index}] = s.body;
  for (const auto& t : c.trace) trace_.emplace(std::make_pair(t.root_id, t.seq), t.body);
}

void MemoryBackend::write_jobs(const CommitRequest& c, std::int64_t now) {
  for (const auto& spec : c.enqueue) {
    Job job;
    job.id = next_job_id_++;
    job.spec = spec;
    jobs_.emplace(job.id, std::move(job));
  }
  for (const auto& spec : c.redeliver) {
    bool has_job = false;
    for (auto& [id, job] : jobs_) {
      if (job.spec.run_id != spec.run_id) continue;
      has_job = true;
      if (job.lease_owner.empty()) continue;
      job.lease_owner.clear();
      job.lease_expires_ms = 0;
      job.spec.run_at_ms = std::min(job.spec.run_at_ms, now);
    }
    if (!has_job) {
      Job job;
      job.id = next_job_id_++;
      job.spec = spec;
      jobs_.emplace(job.id, std::move(job));
    }
  }
}

void MemoryBackend::ack_and_release(const CommitRequest& c, Lease* run_lease, std::int64_t now) {
  if (c.ack_job) {
    auto it = jobs_.find(*c.ack_job);
    if (it != jobs_.end() &&
        (it->second.lease_owner.empty() || it->second.lease_owner == c.ack_owner)) {
      jobs_.erase(it);
    }
  }
  if (c.release_lease && run_lease && run_lease->owner == c.lease_owner && !c.lease_owner.empty()) {
    run_lease->owner.clear();
    run_lease->expires_at_ms = now;
  }
}

bool MemoryBackend::apply_settle(const MapSettle& settle, std::int64_t now) {
  if (settle.slots.empty()) return false;
  auto map = maps_.find(settle.slots.front().map_id);
  if (map == maps_.end()) return false;  // purged with its owner: nothing waits for it
  MapRow& m = map->second;
  for (const MapSlotRow& slot : settle.slots) {
    auto [it, fresh] = slots_.try_emplace({slot.map_id, slot.index}, slot);
    std::optional<SlotState> before;
    if (!fresh) {
      before = it->second.state;
      it->second = slot;
    }
    storage::count_slot(m, before, slot);
  }
  const storage::SettleOutcome out = storage::release_and_settle(m);
  for (std::uint32_t first : out.releases) {
    const std::string id = claim_run_id(m, first);
    if (auto run = runs_.find(id); run != runs_.end()) {
      run->second.status = RunStatus::kEnqueued;
      run->second.updated_at_ms = now;
    }
    Job job;
    job.id = next_job_id_++;
    job.spec = JobSpec{m.queue, JobKind::kStart, id, m.element_reactor, now, 0};
    jobs_.emplace(job.id, std::move(job));
  }
  if (out.settled) {
    Job job;
    job.id = next_job_id_++;
    job.spec = JobSpec{m.queue, JobKind::kResume, m.owner_id, m.owner_reactor, now, 0};
    jobs_.emplace(job.id, std::move(job));
    if (auto owner = runs_.find(m.owner_id);
        owner != runs_.end() && owner->second.status == RunStatus::kWaiting) {
      owner->second.wake_at_ms = now;
    }
  }
  return out.settled;
}

}  // namespace reactor
