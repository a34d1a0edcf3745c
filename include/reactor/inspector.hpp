// Inspector: a read-only view of the runs in a store, for tools — the CLI's
// `reactor runs` and `reactor show`, a dashboard. It reads through the RunStore
// and MapStore facets alone and never writes.
//
// Thread safety: as the store's (every RunStore and MapStore may be called from
// several threads at once), so one Inspector may serve several threads.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "reactor/backend.hpp"
#include "reactor/map_store.hpp"
#include "reactor/records.hpp"
#include "reactor/result.hpp"
#include "reactor/run_status.hpp"
#include "reactor/run_store.hpp"
#include "reactor/status.hpp"

namespace reactor {

// One run, as a listing shows it: a root, or with RunFilter::elements an
// element run of a fan-out map too.
// An interrupt a paused run waits at (Builder::interrupt, docs/interrupts.md).
struct WaitingInterrupt {
  std::string step;  // its path: "approve", "child/approve"
  std::string correlation_id;
  std::int64_t deadline_ms = 0;  // Unix milliseconds; 0: none
};

struct RunSummary {
  std::string id;
  std::string reactor;
  RunStatus status = RunStatus::kPending;
  // Unix milliseconds. created_at_ms is 0 when the run's header cannot be read
  // (a corrupt record): the run is listed all the same.
  std::int64_t created_at_ms = 0;
  std::int64_t updated_at_ms = 0;
  // A paused run's interrupts waiting for their payload (one more read of the store per paused
  // run listed); empty for every other status.
  std::vector<WaitingInterrupt> waiting;
};

struct RunListing {
  // Newest update first (ties by id, descending), at most the filter's limit.
  std::vector<RunSummary> runs;
  // How many runs match the filter (its status, reactor and elements), whatever
  // its limit; never fewer than runs.size(). Counted just after the listing,
  // not in one snapshot with it: runs started or changing status meanwhile may
  // make it differ by as many.
  std::size_t total = 0;

  // Whether matching runs were left out by the limit.
  bool truncated() const { return runs.size() < total; }
};

// Where one fan-out map stands: its record (MapRow) as the last commit left it.
struct MapProgress {
  std::string map_id;  // "<root run id>:<map step path>"
  // The map step's path in its run ("sum"; "payment/sum" inside a composed
  // child; "sum[3]/inner" for a map of element 3's).
  std::string step;
  std::string owner_id;  // the root run the map resumes when it settles
  std::string element_reactor;
  MapState state = MapState::kRunning;
  bool atomic = true;
  std::uint32_t batch_size = 1;
  std::uint32_t total = 0;     // elements
  std::uint32_t released = 0;  // handed to the queue so far
  // Elements that reported (completed, failed or halted), rolled back ones
  // included, and those cancelled; of those, the ones that failed, the
  // completed ones rolled back since, and the ones that never ran because the
  // owner was failing before a worker started them (cancelled).
  std::uint32_t done = 0;
  std::uint32_t failed = 0;
  std::uint32_t undone = 0;
  std::uint32_t cancelled = 0;
  // Executions of the elements' steps lost with their workers and run again.
  std::uint32_t interrupted = 0;

