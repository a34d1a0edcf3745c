#include <stdexcept>

#include "reactor/run.hpp"

namespace reactor {

// Stored in run headers: never rename one.
const char* to_string(SuspensionKind k) {
  switch (k) {
    case SuspensionKind::kUntil:
      return "until";
    case SuspensionKind::kEvent:
      return "event";
    case SuspensionKind::kChildren:
      return "children";
    case SuspensionKind::kPermit:
      return "permit";
  }
  return "unknown";
}

SuspensionKind suspension_kind_from_string(const std::string& s) {
  for (auto k : {SuspensionKind::kUntil, SuspensionKind::kEvent, SuspensionKind::kChildren,
                 SuspensionKind::kPermit}) {
    if (s == to_string(k)) return k;
  }
  throw std::invalid_argument("unknown suspension kind '" + s + "'");
}

}  // namespace reactor
