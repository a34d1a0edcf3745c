// Correlation ids: the id an interrupt computes when it is reached (Builder::correlation_id), by
// which a resume finds it instead of naming the run and the step. Kept as a lease on
// "correlation:<id>" whose owner names the interrupt: the store's keyed, expiring, exclusive
// ownership — one waiting interrupt per id, conformance-tested on every backend — needs no
// record of its own. A lookup is only a hint: the resume checks the run's records, so an entry
// left by a run that ended misleads nobody.
#pragma once

#include <cstdint>
#include <string>

#include "durability/durable_env.hpp"
#include "reactor/result.hpp"

namespace reactor {

struct Correlation {
  std::string id;
  std::string root_id;  // the run
  std::string path;     // its interrupt's step path
};

// Holds `c.id` for its interrupt until `until_ms` (0: no deadline) and beyond by the records'
// retention. An id stays with its interrupt once resumed (a late resume by it is told so), until
// another interrupt reaches it: then it is taken over, unless its holder still waits —
// AlreadyExists naming that holder. Ok when this interrupt holds it already.
Status hold(DurableEnv& env, const Correlation& c, std::int64_t until_ms);
// The interrupt holding `id` (waiting, or resumed last under it); NotFound when none does.
Result<Correlation> find_correlation(Backend& backend, const std::string& id);

}  // namespace reactor
