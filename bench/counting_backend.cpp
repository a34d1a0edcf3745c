// CountingBackend (counting_backend.hpp): every store call counted by kind, commits timed.
#include "counting_backend.hpp"

#include <chrono>

namespace reactor_bench {

using namespace reactor;

const char* to_string(Call c) {
  switch (c) {
    case Call::kFetch:
      return "fetch";
    case Call::kCommit:
      return "commit";
    case Call::kCommitThenFetch:
      return "commit+fetch";
    case Call::kTakeHolds:
      return "take_holds";
    case Call::kLease:
      return "lease";
    case Call::kOther:
      break;
  }
  return "other";
}

std::uint64_t CallCounts::total() const {
  std::uint64_t sum = 0;
  for (std::uint64_t n : by) sum += n;
  return sum;
}

CallCounts CallCounts::operator-(const CallCounts& earlier) const {
  CallCounts d;
  for (std::size_t i = 0; i < kCallKinds; ++i) d.by[i] = by[i] - earlier.by[i];
  return d;
}

CallCounts CountingBackend::counts() const {
  CallCounts c;
  for (std::size_t i = 0; i < kCallKinds; ++i) c.by[i] = n_[i].load(std::memory_order_relaxed);
  return c;
}

CountingBackend::CommitTimes CountingBackend::take_commit_us() {
  std::lock_guard lock(mu_);
  return std::exchange(times_, CommitTimes{});
}

void CountingBackend::keep(std::vector<double> CommitTimes::*which, double us) {
  std::lock_guard lock(mu_);
  (times_.*which).push_back(us);
}

namespace {

double us_since(std::chrono::steady_clock::time_point from) {
  return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - from).count();
}

}  // namespace

Status CountingBackend::commit(const CommitRequest& c) {
  const auto from = std::chrono::steady_clock::now();
  Status s = count(Call::kCommit, BackendWrapper::commit(c));
  if (timing_) keep(&CommitTimes::commit_us, us_since(from));
  return s;
}

Result<std::optional<Delivery>> CountingBackend::commit_then_fetch(const CommitRequest& c,
                                                                   const FetchRequest& f) {
  const auto from = std::chrono::steady_clock::now();
  auto r = count(Call::kCommitThenFetch, BackendWrapper::commit_then_fetch(c, f));
  if (timing_) keep(&CommitTimes::commit_then_fetch_us, us_since(from));
  return r;
}

Result<StoredRun> CountingBackend::load_run(const std::string& id) {
  return count(Call::kOther, BackendWrapper::load_run(id));
}
Result<RunHeaderRow> CountingBackend::load_header(const std::string& id) {
  return count(Call::kOther, BackendWrapper::load_header(id));
}
Result<std::vector<RunHeaderRow>> CountingBackend::list_runs(const RunFilter& filter) {
  return count(Call::kOther, BackendWrapper::list_runs(filter));
}
Result<std::size_t> CountingBackend::count_runs(const RunFilter& filter) {
  return count(Call::kOther, BackendWrapper::count_runs(filter));
}
Result<std::vector<RunHeaderRow>> CountingBackend::find_orphans(std::size_t limit) {
  return count(Call::kOther, BackendWrapper::find_orphans(limit));
}
Result<std::size_t> CountingBackend::purge_expired(std::size_t limit) {
  return count(Call::kOther, BackendWrapper::purge_expired(limit));
}
Result<std::optional<Delivery>> CountingBackend::fetch(const FetchRequest& f) {
  return count(Call::kFetch, BackendWrapper::fetch(f));
}
Status CountingBackend::wait_for_jobs(const std::vector<std::string>& queues, Duration max_wait) {
  return count(Call::kOther, BackendWrapper::wait_for_jobs(queues, max_wait));
}
Result<std::optional<Delivery>> CountingBackend::wait_then_fetch(const FetchRequest& f,
                                                                 Duration max_wait) {
  return count(Call::kFetch, BackendWrapper::wait_then_fetch(f, max_wait));
}
Status CountingBackend::release_job(std::int64_t job_id, const std::string& owner, Duration delay) {
  return count(Call::kOther, BackendWrapper::release_job(job_id, owner, delay));
}
Result<bool> CountingBackend::has_job(const std::string& id) {
  return count(Call::kOther, BackendWrapper::has_job(id));
}
Result<LeaseGrant> CountingBackend::acquire_lease(const std::string& key, const std::string& owner,
                                                  Duration ttl) {
  return count(Call::kLease, BackendWrapper::acquire_lease(key, owner, ttl));
}
Status CountingBackend::extend_lease(const std::string& key, const std::string& owner,
                                     std::uint64_t token, Duration ttl) {
  return count(Call::kLease, BackendWrapper::extend_lease(key, owner, token, ttl));
}
Status CountingBackend::release_lease(const std::string& key, const std::string& owner,
                                      std::uint64_t token) {
  return count(Call::kLease, BackendWrapper::release_lease(key, owner, token));
}
Result<Lease> CountingBackend::peek_lease(const std::string& key) {
  return count(Call::kLease, BackendWrapper::peek_lease(key));
}
Result<Lease> CountingBackend::seize_lease(const std::string& key, const std::string& owner,
                                           Duration ttl) {
  return count(Call::kLease, BackendWrapper::seize_lease(key, owner, ttl));
}
Result<MapRow> CountingBackend::load_map(const std::string& id) {
  return count(Call::kOther, BackendWrapper::load_map(id));
}
Result<std::vector<MapSlotRow>> CountingBackend::load_map_slots(const std::string& id,
                                                                std::uint32_t first,
                                                                std::uint32_t limit) {
  return count(Call::kOther, BackendWrapper::load_map_slots(id, first, limit));
}
Result<bool> CountingBackend::wait_for_settle(const std::string& id, Duration max_wait) {
  return count(Call::kOther, BackendWrapper::wait_for_settle(id, max_wait));
}
Status CountingBackend::upsert_schedule(const ScheduleRow& row) {
  return count(Call::kOther, BackendWrapper::upsert_schedule(row));
}
Result<std::vector<ScheduleRow>> CountingBackend::list_schedules() {
  return count(Call::kOther, BackendWrapper::list_schedules());
}
Status CountingBackend::mark_schedule_fired(const std::string& name, std::int64_t period_ms) {
  return count(Call::kOther, BackendWrapper::mark_schedule_fired(name, period_ms));
}
Result<TakeResult> CountingBackend::take_holds(const TakeRequest& r) {
  return count(Call::kTakeHolds, BackendWrapper::take_holds(r));
}
Result<CoordinationView> CountingBackend::coordination() {
  return count(Call::kOther, BackendWrapper::coordination());
}
Result<OrderedChainRow> CountingBackend::ordered_peek(const std::string& key) {
  return count(Call::kOther, BackendWrapper::ordered_peek(key));
}
Result<OrderedChainRow> CountingBackend::ordered_skip(const std::string& key) {
  return count(Call::kOther, BackendWrapper::ordered_skip(key));
}
Result<OrderedChainRow> CountingBackend::ordered_reset(const std::string& key) {
  return count(Call::kOther, BackendWrapper::ordered_reset(key));
}

}  // namespace reactor_bench
