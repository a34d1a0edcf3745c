// Reading a stored run as its caller sees it.
#pragma once

#include <string>

#include "reactor/backend.hpp"
#include "reactor/registry.hpp"
#include "reactor/run_result.hpp"

namespace reactor {

// Loads a run as a RunResult. NotFound, or Corruption for unreadable records.
// A run failed for unreadable records is shown by its header, which says why.
// Steps the records leave unnamed (records::name_steps) are named after the
// definition `registry` holds for the run, when it is the one the run was
// started on; otherwise they stay unnamed. An element of a claimed map, which has
// no run of its own, reads as its slot says (claims.hpp: read_claimed_element).
Status load_result(Backend& store, const Registry& registry, const std::string& run_id,
                   RunResult& out);

}  // namespace reactor
