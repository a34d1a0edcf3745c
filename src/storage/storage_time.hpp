// Time arithmetic shared by the backends: records store milliseconds since the
// Unix epoch, the Backend interface speaks in Durations.
#pragma once

#include <chrono>
#include <cstdint>

#include "reactor/clock.hpp"
#include "reactor/records.hpp"
#include "reactor/result.hpp"
#include "reactor/status.hpp"
#include "reactor/value.hpp"

namespace reactor::storage {

// Rounded up, so a positive TTL or visibility never collapses to "already expired".
inline std::int64_t to_ms(Duration d) {
  if (d <= Duration::zero()) return 0;
  return std::chrono::ceil<std::chrono::milliseconds>(d).count();
}

inline std::int64_t now_ms(const Clock& clock) { return to_unix_ms(clock.now()); }

// When a wait of `max_wait` from now ends (MapStore::wait_for_settle), on the steady clock:
// saturating, so Duration::max() waits for ever.
inline std::chrono::steady_clock::time_point wait_deadline(Duration max_wait) {
  using std::chrono::steady_clock;
  const steady_clock::time_point now = steady_clock::now();
  if (max_wait <= Duration::zero()) return now;
  if (max_wait >= steady_clock::time_point::max() - now) return steady_clock::time_point::max();
  return now + std::chrono::ceil<steady_clock::duration>(max_wait);
}

// The loop of every MapStore::wait_for_settle: `read()` the map's row (a Result<MapRow>) until
// it is settled (true) or `deadline` has passed (false), calling `block(deadline)` — the
// backend's own wake-up, which may return early — between reads. A read's error ends it.
template <typename Read, typename Block>
Result<bool> wait_until_settled(Read&& read, Block&& block,
                                std::chrono::steady_clock::time_point deadline) {
  for (;;) {
    Result<MapRow> map = read();
    if (!map.ok()) return map.status();
    if (map->state == MapState::kSettled) return true;
    if (std::chrono::steady_clock::now() >= deadline) return false;
    if (Status s = block(deadline); !s.ok()) return s;
  }
}

}  // namespace reactor::storage
