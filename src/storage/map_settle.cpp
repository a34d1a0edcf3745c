#include "storage/map_settle.hpp"

namespace reactor::storage {

namespace {

void count(MapRow& map, SlotState state, int by) {
  if (state == SlotState::kFailed) map.failed += by;
  if (state == SlotState::kUndone) map.undone += by;
  if (state == SlotState::kCancelled) map.cancelled += by;
}

}  // namespace

void count_slot(MapRow& map, std::optional<SlotState> before, const MapSlotRow& slot) {
  const SlotState now = slot.state;
  if (before) {
    if (*before != now) {
      count(map, *before, -1);
      count(map, now, +1);
    }
    return;
  }
  ++map.done;
  map.interrupted += slot.interrupted;
  count(map, now, +1);
  const bool stops = (now == SlotState::kFailed && map.atomic) || now == SlotState::kCancelled;
  if (stops && map.state == MapState::kRunning) map.state = MapState::kFailing;
  // The next claim to release, cancelled before its release: it counts as released (and its
  // elements, cancelled in the same settle, as reported), so that the map settles once those
  // already out report.
  if (now == SlotState::kCancelled && slot.index >= map.released) {
    map.released = claim_end(map, slot.index);
  }
}

SettleOutcome release_and_settle(MapRow& map) {
  SettleOutcome out;
  auto out_now = [&] { return map.released > map.done ? map.released - map.done : 0; };
  while (map.state == MapState::kRunning && map.released < map.total &&
         out_now() < map.batch_size) {
    out.releases.push_back(map.released);
    map.released = claim_end(map, map.released);
  }
  // Settled once every released element has reported: all of them, or after a failure of an
  // atomic map those already out (the rest never start).
  const bool all_out = map.state == MapState::kFailing || map.released >= map.total;
  if (map.state != MapState::kSettled && all_out && map.done >= map.released) {
    map.state = MapState::kSettled;
    out.settled = true;
  }
  return out;
}

}  // namespace reactor::storage
