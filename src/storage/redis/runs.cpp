#include "storage/redis/backend.hpp"
#include "storage/redis/call.hpp"
#include "storage/redis/reply.hpp"
#include "storage/redis/wire.hpp"

namespace reactor {

using redis::count_arg;
using redis::decode_header;
using redis::decode_headers;
using redis::element;
using redis::integer;
using redis::read_stored_run;
using redis::ScriptId;
using redis::text;

Status RedisBackend::load_run(const std::string& root_id, StoredRun& out) {
  out = StoredRun{};
  StoredRun run_rows;
  Status s = run(ScriptId::kLoadRun, {root_id},
                 [&](const redisReply& r) { return read_stored_run(root_id, r, run_rows); });
  if (s.ok()) out = std::move(run_rows);
  return s;
}

Status RedisBackend::load_header(const std::string& run_id, RunHeaderRow& out) {
  return run(ScriptId::kLoadHeader, {run_id}, [&](const redisReply& r) {
    if (r.type == REDIS_REPLY_NIL) return Status::NotFound("run " + run_id + " not found");
    return decode_header("run header " + run_id, text(r), out);
  });
}

Status RedisBackend::list_runs(const RunFilter& filter, std::vector<RunHeaderRow>& out) {
  out.clear();
  std::vector<std::string> args = {filter.status ? to_string(*filter.status) : "",
                                   filter.reactor ? *filter.reactor : "", count_arg(filter.limit)};
  // Without a status, the script reads the index of every status.
  if (!filter.status) {
    for (RunStatus status : all_run_statuses()) args.push_back(to_string(status));
  }
  std::vector<RunHeaderRow> rows;
  Status s =
      run(ScriptId::kListRuns, args, [&](const redisReply& r) { return decode_headers(r, rows); });
  if (s.ok()) out = std::move(rows);
  return s;
}

Status RedisBackend::count_runs(const RunFilter& filter, std::size_t& out) {
  out = 0;
  std::vector<std::string> args = {filter.status ? to_string(*filter.status) : "",
                                   filter.reactor ? *filter.reactor : ""};
  // Without a status, the script counts the index of every status.
  if (!filter.status) {
    for (RunStatus status : all_run_statuses()) args.push_back(to_string(status));
  }
  return run(ScriptId::kCountRuns, args, [&](const redisReply& r) {
    out = static_cast<std::size_t>(integer(r));
    return Status::Ok();
  });
}

Status RedisBackend::find_orphans(std::size_t limit, std::vector<RunHeaderRow>& out) {
  out.clear();
  std::vector<RunHeaderRow> rows;
  Status s =
      run(ScriptId::kFindOrphans,
          {count_arg(limit), to_string(RunStatus::kRunning), to_string(RunStatus::kRollingBack),
           to_string(RunStatus::kEnqueued), to_string(RunStatus::kWaiting)},
          [&](const redisReply& r) { return decode_headers(r, rows); });
  if (s.ok()) out = std::move(rows);
  return s;
}

Status RedisBackend::purge_expired(std::size_t limit, std::size_t& purged) {
  purged = 0;
  return run(ScriptId::kPurgeExpired, {count_arg(limit)}, [&](const redisReply& r) {
    purged = static_cast<std::size_t>(integer(r));
    return Status::Ok();
  });
}

// TEMPORARY: fan-out maps on Redis come with the next commit.
Status RedisBackend::load_map(const std::string& map_id, MapRow&) {
  return Status::NotFound("map " + map_id + " not found");
}

Status RedisBackend::load_map_slots(const std::string&, std::uint32_t, std::uint32_t,
                                    std::vector<MapSlotRow>& out) {
  out.clear();
  return Status::Ok();
}

}  // namespace reactor
