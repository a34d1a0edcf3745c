#include "reactor/backend.hpp"

#include <limits>
#include <thread>

namespace reactor {

Status RunStore::count_runs(const RunFilter& filter, std::size_t& out) {
  out = 0;
  RunFilter all = filter;
  all.limit = std::numeric_limits<std::size_t>::max();
  std::vector<RunHeaderRow> rows;
  Status s = list_runs(all, rows);
  if (s.ok()) out = rows.size();
  return s;
}

Status JobQueue::wait_for_jobs(const std::vector<std::string>&, Duration max_wait) {
  // Nothing to block on: an enqueue cannot wake this caller, so it polls.
  if (max_wait > Duration::zero()) std::this_thread::sleep_for(max_wait);
  return Status::Ok();
}

Status JobQueue::wait_then_fetch(const FetchRequest& f, Duration max_wait,
                                 std::optional<Delivery>& out) {
  out.reset();
  if (Status s = wait_for_jobs(f.queues, max_wait); !s.ok()) return s;
  return fetch(f, out);
}

Status Backend::commit_then_fetch(const CommitRequest& c, const FetchRequest& f,
                                  std::optional<Delivery>& next) {
  next.reset();
  Status s = commit(c);
  if (!s.ok()) return s;
  if (!fetch(f, next).ok()) next.reset();
  return s;
}

}  // namespace reactor
