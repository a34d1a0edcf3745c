// The stored names of a map's and a slot's states: they are in map rows and
// slots, so they never change once written.
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
