// What a settle (CommitRequest::settle) does to its map, as every backend
// applies it inside its commit (Redis in includes/maps.lua, the same rules):
// each slot's counts and the stop after an atomic map's failure, then the
// next releases and the settling of the map. Written once so that memory and
// SQLite cannot drift apart.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "reactor/records.hpp"

namespace reactor::storage {

// Applies `slot` (its state now) of a slot that was `before` (nullopt: a new
// slot) to `map`'s counts. A slot written again in the state it had changes
// nothing; only a new slot counts its element's lost executions and may stop
// the map (a failure of an atomic map, a cancelled element).
void count_slot(MapRow& map, std::optional<SlotState> before, const MapSlotRow& slot);

struct SettleOutcome {
  // The claims to release now, each by its first element: the claim's run
  // (claim_run_id) filed `enqueued`, its start job enqueued on the map's queue.
  std::vector<std::uint32_t> releases;
  // The map settled: its owner's resume is enqueued and the owner's wake_at set to now.
  bool settled = false;
};

// After a settle's slots are counted: releases claims while the map runs and fewer than
// batch_size of its elements are out, and settles it once every released element reported.
// Nothing, after slots that were all written before (the window was full before them).
SettleOutcome release_and_settle(MapRow& map);

}  // namespace reactor::storage
