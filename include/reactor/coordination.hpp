// Coordination: what a reactor or a step declares it needs from the runs around it — an
// exclusive lock, a semaphore token, room in a rate limit, a period not yet done, its turn in an
// ordered chain (docs/coordination.md). Declared on the Builder (with_lock, with_semaphore,
// with_rate_limit, with_period, with_ordered_lock): before the first step for the reactor (keys
// computed from its inputs), after a step for that step (keys from its resolved arguments).
//
// Holds are the root run's: a composed child and an async unit of the same root re-enter its
// locks; any other run waits. A hold lives as long as its holder's lease (or while the holder
// waits, parked on an async unit): a holder that dies gives it back when its lease lapses.
//
// The acquisition order is fixed: ordered gate, period check, rate limit, locks, semaphores;
// then the body; the period is marked by the commit that completes the run (or the step).
//
// Thread safety: the specs are immutable values once built; RateLimits is safe to use from any
// thread.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "reactor/args.hpp"
#include "reactor/clock.hpp"

namespace reactor {

// Computes a coordination key from the reactor's inputs (reactor level) or the step's resolved
// arguments (step level). A key function that throws, or returns "", fails the run (or the step)
// before any body with ErrorKind::kCoordinationKey; nothing is compensated.
using KeyFn = std::function<std::string(const Args&)>;
// A key that does not depend on the arguments.
KeyFn constant_key(std::string key);

struct LockOptions {
  // A caller's run (Engine::run) waits this long for a held key, then fails with
  // ErrorKind::kContended. A worker never waits: it snoozes the run (DurabilityOptions::
  // lock_snooze_base_delay), holding nothing meanwhile.
  Duration wait = std::chrono::seconds(0);
};

// A fixed window: at most `limit` executions per `length`, windows aligned on the Unix epoch.
struct RateWindow {
  Duration length;
  int limit = 0;
};

// A UTC calendar bucket: the second N-second slice since the epoch, the minute, hour, day, ISO
// week (Monday to Sunday), month or year.
struct PeriodSpec {
  enum class Unit { kSeconds, kMinute, kHour, kDay, kWeek, kMonth, kYear };
  Unit unit = Unit::kDay;
  std::int64_t seconds = 0;  // kSeconds only

  static PeriodSpec every_seconds(std::int64_t n) { return {Unit::kSeconds, n}; }
  static PeriodSpec minute() { return {Unit::kMinute, 0}; }
  static PeriodSpec hour() { return {Unit::kHour, 0}; }
  static PeriodSpec day() { return {Unit::kDay, 0}; }
  static PeriodSpec week() { return {Unit::kWeek, 0}; }
  static PeriodSpec month() { return {Unit::kMonth, 0}; }
  static PeriodSpec year() { return {Unit::kYear, 0}; }
};
// The bucket holding `unix_ms`, named as it reads: "2026-12-04" (day), "2026-W49" (week),
// "2026-12-04T14:05" (minute), "s3600:493812" (every 3600 s), ...
std::string period_bucket(const PeriodSpec& p, std::int64_t unix_ms);

struct OrderedLockOptions {
  // A run whose earlier run of the key has neither ended nor been seen alive (its lease, its
  // record) for this long skips it: a frozen or lost holder does not block the chain for ever.
  Duration poison_pill_timeout = std::chrono::minutes(10);
  // After a run of the chain failed, the later ones halt (reason ordered_lock_chain_failed)
  // until an operator resets the chain (`reactor ordered-lock reset KEY`).
  bool strict = true;
};

struct LockSpec {
  KeyFn key;
  LockOptions options;
};
struct SemaphoreSpec {
  KeyFn key;
  int limit = 1;
  LockOptions options;
};
struct RateLimitSpec {
  KeyFn key;
  std::vector<RateWindow> windows;  // or, when `named` is set, the engine's limit of that name
  std::string named;
};
struct PeriodDedupSpec {
  KeyFn key;  // none: the reactor's (or the step's) name
  PeriodSpec every;
};
struct OrderedLockSpec {
  KeyFn key;
  OrderedLockOptions options;
};

// Everything a reactor, or one step, declares.
struct CoordinationSpec {
  std::vector<LockSpec> locks;
  std::vector<SemaphoreSpec> semaphores;
  std::vector<RateLimitSpec> rate_limits;
  std::optional<PeriodDedupSpec> period;
  std::optional<OrderedLockSpec> ordered;

  bool empty() const {
    return locks.empty() && semaphores.empty() && rate_limits.empty() && !period && !ordered;
  }
};

// Rate limits registered by name on an engine (Engine::rate_limits()), shared by every reactor
// that names them with with_rate_limit(name). Naming a limit that is not registered is a
// definition error when the reactor is registered (Registry::add), not a run failure. Register
// the limits before the reactors that use them.
class RateLimits {
 public:
  // Adds or replaces the limit `name`. Throws DefinitionError for no window, a limit < 1 or a
  // window shorter than a millisecond.
  RateLimits& add(const std::string& name, std::vector<RateWindow> windows);
  std::optional<std::vector<RateWindow>> find(const std::string& name) const;
  // Every limit, by name (to register them on another engine).
  std::map<std::string, std::vector<RateWindow>> all() const;

 private:
  mutable std::mutex mu_;
  std::map<std::string, std::vector<RateWindow>> limits_;
};

}  // namespace reactor
