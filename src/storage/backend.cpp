#include "reactor/backend.hpp"

#include <limits>
#include <thread>

namespace reactor {

Result<std::size_t> RunStore::count_runs(const RunFilter& filter) {
  RunFilter all = filter;
  all.limit = std::numeric_limits<std::size_t>::max();
  Result<std::vector<RunHeaderRow>> rows = list_runs(all);
  if (!rows.ok()) return rows.status();
  return rows->size();
}

Status JobQueue::wait_for_jobs(const std::vector<std::string>&, Duration max_wait) {
  // Nothing to block on: an enqueue cannot wake this caller, so it polls.
  if (max_wait > Duration::zero()) std::this_thread::sleep_for(max_wait);
  return Status::Ok();
}

Result<std::optional<Delivery>> JobQueue::wait_then_fetch(const FetchRequest& f,
                                                          Duration max_wait) {
  if (Status s = wait_for_jobs(f.queues, max_wait); !s.ok()) return s;
  return fetch(f);
}

Result<std::optional<Delivery>> Backend::commit_then_fetch(const CommitRequest& c,
                                                           const FetchRequest& f) {
  if (Status s = commit(c); !s.ok()) return s;
  Result<std::optional<Delivery>> next = fetch(f);
  if (!next.ok()) return std::nullopt;
  return next;
}

}  // namespace reactor
