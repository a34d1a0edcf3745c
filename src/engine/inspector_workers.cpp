// Inspector::workers: the live workers as the store sees them. A worker writes no record of its
// own; its leases are enough — a "serving:<queue>" lease per queue it serves (presence.hpp), the
// lease of each run it executes (the run's header names the worker), and the claim of each
// sweeper window it won (sweeper.hpp).
#include <map>

#include "durability/presence.hpp"
#include "durability/sweeper.hpp"
#include "reactor/inspector.hpp"

namespace reactor {

namespace {

// A lease owner is "<worker id>/<something of its own>" for every lease a worker takes.
std::string worker_of(const std::string& owner) { return owner.substr(0, owner.find('/')); }

// The newest of the claims of the window `now` falls in and the one before it.
Result<std::optional<SweepPass>> last_sweep(Leases& leases, Duration interval, TimePoint now) {
  for (TimePoint at : {now, now - interval}) {
    Result<Lease> claim = leases.peek_lease(sweeper_lease_key(at, interval));
    if (!claim.ok()) return claim.status();
    if (claim->owner.empty()) continue;
    // A claim lasts two windows from the moment it was won.
    const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(interval * 2).count();
    return std::optional<SweepPass>(SweepPass{worker_of(claim->owner), claim->expires_at_ms - ms});
  }
  return std::optional<SweepPass>();
}

}  // namespace

Result<WorkersView> Inspector::workers(const std::vector<std::string>& queues,
                                       std::size_t run_limit, Duration sweep_interval,
                                       TimePoint now) const {
  if (backend_ == nullptr) return Status::FailedPrecondition("workers: no leases to read");
  WorkersView view;
  std::map<std::string, LiveWorker> by_id;
  auto worker = [&](const std::string& owner) -> LiveWorker& {
    LiveWorker& w = by_id[worker_of(owner)];
    w.worker = worker_of(owner);
    return w;
  };
  for (const std::string& queue : queues) {
    Result<Lease> serving = backend_->peek_lease(serving_lease_key(queue));
    if (!serving.ok()) return serving.status();
    if (serving->owner.empty()) continue;
    worker(serving->owner).queues.push_back(queue);
    view.served_by[queue] = worker_of(serving->owner);
  }
  RunFilter running;
  running.status = RunStatus::kRunning;
  running.limit = run_limit;
  Result<std::vector<RunHeaderRow>> rows = runs_.list_runs(running);
  if (!rows.ok()) return rows.status();
  for (const RunHeaderRow& run : *rows) {
    Result<Lease> lease = backend_->peek_lease(run_lease_key(run.id));
    if (!lease.ok()) return lease.status();
    if (lease->owner.empty()) continue;  // its worker died: the sweeper hands it back
    // The worker that fetched it, as its header records; a caller running it inline, by its lease.
    const std::string& who = run.exec_worker.empty() ? lease->owner : run.exec_worker;
    worker(who).runs.push_back(run.id);
  }
  for (auto& [id, w] : by_id) view.workers.push_back(std::move(w));
  Result<std::optional<SweepPass>> sweep = last_sweep(*backend_, sweep_interval, now);
  if (!sweep.ok()) return sweep.status();
  view.last_sweep = std::move(*sweep);
  return view;
}

}  // namespace reactor
