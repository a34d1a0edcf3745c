// Time arithmetic shared by the backends: records store milliseconds since the
// Unix epoch, the Backend interface speaks in Durations.
#pragma once

#include <chrono>
#include <cstdint>

#include "reactor/clock.hpp"
#include "reactor/value.hpp"

namespace reactor::storage {

// Rounded up, so a positive TTL or visibility never collapses to "already expired".
inline std::int64_t to_ms(Duration d) {
  if (d <= Duration::zero()) return 0;
  return std::chrono::ceil<std::chrono::milliseconds>(d).count();
}

inline std::int64_t now_ms(const Clock& clock) { return to_unix_ms(clock.now()); }

}  // namespace reactor::storage
