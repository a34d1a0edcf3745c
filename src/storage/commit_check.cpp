#include "storage/commit_check.hpp"

#include <string>

#include "reactor/limits.hpp"

namespace reactor::storage {

namespace {

bool settles_one_map(const MapSettle& settle) {
  if (settle.slots.empty() || settle.slots.front().map_id.empty()) return false;
  for (const MapSlotRow& slot : settle.slots) {
    if (slot.map_id != settle.slots.front().map_id) return false;
  }
  return true;
}

}  // namespace

Status check_commit(const CommitRequest& c) {
  if (c.fencing_token != 0 && c.root_id.empty()) {
    return Status::InvalidArgument("commit: a fenced commit needs the root run id");
  }
  for (const auto& h : c.headers) {
    if (h.id.empty() || h.root_id.empty()) {
      return Status::InvalidArgument("commit: run header without id or root id (run '" + h.id +
                                     "')");
    }
  }
  for (const auto& i : c.inputs) {
    if (i.run_id.empty()) return Status::InvalidArgument("commit: inputs without run id");
  }
  // Past reactor/limits.hpp's bounds a stored run is corrupt: such a row is refused, not written.
  for (const auto& s : c.steps) {
    if (s.run_id.empty()) return Status::InvalidArgument("commit: step row without run id");
    if (s.index >= kMaxRunSteps) {
      return Status::InvalidArgument("commit: step " + std::to_string(s.index) + " of run '" +
                                     s.run_id + "' is past the " + std::to_string(kMaxRunSteps) +
                                     " steps a run may have");
    }
  }
  for (const auto& t : c.trace) {
    if (t.root_id.empty()) return Status::InvalidArgument("commit: trace row without root id");
    if (t.seq >= kMaxTraceEvents) {
      return Status::InvalidArgument("commit: trace event " + std::to_string(t.seq) + " of run '" +
                                     t.root_id + "' is past the " +
                                     std::to_string(kMaxTraceEvents) + " events a trace may hold");
    }
  }
  for (const auto& j : c.redeliver) {
    if (j.run_id.empty() || j.queue.empty()) {
      return Status::InvalidArgument("commit: redelivery without run id or queue (run '" +
                                     j.run_id + "')");
    }
  }
  for (const auto& j : c.enqueue) {
    if (j.run_id.empty() || j.queue.empty()) {
      return Status::InvalidArgument("commit: job without run id or queue (run '" + j.run_id +
                                     "')");
    }
  }
  for (const auto& m : c.maps) {
    if (m.map_id.empty() || m.owner_id.empty() || m.queue.empty() || m.batch_size == 0 ||
        m.claim == 0) {
      return Status::InvalidArgument(
          "commit: map row without id, owner or queue, or with batch_size or claim 0 (map '" +
          m.map_id + "')");
    }
  }
  if (c.settle && !settles_one_map(*c.settle)) {
    return Status::InvalidArgument("commit: a settle names no map, or more than one");
  }
  return Status::Ok();
}

}  // namespace reactor::storage
