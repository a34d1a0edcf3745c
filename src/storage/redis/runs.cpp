#include <algorithm>
#include <chrono>
#include <cstdio>

#include "storage/redis/backend.hpp"
#include "storage/redis/call.hpp"
#include "storage/redis/reply.hpp"
#include "storage/redis/wire.hpp"
#include "storage/storage_time.hpp"

namespace reactor {

using redis::count_arg;
using redis::decode_header;
using redis::decode_headers;
using redis::element;
using redis::integer;
using redis::map_key;
using redis::map_settled_key;
using redis::map_slots_key;
using redis::read_map;
using redis::read_slots;
using redis::read_stored_run;
using redis::Reply;
using redis::root_key;
using redis::ScriptId;
using redis::text;

Result<StoredRun> RedisBackend::load_run(const std::string& root_id) {
  // One snapshot of the rows and the lease's token, read natively (MULTI/EXEC): through a script
  // a run of 100,000 rows held the server 2.4 s, not 0.4 s.
  const std::string& prefix = client_.options().prefix;
  Reply reply;
  Status s = client_.transaction({{"HGETALL", prefix + root_key(root_id, "rows")},
                                  {"HGET", prefix + root_key(root_id, "meta"), "token"}},
                                 reply);
  if (!s.ok()) return s;
  StoredRun run_rows;
  try {
    s = read_stored_run(root_id, *reply, run_rows);
  } catch (const std::exception& e) {  // BadReply
    s = Status::Internal(client_.options().masked_url + ": load_run " + root_id +
                         ": unexpected reply: " + e.what());
  }
  if (!s.ok()) return s;
  return run_rows;
}

Result<RunHeaderRow> RedisBackend::load_header(const std::string& run_id) {
  RunHeaderRow out;
  Status s = run(ScriptId::kLoadHeader, {}, {run_id}, [&](const redisReply& r) {
    if (r.type == REDIS_REPLY_NIL) return Status::NotFound("run " + run_id + " not found");
    return decode_header("run header " + run_id, text(r), out);
  });
  if (!s.ok()) return s;
  return out;
}

Result<std::vector<RunHeaderRow>> RedisBackend::list_runs(const RunFilter& filter) {
  std::vector<std::string> args = {filter.status ? to_string(*filter.status) : "",
                                   filter.reactor ? *filter.reactor : "", count_arg(filter.limit),
                                   filter.elements ? "1" : "0"};
  // Without a status, the script reads the index of every status.
  if (!filter.status) {
    for (RunStatus status : all_run_statuses()) args.push_back(to_string(status));
  }
  std::vector<RunHeaderRow> rows;
  Status s = run(ScriptId::kListRuns, {}, args,
                 [&](const redisReply& r) { return decode_headers(r, rows); });
  if (!s.ok()) return s;
  return rows;
}

Result<std::size_t> RedisBackend::count_runs(const RunFilter& filter) {
  std::size_t out = 0;
  std::vector<std::string> args = {filter.status ? to_string(*filter.status) : "",
                                   filter.reactor ? *filter.reactor : "",
                                   filter.elements ? "1" : "0"};
  // Without a status, the script counts the index of every status.
  if (!filter.status) {
    for (RunStatus status : all_run_statuses()) args.push_back(to_string(status));
  }
  Status s = run(ScriptId::kCountRuns, {}, args, [&](const redisReply& r) {
    out = static_cast<std::size_t>(integer(r));
    return Status::Ok();
  });
  if (!s.ok()) return s;
  return out;
}

Result<std::vector<RunHeaderRow>> RedisBackend::find_orphans(std::size_t limit) {
  std::vector<RunHeaderRow> rows;
  Status s =
      run(ScriptId::kFindOrphans, {},
          {count_arg(limit), to_string(RunStatus::kRunning), to_string(RunStatus::kRollingBack),
           to_string(RunStatus::kEnqueued), to_string(RunStatus::kWaiting),
           to_string(RunStatus::kPaused), to_string(RunStatus::kScheduled)},
          [&](const redisReply& r) { return decode_headers(r, rows); });
  if (!s.ok()) return s;
  return rows;
}

Result<std::size_t> RedisBackend::purge_expired(std::size_t limit) {
  std::size_t purged = 0;
  Status s = run(ScriptId::kPurgeExpired, {}, {count_arg(limit)}, [&](const redisReply& r) {
    purged = static_cast<std::size_t>(integer(r));
    return Status::Ok();
  });
  if (!s.ok()) return s;
  return purged;
}

// A map's row and its slots are one key each (docs/redis.md): read with one command each, no
// script. `read` turns the reply into results; a reply of the wrong shape is Internal.
template <typename Read>
Status RedisBackend::read_command(const redis::Command& cmd, Read&& read) {
  Reply reply;
  if (Status s = client_.command(cmd, reply); !s.ok()) return s;
  try {
    return read(*reply);
  } catch (const std::exception& e) {  // BadReply
    return Status::Internal(client_.options().masked_url + ": " + cmd.front() + " " + cmd[1] +
                            ": unexpected reply: " + e.what());
  }
}

Result<MapRow> RedisBackend::load_map(const std::string& map_id) {
  MapRow out;
  Status s = read_command({"HGETALL", map_key(client_.options().prefix, map_id)},
                          [&](const redisReply& r) { return read_map(map_id, r, out); });
  if (!s.ok()) return s;
  return out;
}

Result<std::vector<MapSlotRow>> RedisBackend::load_map_slots(const std::string& map_id,
                                                             std::uint32_t first,
                                                             std::uint32_t limit) {
  std::vector<MapSlotRow> out;
  if (limit == 0) return out;
  // Slots are scored by index: [first, first + limit) is one range, read in index order.
  const std::uint64_t end = std::uint64_t{first} + limit;
  Status s = read_command({"ZRANGEBYSCORE", map_slots_key(client_.options().prefix, map_id),
                           std::to_string(first), "(" + std::to_string(end)},
                          [&](const redisReply& r) { return read_slots(map_id, r, out); });
  if (!s.ok()) return s;
  return out;
}

Result<bool> RedisBackend::wait_for_settle(const std::string& map_id, Duration max_wait) {
  using std::chrono::steady_clock;
  const std::string wake = map_settled_key(client_.options().prefix, map_id);
  bool woken = false;
  auto block = [&](steady_clock::time_point deadline) {
    // A token with the map unsettled is left from an earlier settle of a row since written
    // again: dropped, or every wait would find it at once and spin.
    if (woken) {
      Reply gone;
      if (Status s = client_.command({"DEL", wake}, gone); !s.ok()) return s;
    }
    // At least 1 ms (BLMOVE 0 blocks for ever), at most an hour a call.
    const auto wait =
        std::clamp(std::chrono::ceil<std::chrono::milliseconds>(deadline - steady_clock::now()),
                   std::chrono::milliseconds(1), std::chrono::milliseconds(std::chrono::hours(1)));
    char seconds[32];
    std::snprintf(seconds, sizeof seconds, "%.3f", static_cast<double>(wait.count()) / 1000.0);
    // A blocking pop that puts the token back (the list onto itself): a settle pushed before
    // the wait is found at once, and every other caller waiting on the map finds it too.
    Reply reply;
    Status s = client_.command({"BLMOVE", wake, wake, "LEFT", "RIGHT", seconds}, reply, wait);
    woken = s.ok() && reply->type != REDIS_REPLY_NIL;
    return s;
  };
  return storage::wait_until_settled([&] { return load_map(map_id); }, block,
                                     storage::wait_deadline(max_wait));
}

}  // namespace reactor
