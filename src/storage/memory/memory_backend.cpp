#include "storage/memory/memory_backend.hpp"

#include <algorithm>
#include <tuple>
#include <unordered_set>

#include "storage/commit_check.hpp"
#include "storage/storage_time.hpp"

namespace reactor {

namespace {

bool is_root(const RunHeaderRow& h) { return h.parent_id.empty(); }

// Runs of this root: the root header itself and every header naming it as root.
bool belongs_to(const RunHeaderRow& h, const std::string& root_id) {
  return h.id == root_id || h.root_id == root_id;
}

}  // namespace

MemoryBackend::MemoryBackend(std::shared_ptr<Clock> clock, std::string url)
    : clock_(clock ? std::move(clock) : SystemClock::instance()), url_(std::move(url)) {}

std::string MemoryBackend::describe() const { return url_; }

bool MemoryBackend::lease_live(const Lease& l, std::int64_t now) const {
  return !l.owner.empty() && l.expires_at_ms > now;
}

bool MemoryBackend::try_acquire(const std::string& key, const std::string& owner,
                                std::int64_t ttl_ms, std::int64_t now, Lease& out) {
  auto it = leases_.find(key);
  if (it != leases_.end() && lease_live(it->second, now)) {
    out = it->second;
    return false;
  }
  Lease lease{key, owner, ++last_token_, now + ttl_ms};
  leases_[key] = lease;
  out = lease;
  return true;
}

bool MemoryBackend::run_has_job(const std::string& run_id) const {
  return std::any_of(jobs_.begin(), jobs_.end(),
                     [&](const auto& kv) { return kv.second.spec.run_id == run_id; });
}

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
      return Status::LeaseLost("run " + c.root_id + ": fencing token " +
                               std::to_string(c.fencing_token) + " is no longer the newest");
    }
    run_lease = &it->second;
  }

  for (const auto& h : c.headers) runs_[h.id] = h;
  for (const auto& i : c.inputs) inputs_.emplace(i.run_id, i.inputs);
  for (const auto& s : c.steps) steps_[{s.run_id, s.index}] = s.body;
  for (const auto& t : c.trace) trace_.emplace(std::make_pair(t.root_id, t.seq), t.body);
  for (const auto& spec : c.enqueue) {
    Job job;
    job.id = next_job_id_++;
    job.spec = spec;
    jobs_.emplace(job.id, std::move(job));
  }
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
  return Status::Ok();
}

Status MemoryBackend::load_run(const std::string& root_id, StoredRun& out) {
  std::lock_guard lock(mu_);
  return load_run_locked(root_id, out);
}

Status MemoryBackend::load_run_locked(const std::string& root_id, StoredRun& out) const {
  out = StoredRun{};
  auto root = runs_.find(root_id);
  if (root == runs_.end() || !is_root(root->second)) {
    return Status::NotFound("run " + root_id + " not found");
  }
  out.headers.push_back(root->second);
  for (const auto& [id, h] : runs_) {  // children by id
    if (id != root_id && belongs_to(h, root_id)) out.headers.push_back(h);
  }
  for (const auto& h : out.headers) {
    if (auto it = inputs_.find(h.id); it != inputs_.end()) out.inputs.push_back({h.id, it->second});
    for (auto it = steps_.lower_bound({h.id, 0}); it != steps_.end() && it->first.first == h.id;
         ++it) {
      out.steps.push_back({h.id, it->first.second, it->second});
    }
  }
  for (auto it = trace_.lower_bound({root_id, 0}); it != trace_.end() && it->first.first == root_id;
       ++it) {
    out.trace.push_back({root_id, it->first.second, it->second});
  }
  if (auto it = leases_.find(run_lease_key(root_id)); it != leases_.end()) {
    out.fencing_token = it->second.token;
  }
  return Status::Ok();
}

Status MemoryBackend::load_header(const std::string& run_id, RunHeaderRow& out) {
  std::lock_guard lock(mu_);
  auto it = runs_.find(run_id);
  if (it == runs_.end()) return Status::NotFound("run " + run_id + " not found");
  out = it->second;
  return Status::Ok();
}

Status MemoryBackend::list_runs(const RunFilter& filter, std::vector<RunHeaderRow>& out) {
  std::lock_guard lock(mu_);
  out.clear();
  for (const auto& [id, h] : runs_) {
    if (!is_root(h)) continue;
    if (filter.status && h.status != *filter.status) continue;
    if (filter.reactor && h.reactor != *filter.reactor) continue;
    out.push_back(h);
  }
  std::sort(out.begin(), out.end(), [](const RunHeaderRow& a, const RunHeaderRow& b) {
    return std::tie(a.updated_at_ms, a.id) > std::tie(b.updated_at_ms, b.id);
  });
  if (out.size() > filter.limit) out.resize(filter.limit);
  return Status::Ok();
}

