// What a settle (CommitRequest::settle) does to its map, as every backend
// applies it inside its commit (Redis in includes/maps.lua, the same rules):
// the slot's counts, the stop after an atomic map's failure, the next
// release, and the settling of the map. Written once so that memory and
// SQLite cannot drift apart.
#pragma once

#include <cstdint>
#include <optional>

#include "reactor/records.hpp"

namespace reactor::storage {

struct SettleOutcome {
  // The element to release now: its run filed `enqueued`, its start job
  // enqueued on the map's queue.
  std::optional<std::uint32_t> release;
  // The map settled with this slot: its owner's resume is enqueued and the
  // owner's wake_at set to now.
  bool settled = false;
};

// Applies `slot` (its state now) of a slot that was `before` (nullopt: a new
// slot) to `map`. A slot written again in the state it had changes nothing;
// only a new slot counts its element's lost executions, releases an element,
// stops the map (a failure of an atomic map, a cancelled element) or settles it.
SettleOutcome apply_settle(MapRow& map, std::optional<SlotState> before, const MapSlotRow& slot);

}  // namespace reactor::storage
