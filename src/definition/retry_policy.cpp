#include "reactor/retry_policy.hpp"

#include <algorithm>
#include <limits>

namespace reactor {

namespace {

using Rep = Duration::rep;
constexpr Rep kMaxRep = std::numeric_limits<Rep>::max();

// base * factor, saturating instead of overflowing: attempt 70 of an exponential backoff must
// still mean "wait as long as max_delay allows", not a negative delay.
Rep saturating_multiply(Rep base, Rep factor) {
  if (base != 0 && factor > kMaxRep / base) return kMaxRep;
  return base * factor;
}

}  // namespace

Duration RetryPolicy::delay_before_jitter(int attempt) const {
  const Rep base = std::max<Rep>(base_delay_.count(), 0);
  const Rep n = std::max(attempt, 1);
  Rep delay = base;
  switch (backoff_) {
    case Backoff::kFixed:
      break;
    case Backoff::kLinear:
      delay = saturating_multiply(base, n);
      break;
    case Backoff::kExponential:
      // 2^(n-1) overflows Rep from n = 64 on; any non-zero base saturates well before that.
      delay = n - 1 >= std::numeric_limits<Rep>::digits
                  ? (base == 0 ? 0 : kMaxRep)
                  : saturating_multiply(base, Rep{1} << (n - 1));
      break;
  }
  Duration result(delay);
  if (max_delay_ && result > *max_delay_) result = *max_delay_;
  return result;
}

}  // namespace reactor
