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
  // Of those, the steps this execution marked as started (an attempt counted, its body about to
  // start): the writer may stamp them with who executes them before they are written.
  std::vector<std::pair<Run*, std::size_t>> started;
  // Of those, how many only copy what the store holds already (an async unit's outcome, read
  // from the slot its own commit filed): lost with this execution, they are read again, so they
  // wait for the next commit rather than call for one.
  std::size_t derived = 0;
  // The root's trace events from this index on are new.
  std::size_t trace_begin = 0;
  // The last write of this execution, which leaves the run unfinished (a stop request, a
  // hand-off): it stays running, for another execution to carry on.
  bool leave_unfinished = false;

  bool empty() const { return created.empty() && headers.empty() && steps.empty(); }
  // Written: nothing changed since, the trace from `trace_end` on is new. Keeps the vectors'
  // capacity, so a checkpoint a step costs no allocation.
  void clear(std::size_t trace_end) {
    created.clear();
    headers.clear();
    steps.clear();
    started.clear();
    derived = 0;
    trace_begin = trace_end;
    leave_unfinished = false;
  }
};

}  // namespace reactor
