// CheckpointDelta: what changed in a run tree since its last checkpoint, so a
// durable checkpoint writes that and nothing else — its cost does not grow
// with the number of steps already completed.
#pragma once

#include <cstddef>
#include <utility>
#include <vector>

namespace reactor {

struct Run;

struct CheckpointDelta {
  // Runs created since the last checkpoint (the root on its first one, a
  // composed child or map element when it starts): written whole.
  std::vector<const Run*> created;
  // Runs (the root or children) whose header changed: status, value, error,
  // completion counter — or that were just created.
  std::vector<const Run*> headers;
  // (run, step index) pairs whose StepRecord changed.
  std::vector<std::pair<const Run*, std::size_t>> steps;
  // The root's trace events from this index on are new.
  std::size_t trace_begin = 0;
  // The last commit of this execution, which hands the run back unfinished
  // (a worker shutting down): it stays running, for another worker to carry on.
  bool release_unfinished = false;

  bool empty() const { return created.empty() && headers.empty() && steps.empty(); }
};

}  // namespace reactor
