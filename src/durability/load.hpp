// Reading a stored run as its caller sees it.
#pragma once

#include <string>

#include "reactor/backend.hpp"
#include "reactor/run_result.hpp"

namespace reactor {

// Loads a run as a RunResult. NotFound, or Corruption for unreadable records.
// A run failed for unreadable records is shown by its header, which says why.
Status load_result(RunStore& store, const std::string& run_id, RunResult& out);

}  // namespace reactor
