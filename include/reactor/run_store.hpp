// RunStore: the durable records of runs, read back — one facet of a Backend
// (backend.hpp), where the records are written by Backend::commit.
//
// Thread safety: a store is shared by every thread of its engine and its
// worker (N fetch threads, the heartbeat, the sweeper); every method may be
// called from any of them at once.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "reactor/records.hpp"
#include "reactor/result.hpp"
#include "reactor/status.hpp"

namespace reactor {

class RunStore {
 public:
  virtual ~RunStore() = default;

  // Reads a root run and all its children, as one consistent snapshot.
  // NotFound if absent; Corruption if the store itself cannot read a row.
  virtual Result<StoredRun> load_run(const std::string& root_id) = 0;
  // One header only (a root or child). NotFound if absent.
  virtual Result<RunHeaderRow> load_header(const std::string& run_id) = 0;
  // Root runs matching `filter`, newest update first, at most filter.limit.
  virtual Result<std::vector<RunHeaderRow>> list_runs(const RunFilter& filter) = 0;
  // How many root runs match `filter`'s status and reactor (its limit does not
  // count): what a listing cut at its limit leaves out. The default lists every
  // match and counts them; the backends of this library count in the store.
  virtual Result<std::size_t> count_runs(const RunFilter& filter);

  // Recovery, at most `limit` roots: runs that are running or rolling back
  // with no live lease (their worker died), enqueued runs with no job (their
  // job was lost), and waiting, paused or scheduled runs with a wake time and no job.
  virtual Result<std::vector<RunHeaderRow>> find_orphans(std::size_t limit) = 0;
  // Deletes terminal runs (with their children, steps, trace and jobs) whose
  // expiry passed; never one that has not ended. Returns how many roots were purged.
  virtual Result<std::size_t> purge_expired(std::size_t limit) = 0;
};

}  // namespace reactor
