#include "storage/redis/scripts.hpp"

#include <map>
#include <stdexcept>

#include "storage/redis/embedded_scripts.hpp"

namespace reactor::redis {

namespace {

struct ScriptInfo {
  const char* name;  // the name of its file, scripts/<name>-<numKeys>.lua
  // The store-wide keys it touches by name (after the prefix): its KEYS[2...], before the keys
  // a call knows (script_keys()). The script's header lists the same, in the same order.
  std::vector<std::string_view> store_keys;
};

const std::map<ScriptId, ScriptInfo>& infos() {
  static const std::map<ScriptId, ScriptInfo> kInfos = {
      {ScriptId::kInit, {"init", {"layout_version"}}},
      {ScriptId::kCommit,
       {"commit",
        {"runs", "reactors", "ereactors", "expiring", "job_ids", "holds", "periods", "chains"}}},
      {ScriptId::kStepCommit, {"step_commit", {"reactors", "expiring"}}},
      {ScriptId::kFetch, {"fetch", {"fencing_token"}}},
      {ScriptId::kCommitThenFetch,
       {"commit_then_fetch",
        {"runs", "reactors", "ereactors", "expiring", "job_ids", "fencing_token", "holds",
         "periods", "chains"}}},
      {ScriptId::kFinishCommit, {"finish_commit", {"reactors", "expiring"}}},
      {ScriptId::kFinishCommitThenFetch,
       {"finish_commit_then_fetch", {"reactors", "expiring", "fencing_token"}}},
      {ScriptId::kCreateRuns, {"create_runs", {"job_ids", "reactors", "expiring"}}},
      {ScriptId::kReleaseJob, {"release_job", {}}},
      {ScriptId::kAcquireLease, {"acquire_lease", {"fencing_token", "leases"}}},
      {ScriptId::kExtendLease, {"extend_lease", {"leases"}}},
      {ScriptId::kReleaseLease, {"release_lease", {"leases"}}},
      {ScriptId::kPeekLease, {"peek_lease", {}}},
      {ScriptId::kSeizeLease, {"seize_lease", {"fencing_token", "leases"}}},
      {ScriptId::kLoadHeader, {"load_header", {"runs"}}},
      {ScriptId::kListRuns, {"list_runs", {"reactors", "ereactors"}}},
      {ScriptId::kCountRuns, {"count_runs", {"reactors", "ereactors"}}},
      {ScriptId::kFindOrphans, {"find_orphans", {"reactors", "ereactors"}}},
      {ScriptId::kPurgeExpired, {"purge_expired", {"runs", "expiring", "leases"}}},
      {ScriptId::kUpsertSchedule, {"upsert_schedule", {"schedules", "schedules_fired"}}},
      {ScriptId::kListSchedules, {"list_schedules", {"schedules", "schedules_fired"}}},
      {ScriptId::kMarkScheduleFired, {"mark_schedule_fired", {"schedules", "schedules_fired"}}},
      {ScriptId::kTakeHolds, {"take_holds", {"holds", "rates", "periods"}}},
      {ScriptId::kCoordination, {"coordination", {"holds", "rates", "periods", "chains"}}},
      {ScriptId::kOrderedChain, {"ordered_chain", {}}},
      {ScriptId::kQueueStats, {"queue_stats", {}}},
  };
  return kInfos;
}

const EmbeddedScript& embedded(ScriptId id) {
  static const std::map<ScriptId, const EmbeddedScript*> kEmbedded = [] {
    std::map<ScriptId, const EmbeddedScript*> found;
    for (const auto& [script, info] : infos()) {
      for (const EmbeddedScript& e : embedded_scripts()) {
        if (e.name == info.name) found[script] = &e;
      }
      // A build whose scripts/ lacks the file: every Backend that opens fails at once.
      if (!found.contains(script)) {
        throw std::logic_error(std::string("no embedded Lua script ") + info.name + "-<n>.lua");
      }
    }
    return found;
  }();
  return *kEmbedded.at(id);
}

}  // namespace

const std::vector<ScriptId>& all_scripts() {
  static const std::vector<ScriptId> kAll = [] {
    std::vector<ScriptId> ids;
    for (const auto& [id, info] : infos()) ids.push_back(id);
    return ids;
  }();
  return kAll;
}

const char* script_name(ScriptId id) { return infos().at(id).name; }

const std::string& script_source(ScriptId id) {
  static const std::map<ScriptId, std::string> kSources = [] {
    std::map<ScriptId, std::string> sources;
    for (ScriptId script : all_scripts()) sources[script] = std::string(embedded(script).source);
    return sources;
  }();
  return kSources.at(id);
}

std::size_t script_num_keys(ScriptId id) { return embedded(id).num_keys; }

std::vector<std::string> script_keys(ScriptId id, const std::string& prefix,
                                     const std::vector<std::string>& known) {
  const std::vector<std::string_view>& store_keys = infos().at(id).store_keys;
  std::vector<std::string> keys;
  keys.reserve(1 + store_keys.size() + known.size());
  keys.push_back(prefix);
  for (std::string_view name : store_keys) keys.push_back(prefix + std::string(name));
  for (const std::string& name : known) keys.push_back(prefix + name);
  return keys;
}

}  // namespace reactor::redis
