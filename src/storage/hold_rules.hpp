// The rules of coordination (hold_store.hpp) on the state of the keys a call touches, shared by
// the backends that judge in C++ (memory; SQLite inside its write transaction). The Redis
// backend applies the same rules in its scripts (src/storage/redis/scripts/take_holds-4.lua);
// one conformance suite (tests/conformance/test_holds.cpp) holds all three to them.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>

#include "reactor/backend.hpp"
#include "reactor/hold_store.hpp"
#include "reactor/run_status.hpp"

namespace reactor::storage {

struct HoldEntry {
  HoldKind kind = HoldKind::kLock;
  int limit = 1;
  std::map<std::string, std::string> holders;  // holder (root run id) -> claim
};

struct RateEntry {
  int count = 0;
  std::set<std::string> charges;  // charge ids counted in this bucket
};
// (key, window_ms, bucket_start_ms)
using RateBucket = std::tuple<std::string, std::int64_t, std::int64_t>;

struct OrderedEntry {
  std::int64_t next_seq = 1;
  bool failed = false;
  std::string failed_run;
  std::map<std::int64_t, std::string> members;  // seq -> run id
};

// The state of some keys (all of them for memory; the ones a call names for SQLite).
struct HoldState {
  std::map<std::string, HoldEntry> holds;
  std::map<RateBucket, RateEntry> rates;
  std::map<std::string, std::string> periods;  // mark -> run id
  std::map<std::string, OrderedEntry> ordered;
};

// What a run looks like to the rules, read from the store's own rows.
struct RunSeen {
  RunStatus status = RunStatus::kEnqueued;
  std::int64_t updated_at_ms = 0;
  bool lease_live = false;
};
struct RunFacts {
  // nullopt: no such run (never stored, or purged).
  std::function<std::optional<RunSeen>(const std::string& run_id)> seen;
};

// What a run's status says to the rules, for each status: what they read of it, here and in a
// store that judges them in its own scripts (Redis takes this table in its arguments).
struct StatusRole {
  bool ended = false;   // terminal: a chain no longer waits for it
  bool failed = false;  // ended failing: a strict chain halts behind it
  bool holds_unleased =
      false;            // waiting (an async unit, a retry's backoff): holds kept without a lease
  bool paused = false;  // at an interrupt: never a poison pill, however long it stays
};
StatusRole status_role(RunStatus s);

// Whether a holder's holds are alive: its lease is live, or it waits (parked on an async unit,
// a retry's backoff) without one.
bool holds_alive(const std::optional<RunSeen>& seen);

// Judges `r` (hold_store.hpp's order) and, when everything passes, applies it to `st`. An ordered
// chain's ended and poisoned heads, and dead holders, are removed whatever the outcome.
TakeResult decide_take(HoldState& st, const TakeRequest& r, const RunFacts& facts,
                       std::int64_t now_ms);

// A commit's coordination: its releases, period marks and ordered joins.
void apply_commit_holds(HoldState& st, const CommitRequest& c);

// Whether `claim` is released by `release` ("x" releases "x" and "x/...").
bool releases(const HoldRelease& release, const std::string& holder, const std::string& claim);

// What `reactor locks` shows: live holders, current windows, marks, chains.
CoordinationView live_view(const HoldState& st, const RunFacts& facts, std::int64_t now_ms);
OrderedChainRow chain_row(const std::string& key, const OrderedEntry& e);

// The start of the bucket of `window_ms` holding `now_ms`.
std::int64_t rate_bucket(std::int64_t now_ms, std::int64_t window_ms);

}  // namespace reactor::storage
