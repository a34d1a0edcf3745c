#include <algorithm>
#include <chrono>
#include <tuple>
#include <unordered_set>

#include "storage/memory/backend.hpp"
#include "storage/storage_time.hpp"

namespace reactor {

namespace {

// A run with records of its own: a root a caller started, or an element of a fan-out map.
bool is_root(const RunHeaderRow& h) { return h.root_id == h.id; }

// What a listing shows: roots callers started, and element runs when asked.
bool listed(const RunHeaderRow& h, const RunFilter& filter) {
  if (!is_root(h) || (!filter.elements && !h.parent_id.empty())) return false;
  if (filter.status && h.status != *filter.status) return false;
  return !filter.reactor || h.reactor == *filter.reactor;
}

// Runs of this root: the root header itself and every header naming it as root.
bool belongs_to(const RunHeaderRow& h, const std::string& root_id) {
  return h.id == root_id || h.root_id == root_id;
}

// Ids under a root's prefix "<root>:": its maps, their element runs and everything theirs.
bool under(const std::string& id, const std::string& root_id) {
  return id.size() > root_id.size() && id.compare(0, root_id.size(), root_id) == 0 &&
         id[root_id.size()] == ':';
}

}  // namespace

Result<StoredRun> MemoryBackend::load_run(const std::string& root_id) {
  StoredRun out;
  std::lock_guard lock(mu_);
  if (Status s = load_run_locked(root_id, out); !s.ok()) return s;
  return out;
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

Result<RunHeaderRow> MemoryBackend::load_header(const std::string& run_id) {
  RunHeaderRow out;
  std::lock_guard lock(mu_);
  auto it = runs_.find(run_id);
  if (it == runs_.end()) return Status::NotFound("run " + run_id + " not found");
  out = it->second;
  return out;
}

Result<std::vector<RunHeaderRow>> MemoryBackend::list_runs(const RunFilter& filter) {
  std::vector<RunHeaderRow> out;
  std::lock_guard lock(mu_);
  out.clear();
  for (const auto& [id, h] : runs_) {
    if (listed(h, filter)) out.push_back(h);
  }
  std::sort(out.begin(), out.end(), [](const RunHeaderRow& a, const RunHeaderRow& b) {
    return std::tie(a.updated_at_ms, a.id) > std::tie(b.updated_at_ms, b.id);
  });
  if (out.size() > filter.limit) out.resize(filter.limit);
  return out;
}

Result<std::size_t> MemoryBackend::count_runs(const RunFilter& filter) {
  std::size_t out = 0;
  std::lock_guard lock(mu_);
  out = 0;
  for (const auto& [id, h] : runs_) {
    if (listed(h, filter)) ++out;
  }
  return out;
}

Result<std::vector<RunHeaderRow>> MemoryBackend::find_orphans(std::size_t limit) {
  std::vector<RunHeaderRow> out;
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
               ((h.status == RunStatus::kWaiting || h.status == RunStatus::kPaused ||
                 h.status == RunStatus::kScheduled) &&
                h.wake_at_ms > 0)) {
      orphan = !run_has_job(id);
    }
    if (orphan) out.push_back(h);
  }
  std::sort(out.begin(), out.end(), [](const RunHeaderRow& a, const RunHeaderRow& b) {
    return std::tie(a.updated_at_ms, a.id) < std::tie(b.updated_at_ms, b.id);
  });
  if (out.size() > limit) out.resize(limit);
  return out;
}

Result<std::size_t> MemoryBackend::purge_expired(std::size_t limit) {
  std::size_t purged = 0;
  std::lock_guard lock(mu_);
  purged = 0;
  const std::int64_t now = storage::now_ms(*clock_);

  // Roots callers started: an element run lives as long as its owner (docs/maps.md).
  std::vector<const RunHeaderRow*> roots;
  for (const auto& [id, h] : runs_) {
    if (is_root(h) && h.parent_id.empty() && is_terminal(h.status) && h.expires_at_ms > 0 &&
        h.expires_at_ms <= now) {
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
    purge_tree(root_id, now);
    ++purged;
  }
  // Expired or released leases on other keys (sweeper windows, user locks) are dead weight:
  // tokens come from one counter, so deleting a row never lets a token repeat.
  std::erase_if(leases_, [&](const auto& kv) {
    return kv.first.rfind("run:", 0) != 0 && !lease_live(kv.second, now);
  });
  return purged;
}

// Deletes a root's records and everything under its prefix: its maps and their element runs.
void MemoryBackend::purge_tree(const std::string& root_id, std::int64_t now) {
  std::vector<std::string> storage_roots{root_id};
  for (const auto& [id, h] : runs_) {
    if (is_root(h) && under(id, root_id)) storage_roots.push_back(id);
  }
  for (const std::string& storage_root : storage_roots) {
    for (auto it = runs_.begin(); it != runs_.end();) {
      if (!belongs_to(it->second, storage_root)) {
        ++it;
        continue;
      }
      const std::string& run_id = it->first;
      inputs_.erase(run_id);
      steps_.erase(steps_.lower_bound({run_id, 0}), steps_.lower_bound({run_id + '\0', 0}));
      it = runs_.erase(it);
    }
    trace_.erase(trace_.lower_bound({storage_root, 0}),
                 trace_.lower_bound({storage_root + '\0', 0}));
    std::erase_if(jobs_, [&](const auto& kv) { return kv.second.spec.run_id == storage_root; });
    run_deliveries_.erase(storage_root);
    if (auto it = leases_.find(run_lease_key(storage_root));
        it != leases_.end() && !lease_live(it->second, now)) {
      leases_.erase(it);
    }
  }
  std::erase_if(maps_, [&](const auto& kv) { return under(kv.first, root_id); });
  std::erase_if(slots_, [&](const auto& kv) { return under(kv.first.first, root_id); });
}

Result<MapRow> MemoryBackend::load_map(const std::string& map_id) {
  MapRow out;
  std::lock_guard lock(mu_);
  auto it = maps_.find(map_id);
  if (it == maps_.end()) return Status::NotFound("map " + map_id + " not found");
  out = it->second;
  return out;
}

Result<std::vector<MapSlotRow>> MemoryBackend::load_map_slots(const std::string& map_id,
                                                              std::uint32_t first,
                                                              std::uint32_t limit) {
  std::vector<MapSlotRow> out;
  std::lock_guard lock(mu_);
  out.clear();
  const std::uint64_t end = std::uint64_t{first} + limit;
  for (auto it = slots_.lower_bound({map_id, first});
       it != slots_.end() && it->first.first == map_id && it->first.second < end; ++it) {
    out.push_back(it->second);
  }
  return out;
}

Result<bool> MemoryBackend::wait_for_settle(const std::string& map_id, Duration max_wait) {
  std::unique_lock lock(mu_);
  auto read = [&]() -> Result<MapRow> {
    auto it = maps_.find(map_id);
    if (it == maps_.end()) return Status::NotFound("map " + map_id + " not found");
    return it->second;
  };
  auto block = [&](std::chrono::steady_clock::time_point deadline) {
    // In slices, so a wait for ever never hands the library an absolute time it may overflow.
    const auto now = std::chrono::steady_clock::now();
    map_settled_.wait_until(lock, std::min(deadline, now + std::chrono::hours(1)));
    return Status::Ok();
  };
  return storage::wait_until_settled(read, block, storage::wait_deadline(max_wait));
}

}  // namespace reactor
