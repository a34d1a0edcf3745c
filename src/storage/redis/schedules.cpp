// Schedules on Redis (reactor/schedule_store.hpp): `P schedules` holds each schedule's record,
// `P schedules_fired` the start of its last period fired, apart so that a worker's mark never
// rewrites the record (docs/redis.md).
#include "records/codec.hpp"
#include "storage/redis/backend.hpp"
#include "storage/redis/call.hpp"
#include "storage/redis/reply.hpp"

namespace reactor {

using redis::element;
using redis::integer;
using redis::ScriptId;
using redis::text;

Status RedisBackend::upsert_schedule(const ScheduleRow& row) {
  return run(ScriptId::kUpsertSchedule, {},
             {row.name, records::encode_schedule_record(row), std::to_string(row.last_fired_ms)},
             [](const redisReply&) { return Status::Ok(); });
}

Result<std::vector<ScheduleRow>> RedisBackend::list_schedules() {
  std::vector<ScheduleRow> out;
  Status s = run(ScriptId::kListSchedules, {}, {}, [&](const redisReply& r) -> Status {
    out.clear();
    if (r.type != REDIS_REPLY_ARRAY || r.elements % 2 != 0) {
      return Status::Internal("list_schedules: a reply of the wrong shape");
    }
    for (std::size_t i = 0; i < r.elements; i += 2) {
      try {
        ScheduleRow row = records::decode_schedule_record(text(element(r, i)));
        row.last_fired_ms = std::stoll(text(element(r, i + 1)));
        out.push_back(std::move(row));
      } catch (const std::exception& e) {
        return Status::Corruption(std::string("a schedule record: ") + e.what());
      }
    }
    std::sort(out.begin(), out.end(),
              [](const ScheduleRow& a, const ScheduleRow& b) { return a.name < b.name; });
    return Status::Ok();
  });
  if (!s.ok()) return s;
  return out;
}

Status RedisBackend::mark_schedule_fired(const std::string& name, std::int64_t period_ms) {
  return run(ScriptId::kMarkScheduleFired, {}, {name, std::to_string(period_ms)},
             [&](const redisReply& r) {
               return integer(r) == 0 ? Status::NotFound("schedule '" + name + "' not found")
                                      : Status::Ok();
             });
}

}  // namespace reactor