Status MemoryBackend::fetch(const FetchRequest& f, std::optional<Delivery>& out) {
  const auto& [queues, owner, visibility, run_lease_ttl] = f;
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
  if (!best) return Status::Ok();

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
  }
  out = std::move(d);
  return Status::Ok();
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

Status MemoryBackend::has_job(const std::string& run_id, bool& out) {
  std::lock_guard lock(mu_);
  out = run_has_job(run_id);
  return Status::Ok();
}

Status MemoryBackend::acquire_lease(const std::string& key, const std::string& owner, Duration ttl,
                                    bool& granted, Lease& out) {
  if (key.empty() || owner.empty()) {
    return Status::InvalidArgument("acquire_lease: key and owner must not be empty");
  }
  std::lock_guard lock(mu_);
  granted = try_acquire(key, owner, storage::to_ms(ttl), storage::now_ms(*clock_), out);
  return Status::Ok();
}

Status MemoryBackend::extend_lease(const std::string& key, const std::string& owner,
                                   std::uint64_t token, Duration ttl) {
  std::lock_guard lock(mu_);
  auto it = leases_.find(key);
  if (it == leases_.end() || owner.empty() || it->second.owner != owner ||
      it->second.token != token) {
    return Status::LeaseLost("lease " + key + " is no longer held by " + owner + " (token " +
                             std::to_string(token) + ")");
  }
  it->second.expires_at_ms = storage::now_ms(*clock_) + storage::to_ms(ttl);
  return Status::Ok();
}

Status MemoryBackend::release_lease(const std::string& key, const std::string& owner,
                                    std::uint64_t token) {
  std::lock_guard lock(mu_);
  auto it = leases_.find(key);
  if (it != leases_.end() && !owner.empty() && it->second.owner == owner &&
      it->second.token == token) {
    it->second.owner.clear();
    it->second.expires_at_ms = storage::now_ms(*clock_);
  }
  return Status::Ok();
}

Status MemoryBackend::find_orphans(std::size_t limit, std::vector<RunHeaderRow>& out) {
  std::lock_guard lock(mu_);
  out.clear();
  const std::int64_t now = storage::now_ms(*clock_);
  for (const auto& [id, h] : runs_) {
    if (!is_root(h)) continue;
    bool orphan = false;
    if (h.status == RunStatus::kRunning || h.status == RunStatus::kRollingBack) {
      auto it = leases_.find(run_lease_key(id));
      orphan = it == leases_.end() || !lease_live(it->second, now);
    } else if (h.status == RunStatus::kEnqueued ||
               (h.status == RunStatus::kWaiting && h.wake_at_ms > 0)) {
      orphan = !run_has_job(id);
    }
    if (orphan) out.push_back(h);
  }
  std::sort(out.begin(), out.end(), [](const RunHeaderRow& a, const RunHeaderRow& b) {
    return std::tie(a.updated_at_ms, a.id) < std::tie(b.updated_at_ms, b.id);
  });
  if (out.size() > limit) out.resize(limit);
  return Status::Ok();
}

Status MemoryBackend::purge_expired(std::size_t limit, std::size_t& purged) {
  std::lock_guard lock(mu_);
  purged = 0;
  const std::int64_t now = storage::now_ms(*clock_);

  std::vector<const RunHeaderRow*> roots;
  for (const auto& [id, h] : runs_) {
    if (is_root(h) && is_terminal(h.status) && h.expires_at_ms > 0 && h.expires_at_ms <= now) {
      roots.push_back(&h);
    }
  }
  std::sort(roots.begin(), roots.end(), [](const RunHeaderRow* a, const RunHeaderRow* b) {
    return std::tie(a->expires_at_ms, a->id) < std::tie(b->expires_at_ms, b->id);
  });
  if (roots.size() > limit) roots.resize(limit);
  std::vector<std::string> root_ids;
  for (const auto* h : roots) root_ids.push_back(h->id);

  for (const auto& root_id : root_ids) {
    for (auto it = runs_.begin(); it != runs_.end();) {
      if (!belongs_to(it->second, root_id)) {
        ++it;
        continue;
      }
      const std::string& run_id = it->first;
      inputs_.erase(run_id);
      steps_.erase(steps_.lower_bound({run_id, 0}), steps_.lower_bound({run_id + '\0', 0}));
      it = runs_.erase(it);
    }
    trace_.erase(trace_.lower_bound({root_id, 0}), trace_.lower_bound({root_id + '\0', 0}));
    std::erase_if(jobs_, [&](const auto& kv) { return kv.second.spec.run_id == root_id; });
    if (auto it = leases_.find(run_lease_key(root_id));
        it != leases_.end() && !lease_live(it->second, now)) {
      leases_.erase(it);
    }
    ++purged;
  }
  // Expired or released leases on other keys (sweeper windows, user locks) are dead weight:
  // tokens come from one counter, so deleting a row never lets a token repeat.
  std::erase_if(leases_, [&](const auto& kv) {
    return kv.first.rfind("run:", 0) != 0 && !lease_live(kv.second, now);
  });
  return Status::Ok();
}

}  // namespace reactor