  // Released and not reported: running, or waiting for a worker.
  std::uint32_t in_flight() const { return released > done ? released - done : 0; }
};

// What an element run of a fan-out map belongs to.
struct ElementInfo {
  std::string map_id;
  std::uint32_t index = 0;
  std::string parent_id;      // the run holding the map step (the owner or a composed child of it)
  std::string owner_id;       // the root run the map resumes ("" when its map record is gone)
  std::string owner_reactor;  // that run's reactor ("" likewise)
  std::string step;           // the map step's path in the run holding it ("" likewise)
};

// A worker process as the store sees it, through the leases it holds (a worker keeps none of its
// own record: one that died disappears when its leases lapse).
struct LiveWorker {
  std::string worker;               // its id: the part of its leases' owner before the first '/'
  std::vector<std::string> queues;  // the queues it serves (their "serving" lease is its)
  std::vector<std::string> runs;    // the running root runs whose lease it holds
};

// The newest sweeper pass: the worker whose claim won its window, and when the window was claimed.
struct SweepPass {
  std::string worker;
  std::int64_t at_ms = 0;  // Unix milliseconds
};

struct WorkersView {
  std::vector<LiveWorker> workers;               // by id
  std::map<std::string, std::string> served_by;  // queue -> worker id; absent: nobody serves it
  std::optional<SweepPass> last_sweep;           // nullopt: none in the last two windows
};

class Inspector {
 public:
  // `store` must outlive the inspector (e.g. *engine.backend()).
  explicit Inspector(Backend& store) : Inspector(store, store) { backend_ = &store; }
  Inspector(RunStore& runs, MapStore& maps) : runs_(runs), maps_(maps) {}

  // The runs matching `filter` (status, reactor, elements, limit) and how many
  // match. The store's error, if it fails.
  Result<RunListing> list_runs(const RunFilter& filter) const;
  // How many runs match `filter` (its status, reactor and elements; not its limit), without
  // listing any: a count per status costs one index read each.
  Result<std::size_t> count_runs(const RunFilter& filter) const { return runs_.count_runs(filter); }

  // Map `map_id` (MapRow::map_id). NotFound when there is none: an inline map,
  // one not dispatched yet, or one purged with its owner.
  Result<MapProgress> map_progress(const std::string& map_id) const;

  // The ids of `map`'s failed elements (its slots filed failed: element runs or elements of
  // claims, which `Engine::find` reads alike), in index order, at most `limit` of them, from at
  // most `max_scanned` slots read a page at a time, and no page more once map.failed are found.
  // The store's error, if it fails.
  Result<std::vector<std::string>> failed_elements(const MapProgress& map, std::size_t limit,
                                                   std::uint32_t max_scanned) const;

  // Every fan-out map a run dispatched — its own map steps and its composed
  // children's, not those of its elements (each an element run of its own) —
  // in the order they were first dispatched. `run_id` is a root or an element
  // run; NotFound when there is none, Corruption when its records cannot be read.
  Result<std::vector<MapProgress>> run_maps(const std::string& run_id) const;

  // Whether `run_id` is an element run of a fan-out map (or an element of a claimed map, which
  // has no run of its own): of which, or nullopt for any other run. NotFound when there is no
  // such run.
  Result<std::optional<ElementInfo>> element_of(const std::string& run_id) const;

  // Each of `queues`' jobs: ready, delayed, in flight, the oldest due (JobQueue::queue_stats).
  // FailedPrecondition for an inspector made without a Backend (no queue to ask).
  Result<std::vector<QueueStats>> queue_stats(const std::vector<std::string>& queues) const;

  // The inputs `run_id` (a root, a composed child or an element run) was started with, as
  // stored: NOT redacted — a caller showing them masks the redacted ones first
  // (Registry definition's schema). NotFound when there is no such run.
  Result<Value> inputs_of(const std::string& run_id) const;

  // The live workers seen through the store's leases: who serves each of `queues`, who holds the
  // lease of each running root run (at most `run_limit` of them read), and the sweeper's claims
  // of the last two windows of `sweep_interval` (the workers' WorkerOptions::sweep_interval) at
  // `now`. FailedPrecondition for an inspector made without a Backend; the store's error.
  Result<WorkersView> workers(const std::vector<std::string>& queues, std::size_t run_limit,
                              Duration sweep_interval, TimePoint now) const;

 private:
  std::vector<WaitingInterrupt> waiting_in(const std::string& run_id) const;
  Result<std::optional<ElementInfo>> claimed_element(const std::string& run_id) const;

  RunStore& runs_;
  MapStore& maps_;
  Backend* backend_ = nullptr;  // with the Backend constructor: its queues and leases
};

}  // namespace reactor
