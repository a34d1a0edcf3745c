// Validation every backend applies to a CommitRequest before writing anything,
// so a malformed request is refused the same way by all of them.
#pragma once

#include "reactor/backend.hpp"

namespace reactor::storage {

// InvalidArgument naming the first row without the ids a backend keys it by.
Status check_commit(const CommitRequest& c);

// Whether `c` is progress of its root (Delivery::run_deliveries): fenced by the run's lease, it
// carries a step row of the run's tree, acknowledges a job or releases the lease — a step was
// recorded, or the delivery ended by a write of its own (finished, suspended, handed back,
// failed, put off). Such a commit sets the root's count of deliveries without progress back to
// zero. A header alone is not progress: a delivery may write one and still crash after it.
// The Redis scripts apply the same rule (step_commit, finish_commit, commit).
inline bool is_progress(const CommitRequest& c) {
  return c.fencing_token != 0 && (!c.steps.empty() || c.ack_job.has_value() || c.release_lease);
}

}  // namespace reactor::storage
