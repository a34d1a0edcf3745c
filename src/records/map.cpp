// The stored names of a map's and a slot's states: they are in map rows and
// slots, so they never change once written.
#include <algorithm>
#include <cstdint>
#include <stdexcept>

#include "reactor/records.hpp"

namespace reactor {

const char* to_string(MapState s) {
  switch (s) {
    case MapState::kRunning:
      return "running";
    case MapState::kFailing:
      return "failing";
    case MapState::kSettled:
      return "settled";
  }
  return "unknown";
}

MapState map_state_from_string(const std::string& s) {
  if (s == "running") return MapState::kRunning;
  if (s == "failing") return MapState::kFailing;
  if (s == "settled") return MapState::kSettled;
  throw std::invalid_argument("unknown map state '" + s + "'");
}

const char* to_string(SlotState s) {
  switch (s) {
    case SlotState::kCompleted:
      return "completed";
    case SlotState::kFailed:
      return "failed";
    case SlotState::kHalted:
      return "halted";
    case SlotState::kUndone:
      return "undone";
    case SlotState::kCancelled:
      return "cancelled";
  }
  return "unknown";
}

SlotState slot_state_from_string(const std::string& s) {
  if (s == "completed") return SlotState::kCompleted;
  if (s == "failed") return SlotState::kFailed;
  if (s == "halted") return SlotState::kHalted;
  if (s == "undone") return SlotState::kUndone;
  if (s == "cancelled") return SlotState::kCancelled;
  throw std::invalid_argument("unknown slot state '" + s + "'");
}

std::string element_run_id(const std::string& map_id, std::uint32_t index) {
  return map_id + "[" + std::to_string(index) + "]";
}

ClaimOf claim_of(const MapRow& map, std::uint32_t index) {
  const std::uint32_t claim = std::max<std::uint32_t>(map.claim, 1);
  return ClaimOf{map.map_id, index - index % claim, claim_end(map, index) - 1};
}

std::string claim_run_id(const ClaimOf& claim) {
  return claim.map_id + "[" + std::to_string(claim.first) + ".." + std::to_string(claim.last) + "]";
}

std::string claim_run_id(const MapRow& map, std::uint32_t index) {
  if (map.claim <= 1) return element_run_id(map.map_id, index);
  return claim_run_id(claim_of(map, index));
}

std::uint32_t claim_end(const MapRow& map, std::uint32_t index) {
  const std::uint64_t claim = std::max<std::uint32_t>(map.claim, 1);
  const std::uint64_t end = (index / claim + 1) * claim;
  return static_cast<std::uint32_t>(std::min<std::uint64_t>(end, std::max(map.total, index + 1)));
}

std::optional<ClaimOf> parse_claim_run_id(const std::string& run_id) {
  const std::size_t open = run_id.rfind('[');
  const std::size_t dots = run_id.rfind("..");
  if (open == std::string::npos || dots == std::string::npos || dots < open ||
      run_id.back() != ']' || run_id.find(':') > open) {
    return std::nullopt;
  }
  std::optional<ElementOf> first = parse_element_run_id(run_id.substr(0, dots) + "]");
  std::optional<ElementOf> last =
      parse_element_run_id(run_id.substr(0, open + 1) + run_id.substr(dots + 2));
  if (!first || !last || last->index < first->index) return std::nullopt;
  return ClaimOf{first->map_id, first->index, last->index};
}

std::optional<ElementOf> parse_element_run_id(const std::string& run_id) {
  if (run_id.size() < 4 || run_id.back() != ']' || run_id.find(':') == std::string::npos) {
    return std::nullopt;
  }
  const std::size_t open = run_id.rfind('[');
  if (open == std::string::npos || open + 3 > run_id.size())
    return std::nullopt;  // a digit at least
  std::uint64_t n = 0;
  for (std::size_t k = open + 1; k + 1 < run_id.size(); ++k) {
    const char c = run_id[k];
    if (c < '0' || c > '9' || n > UINT32_MAX / 10) return std::nullopt;
    n = n * 10 + static_cast<std::uint64_t>(c - '0');
  }
  if (n > UINT32_MAX) return std::nullopt;
  return ElementOf{run_id.substr(0, open), static_cast<std::uint32_t>(n)};
}

}  // namespace reactor
