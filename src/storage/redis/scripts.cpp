#include "storage/redis/scripts.hpp"

#include <map>
#include <stdexcept>

#include "storage/redis/embedded_scripts.hpp"

namespace reactor::redis {

namespace {

// Each script's name: the name of its file, scripts/<name>.lua.
const std::map<ScriptId, const char*>& names() {
  static const std::map<ScriptId, const char*> kNames = {
      {ScriptId::kInit, "init"},
      {ScriptId::kCommit, "commit"},
      {ScriptId::kStepCommit, "step_commit"},
      {ScriptId::kFetch, "fetch"},
      {ScriptId::kCommitThenFetch, "commit_then_fetch"},
      {ScriptId::kFinishCommit, "finish_commit"},
      {ScriptId::kFinishCommitThenFetch, "finish_commit_then_fetch"},
      {ScriptId::kCreateRuns, "create_runs"},
      {ScriptId::kReleaseJob, "release_job"},
      {ScriptId::kAcquireLease, "acquire_lease"},
      {ScriptId::kExtendLease, "extend_lease"},
      {ScriptId::kReleaseLease, "release_lease"},
      {ScriptId::kPeekLease, "peek_lease"},
      {ScriptId::kLoadRun, "load_run"},
      {ScriptId::kLoadHeader, "load_header"},
      {ScriptId::kListRuns, "list_runs"},
      {ScriptId::kCountRuns, "count_runs"},
      {ScriptId::kFindOrphans, "find_orphans"},
      {ScriptId::kPurgeExpired, "purge_expired"},
  };
  return kNames;
}

}  // namespace

const std::vector<ScriptId>& all_scripts() {
  static const std::vector<ScriptId> kAll = [] {
    std::vector<ScriptId> ids;
    for (const auto& [id, name] : names()) ids.push_back(id);
    return ids;
  }();
  return kAll;
}

const char* script_name(ScriptId id) { return names().at(id); }

const std::string& script_source(ScriptId id) {
  static const std::map<ScriptId, std::string> kSources = [] {
    std::map<ScriptId, std::string> sources;
    for (const auto& [script, name] : names()) {
      for (const EmbeddedScript& embedded : embedded_scripts()) {
        if (embedded.name == name) sources[script] = std::string(embedded.source);
      }
      // A build whose scripts/ lacks the file: every Backend that opens fails at once.
      if (!sources.contains(script)) {
        throw std::logic_error(std::string("no embedded Lua script ") + name + ".lua");
      }
    }
    return sources;
  }();
  return kSources.at(id);
}

}  // namespace reactor::redis
