// The EventContext of an event of `run` (in the tree of `root`): what observers are told, the
// trace fields included (the run's traceparent and creation, who last executed the root).
#pragma once

#include <string>

#include "reactor/observer.hpp"
#include "reactor/run.hpp"

namespace reactor {

inline EventContext event_context(const std::string& run_id, const std::string& reactor,
                                  const std::string& step, int attempt, const Run& run,
                                  const Run& root) {
  return EventContext{run_id,           reactor,          step,
                      attempt,          run.trace_parent, run.created_at_ms,
                      root.exec_worker, root.exec_token};
}

}  // namespace reactor
