#include <chrono>
#include <cstdio>
#include <thread>

#include "storage/redis/backend.hpp"
#include "storage/redis/call.hpp"
#include "storage/redis/reply.hpp"
#include "storage/redis/wire.hpp"
#include "storage/storage_time.hpp"

namespace reactor {

using redis::append_fetch_args;
using redis::BadReply;
using redis::decode_header;
using redis::element;
using redis::integer;
using redis::queue_set;
using redis::read_slots;
using redis::read_stored_run;
using redis::Reply;
using redis::run_jobs_key;
using redis::ScriptId;
using redis::text;
using redis::wake_key;

Result<std::optional<Delivery>> RedisBackend::fetch(const FetchRequest& f) {
  std::optional<Delivery> out;
  if (f.owner.empty()) return Status::InvalidArgument("fetch: owner must not be empty");
  if (f.queues.empty()) return out;
  std::vector<std::string> args;
  append_fetch_args(f, args);
  const auto asked_at = std::chrono::steady_clock::now();
  Status s = run(ScriptId::kFetch, {}, std::move(args),
                 [&](const redisReply& r) { return read_fetch_reply(r, f, asked_at, out); });
  if (!s.ok()) return s;
  return out;
}

std::optional<StoredRun> RedisBackend::load_as_fetched(const std::string& run_id,
                                                       const std::string& header) {
  Result<StoredRun> loaded = load_run(run_id);
  RunHeaderRow before;
  if (!loaded.ok() || loaded->headers.empty() ||
      !decode_header("run header " + run_id, header, before).ok()) {
    return std::nullopt;  // the worker loads it again, and meets what is wrong itself
  }
  loaded->headers.front() = std::move(before);
  return std::move(loaded).value();
}

namespace {

// {map id, its slot records}: the one slot, or nullopt when it is missing or unreadable (the
// owner then reads it itself, and meets what is wrong).
std::optional<MapSlotRow> read_settled_slot(const redisReply& r) {
  std::vector<MapSlotRow> slots;
  try {
    const std::string map_id = text(element(r, 0));
    if (!read_slots(map_id, element(r, 1), slots).ok() || slots.size() != 1) return std::nullopt;
    if (slots[0].map_id != map_id || slots[0].index != 0) return std::nullopt;
  } catch (const BadReply&) {
    return std::nullopt;
  }
  return std::move(slots[0]);
}

}  // namespace

Status RedisBackend::read_fetch_reply(const redisReply& r, const FetchRequest& f,
                                      std::chrono::steady_clock::time_point asked_at,
                                      std::optional<Delivery>& out) {
  const std::string outcome = text(element(r, 0));
  if (outcome == "idle") {
    const std::string next_due = text(element(r, 2));
    std::lock_guard lock(next_due_mu_);
    if (next_due.empty()) {
      next_due_.erase(queue_set(f.queues));
    } else {
      // Server time to local steady time, so the workers' clocks never matter.
      const auto in = std::chrono::milliseconds(integer(element(r, 2)) - integer(element(r, 1)));
      next_due_[queue_set(f.queues)] = asked_at + in;
    }
    return Status::Ok();
  }
  if (outcome == "unreadable") {
    return Status::Corruption("job " + text(element(r, 1)) + ": unknown job kind '" +
                              text(element(r, 2)) + "'");
  }
  if (outcome != "job") throw BadReply("unknown fetch outcome '" + outcome + "'");
  Delivery d;
  d.job.id = integer(element(r, 1));
  d.job.spec.queue = text(element(r, 2));
  d.job.spec.kind = job_kind_from_string(text(element(r, 3)));
  d.job.spec.run_id = text(element(r, 4));
  d.job.spec.reactor = text(element(r, 5));
  d.job.spec.run_at_ms = integer(element(r, 6));
  d.job.spec.snoozes = static_cast<int>(integer(element(r, 7)));
  d.job.deliveries = static_cast<int>(integer(element(r, 8)));
  d.job.lease_owner = f.owner;
  d.job.lease_expires_ms = integer(element(r, 9));
  d.run_leased = text(element(r, 10)) == "1";
  d.run_lease.key = run_lease_key(d.job.spec.run_id);
  d.run_lease.owner = text(element(r, 11));
  d.run_lease.token = static_cast<std::uint64_t>(integer(element(r, 12)));
  d.run_lease.expires_at_ms = integer(element(r, 13));
  if (d.run_leased && r.elements > 14) {
    // The run, read by the same script; if it is missing or unreadable the
    // worker loads it again and meets that itself.
    StoredRun rows;
    try {
      if (read_stored_run(d.job.spec.run_id, element(r, 14), rows).ok()) d.run = std::move(rows);
    } catch (const std::exception&) {
    }
    d.run_started = r.elements > 15 && text(element(r, 15)) == "1";
    if (r.elements > 16) d.run_deliveries = static_cast<int>(integer(element(r, 16)));
    if (!d.run && r.elements > 17 && element(r, 17).type != REDIS_REPLY_NIL) {
      d.run = load_as_fetched(d.job.spec.run_id, text(element(r, 17)));
    }
    if (d.run && r.elements > 18) d.settled_slot = read_settled_slot(element(r, 18));
  }
  out = std::move(d);
  return Status::Ok();
}

namespace {

// Redis ends a BLPOP on its timeout only at its next timer tick when nothing else wakes it: every
// 1000/hz ms, 100 ms at the default hz 10 (a 5 ms BLPOP on an idle Redis 7.0 returns after about
// 100 ms). A wait that ends sooner because a job falls due then (a snooze, a retry's backoff) is
// slept in this process instead, then fetched, so the job is taken when due rather than up to a
// tick late. An enqueue during such a sleep waits out the rest of it (less than a tick). A wait
// the caller bounds (max_wait) stays one BLPOP, which an enqueue ends at once.
constexpr std::chrono::milliseconds kBlockingTimeoutResolution{100};

// Sleeps `wait` and returns true when it is short and set by a job falling due, not by max_wait.
bool sleep_until_due(std::chrono::milliseconds wait, Duration max_wait) {
  if (wait >= kBlockingTimeoutResolution || wait >= max_wait) return false;
  std::this_thread::sleep_for(wait);
  return true;
}

}  // namespace

std::chrono::milliseconds RedisBackend::wait_limit(const std::vector<std::string>& queues,
                                                   Duration max_wait) {
  auto wait = std::chrono::ceil<std::chrono::milliseconds>(max_wait);
  std::lock_guard lock(next_due_mu_);
  if (auto it = next_due_.find(queue_set(queues)); it != next_due_.end()) {
    const auto until_due =
        std::chrono::ceil<std::chrono::milliseconds>(it->second - std::chrono::steady_clock::now());
    wait = std::min(wait, until_due);
  }
  return wait;
}

redis::Command RedisBackend::blpop(const std::vector<std::string>& queues,
                                   std::chrono::milliseconds wait) const {
  redis::Command cmd{"BLPOP"};
  for (const auto& q : queues) cmd.push_back(wake_key(client_.options().prefix, q));
  char seconds[32];
  std::snprintf(seconds, sizeof seconds, "%.3f", static_cast<double>(wait.count()) / 1000.0);
  cmd.emplace_back(seconds);
  return cmd;
}

Status RedisBackend::wait_for_jobs(const std::vector<std::string>& queues, Duration max_wait) {
  if (queues.empty()) return Backend::wait_for_jobs(queues, max_wait);
  const auto wait = wait_limit(queues, max_wait);
  if (wait.count() <= 0)
    return Status::Ok();  // something is due already; BLPOP 0 would block forever
  if (sleep_until_due(wait, max_wait)) return Status::Ok();
  Reply reply;
  return client_.command(blpop(queues, wait), reply, wait);
}

Result<std::optional<Delivery>> RedisBackend::wait_then_fetch(const FetchRequest& f,
                                                              Duration max_wait) {
  std::optional<Delivery> out;
  if (f.queues.empty() || f.owner.empty()) return Backend::wait_then_fetch(f, max_wait);
  const auto wait = wait_limit(f.queues, max_wait);
  if (wait.count() <= 0 || sleep_until_due(wait, max_wait)) return fetch(f);
  std::vector<std::string> args;
  append_fetch_args(f, args);
  Reply reply;
  // Stamped before the wait: a next_due the fetch reports is then read as a
  // little earlier than it is, never later.
  const auto asked_at = std::chrono::steady_clock::now();
  Status s = client_.command_then_eval(
      blpop(f.queues, wait), ScriptId::kFetch,
      redis::script_keys(ScriptId::kFetch, client_.options().prefix), std::move(args), reply, wait);
  if (!s.ok()) return s;
  if (Status s =
          read_reply(ScriptId::kFetch, *reply,
                     [&](const redisReply& r) { return read_fetch_reply(r, f, asked_at, out); });
      !s.ok())
    return s;
  return out;
}

Status RedisBackend::release_job(std::int64_t job_id, const std::string& owner, Duration delay) {
  if (owner.empty()) return Status::Ok();
  return run(ScriptId::kReleaseJob, {"job:" + std::to_string(job_id)},
             {std::to_string(job_id), owner, std::to_string(storage::to_ms(delay))},
             [](const redisReply&) { return Status::Ok(); });
}

Result<bool> RedisBackend::has_job(const std::string& run_id) {
  bool out = false;
  Reply reply;
  if (Status s = client_.command({"EXISTS", run_jobs_key(client_.options().prefix, run_id)}, reply);
      !s.ok()) {
    return s;
  }
  out = reply->type == REDIS_REPLY_INTEGER && reply->integer > 0;
  return out;
}

}  // namespace reactor

namespace reactor {

Result<std::vector<QueueStats>> RedisBackend::queue_stats(const std::vector<std::string>& queues) {
  std::vector<QueueStats> out;
  if (queues.empty()) return out;
  Status s = run(ScriptId::kQueueStats, {}, queues, [&](const redisReply& r) {
    out.clear();
    const std::int64_t now = integer(element(r, 0));
    for (std::size_t i = 0; i < queues.size(); ++i) {
      const std::size_t at = 1 + 4 * i;
      const std::string oldest = text(element(r, at + 3));
      out.push_back(QueueStats{queues[i], static_cast<std::size_t>(integer(element(r, at))),
                               static_cast<std::size_t>(integer(element(r, at + 1))),
                               static_cast<std::size_t>(integer(element(r, at + 2))),
                               oldest.empty() ? 0 : std::stoll(oldest), now});
    }
    return Status::Ok();
  });
  if (!s.ok()) return s;
  return out;
}

}  // namespace reactor
