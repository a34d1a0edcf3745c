// RedisBackend: the Backend contract on one Redis 7 server, for many worker
// processes on many hosts. Every operation that touches more than one key is
// one Lua script (atomic on the server); commit is one round trip, fetch is
// one round trip. Expiry (leases, visibility timeouts, delayed jobs,
// retention) is judged by the server's clock, read inside the scripts; the
// injected Clock is not used. Layout and queue design: docs/redis.md.
#pragma once

#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "reactor/backend.hpp"
#include "storage/redis/client.hpp"
#include "storage/redis/url.hpp"

namespace reactor {

class RedisBackend final : public Backend {
 public:
  // Connects once (no retries: a server that is not there at start-up is
  // reported at once), checks the key layout version and loads the scripts.
  // Unavailable naming the masked URL when any of that fails.
  static Status open(const redis::RedisOptions& options, std::unique_ptr<Backend>& out);

  std::string describe() const override;
  Status commit(const CommitRequest& c) override;
  Result<StoredRun> load_run(const std::string& root_id) override;
  Result<RunHeaderRow> load_header(const std::string& run_id) override;
  Result<std::vector<RunHeaderRow>> list_runs(const RunFilter& filter) override;
  Result<std::size_t> count_runs(const RunFilter& filter) override;
  Result<std::optional<Delivery>> fetch(const FetchRequest& f) override;
  // One script: the commit, then (if it was applied) the fetch.
  Result<std::optional<Delivery>> commit_then_fetch(const CommitRequest& c,
                                                    const FetchRequest& f) override;
  // Blocks on the queues' wake-up lists (BLPOP), which every enqueue and
  // release_job pushes to, for at most max_wait and no longer than until the
  // next job that the last empty fetch of these queues saw falls due.
  Status wait_for_jobs(const std::vector<std::string>& queues, Duration max_wait) override;
  // The BLPOP of wait_for_jobs and the fetch script, pipelined.
  Result<std::optional<Delivery>> wait_then_fetch(const FetchRequest& f,
                                                  Duration max_wait) override;
  // BLPOP on the queues' wake lists: an enqueue ends the wait.
  bool wakes_waiters() const override { return true; }
  Status release_job(std::int64_t job_id, const std::string& owner, Duration delay) override;
  Result<bool> has_job(const std::string& run_id) override;
  Result<std::vector<QueueStats>> queue_stats(const std::vector<std::string>& queues) override;
  Result<LeaseGrant> acquire_lease(const std::string& key, const std::string& owner,
                                   Duration ttl) override;
  Status extend_lease(const std::string& key, const std::string& owner, std::uint64_t token,
                      Duration ttl) override;
  Status release_lease(const std::string& key, const std::string& owner,
                       std::uint64_t token) override;
  Result<Lease> peek_lease(const std::string& key) override;
  Result<Lease> seize_lease(const std::string& key, const std::string& owner,
                            Duration ttl) override;
  Result<std::vector<RunHeaderRow>> find_orphans(std::size_t limit) override;
  Result<std::size_t> purge_expired(std::size_t limit) override;
  Result<MapRow> load_map(const std::string& map_id) override;
  Result<std::vector<MapSlotRow>> load_map_slots(const std::string& map_id, std::uint32_t first,
                                                 std::uint32_t limit) override;
  // Reads the map's row; while it is not settled, blocks on the map's wake
  // list (docs/redis.md), which the settle script pushes a token onto, and
  // reads the row again.
  Result<bool> wait_for_settle(const std::string& map_id, Duration max_wait) override;
  Status upsert_schedule(const ScheduleRow& row) override;
  Result<std::vector<ScheduleRow>> list_schedules() override;
  Status mark_schedule_fired(const std::string& name, std::int64_t period_ms) override;
  Result<TakeResult> take_holds(const TakeRequest& r) override;
  Result<CoordinationView> coordination() override;
  Result<OrderedChainRow> ordered_peek(const std::string& key) override;
  Result<OrderedChainRow> ordered_skip(const std::string& key) override;
  Result<OrderedChainRow> ordered_reset(const std::string& key) override;
  std::uint64_t round_trips() const override;

 private:
  explicit RedisBackend(redis::RedisOptions options);

  // Runs a script whose reply `read` turns into results; a reply of the wrong
  // shape is Internal naming the script. `known`: the keys this call knows
  // (names after the prefix), which the script takes after its store-wide
  // ones (redis::script_keys()).
  template <typename Read>
  Status run(redis::ScriptId script, const std::vector<std::string>& known,
             std::vector<std::string> args, Read&& read);
  // One command whose reply `read` turns into results (runs.cpp); a reply of the
  // wrong shape is Internal naming the command and its key.
  template <typename Read>
  Status read_command(const redis::Command& cmd, Read&& read);
  // `read` applied to a reply of `script`; a reply of the wrong shape (it
  // throws) is Internal naming the script.
  template <typename Read>
  Status read_reply(redis::ScriptId script, const redisReply& reply, Read&& read);
  // How long a wait for `queues` may block: at most max_wait, and no longer
  // than until the next job the last empty fetch of them saw falls due.
  std::chrono::milliseconds wait_limit(const std::vector<std::string>& queues, Duration max_wait);
  // The BLPOP on the wake lists of `queues`, for `wait`.
  redis::Command blpop(const std::vector<std::string>& queues,
                       std::chrono::milliseconds wait) const;
  // ordered_peek, ordered_skip, ordered_reset: the ordered_chain script with `op` ("peek",
  // "skip", "reset") on the chain `key` (holds.cpp).
  Result<OrderedChainRow> ordered_chain_call(const std::string& op, const std::string& key);
  // A run too large for the fetch to bring (fetch-2.lua, MAX_FETCHED_ROWS), read natively, with
  // `header` (as the fetch found it, before it recorded this delivery) as its root's: what the
  // fetch would have brought. Nothing when it cannot be read.
  std::optional<StoredRun> load_as_fetched(const std::string& run_id, const std::string& header);
  // The reply of a fetch (alone, or after a commit) into `out`.
  Status read_fetch_reply(const redisReply& r, const FetchRequest& f,
                          std::chrono::steady_clock::time_point asked_at,
                          std::optional<Delivery>& out);

  redis::RedisClient client_;
  // When each set of queues next has a job falling due, as the last empty
  // fetch of that set saw it (local steady time), for wait_for_jobs.
  std::mutex next_due_mu_;
  std::map<std::string, std::chrono::steady_clock::time_point> next_due_;
};

}  // namespace reactor
