// Inspector: a read-only view of the runs in a store, for tools — the CLI's
// `reactor runs`, a dashboard. It reads through the RunStore facet alone and
// never writes.
//
// Thread safety: as the store's (every RunStore may be called from several
// threads at once), so one Inspector may serve several threads.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "reactor/records.hpp"
#include "reactor/run_status.hpp"
#include "reactor/run_store.hpp"
#include "reactor/status.hpp"

namespace reactor {

// One root run, as a listing shows it.
struct RunSummary {
  std::string id;
  std::string reactor;
  RunStatus status = RunStatus::kPending;
  // Unix milliseconds. created_at_ms is 0 when the run's header cannot be read
  // (a corrupt record): the run is listed all the same.
  std::int64_t created_at_ms = 0;
  std::int64_t updated_at_ms = 0;
};

struct RunListing {
  // Newest update first (ties by id, descending), at most the filter's limit.
  std::vector<RunSummary> runs;
  // How many root runs match the filter, whatever its limit; never fewer than
  // runs.size(). Counted just after the listing, not in one snapshot with it:
  // runs started or changing status meanwhile may make it differ by as many.
  std::size_t total = 0;

  // Whether matching runs were left out by the limit.
  bool truncated() const { return runs.size() < total; }
};

class Inspector {
 public:
  // `store` must outlive the inspector (e.g. *engine.backend()).
  explicit Inspector(RunStore& store) : store_(store) {}

  // The root runs matching `filter` (status, reactor, limit) and how many match.
  // The store's error, if it fails.
  Status list_runs(const RunFilter& filter, RunListing& out) const;

 private:
  RunStore& store_;
};

}  // namespace reactor
