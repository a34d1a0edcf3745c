#include "reactor/hold_store.hpp"

namespace reactor {

const char* to_string(HoldKind k) { return k == HoldKind::kLock ? "lock" : "semaphore"; }

const char* to_string(TakeOutcome o) {
  switch (o) {
    case TakeOutcome::kTaken:
      return "taken";
    case TakeOutcome::kHeld:
      return "held";
    case TakeOutcome::kRateLimited:
      return "rate_limited";
    case TakeOutcome::kPeriodDone:
      return "period_done";
    case TakeOutcome::kOrderedWait:
      return "ordered_wait";
    case TakeOutcome::kOrderedChainFailed:
      return "ordered_chain_failed";
  }
  return "unknown";
}

}  // namespace reactor
