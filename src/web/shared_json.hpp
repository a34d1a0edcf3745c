// The JSON shapes the CLI's --json output and the dashboard's API share (docs/observability.md,
// "The JSON API"): one definition each, so the two never drift apart.
#pragma once

#include "reactor/inspector.hpp"
#include "reactor/definition.hpp"
#include "reactor/value.hpp"

namespace reactor::web {

// "step", "compose", "map", "async" or "interrupt".
const char* step_kind_name(StepKind kind);

// {map_id, step, state, total, done, failed, in_flight, rolled_back, released, batch_size, atomic,
//  owner_id, interrupted, cancelled}
Value map_progress_json(const MapProgress& m);

}  // namespace reactor::web
