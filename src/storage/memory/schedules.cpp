// Schedules in memory (reactor/schedule_store.hpp): a map by name.
#include "storage/memory/backend.hpp"

namespace reactor {

Status MemoryBackend::upsert_schedule(const ScheduleRow& row) {
  std::lock_guard lock(mu_);
  auto [it, inserted] = schedules_.try_emplace(row.name, row);
  if (!inserted) {
    const std::int64_t fired = it->second.last_fired_ms;
    it->second = row;
    it->second.last_fired_ms = fired;
  }
  return Status::Ok();
}

Result<std::vector<ScheduleRow>> MemoryBackend::list_schedules() {
  std::lock_guard lock(mu_);
  std::vector<ScheduleRow> out;
  out.reserve(schedules_.size());
  for (const auto& [name, row] : schedules_) out.push_back(row);
  return out;
}

Status MemoryBackend::mark_schedule_fired(const std::string& name, std::int64_t period_ms) {
  std::lock_guard lock(mu_);
  auto it = schedules_.find(name);
  if (it == schedules_.end()) return Status::NotFound("schedule '" + name + "' not found");
  it->second.last_fired_ms = std::max(it->second.last_fired_ms, period_ms);
  return Status::Ok();
}

}  // namespace reactor
