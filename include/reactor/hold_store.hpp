// HoldStore: what a store keeps for coordination (coordination.hpp, docs/coordination.md) —
// lock and semaphore holders, rate-limit windows, period marks and ordered chains — one facet of
// a Backend (backend.hpp). Taking is one call (take_holds), judged and written atomically;
// releasing, marking a period done and joining an ordered chain ride on a run's own fenced
// commits (CommitRequest's hold fields), so they cost no round trip of their own.
//
// A holder is a root run (a composed child and an async unit act for their root). Its holds
// live while it does: while its lease "run:<holder>" is live, or while it is filed `waiting`
// (parked on an async unit, a retry's backoff). A holder that died gives its holds back when its
// lease lapses, without anybody releasing them; so a semaphore's token is never lost.
//
// Thread safety: safe to call from any number of threads, and processes, at once. Durability:
// as Backend::commit's, when a call returns ok.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "reactor/result.hpp"
#include "reactor/status.hpp"

namespace reactor {

enum class HoldKind { kLock, kSemaphore };
const char* to_string(HoldKind k);  // "lock", "semaphore"

// One hold asked for: the key, and who within the holder's tree asks (released by that name).
struct HoldClaim {
  HoldKind kind = HoldKind::kLock;
  std::string key;
  int limit = 1;      // semaphore: tokens in all (a lock has one)
  std::string claim;  // "<run id>" (reactor level) or "<run id>/<step path>" (step level)
};

// One execution counted in every window of a rate limit's key.
struct RateCharge {
  std::string key;
  std::int64_t window_ms = 0;
  int limit = 0;
};

// Wait for the turn of `run_id` (joined at its start, CommitRequest::ordered_joins) in the
// chain `key`.
struct OrderedGate {
  std::string key;
  std::string run_id;
  std::int64_t poison_pill_ms = 0;
  bool strict = true;
};

// One call of take_holds, judged in the fixed order: ordered gates, period marks, rate windows,
// then the holds in the order given (locks sorted by key, then semaphores). Nothing is written
// unless everything passes — except that an ordered chain's ended or poisoned heads are removed.
struct TakeRequest {
  std::string holder;  // the root run holding
  // The lease that fences this take: a zombie (fencing_token no longer the newest of
  // "run:<fence_run>") takes nothing and gets LeaseLost. 0: unfenced.
  std::string fence_run;
  std::uint64_t fencing_token = 0;
  std::vector<OrderedGate> ordered;
  // Period marks "<key>@<bucket>" that must not be set by another run.
  std::vector<std::string> periods;
  // A charge counts once per window bucket under this id (a retry, a resume, a hand-off of the
  // same execution is not counted again).
  std::string charge_id;
  std::vector<RateCharge> rates;
  std::vector<HoldClaim> holds;
};

enum class TakeOutcome {
  kTaken,              // everything granted (or held by the holder already)
  kHeld,               // `key` is held by `holder` (live), or its semaphore is full
  kRateLimited,        // `key`'s window is full: retry after `retry_after_ms`
  kPeriodDone,         // `key` ("<key>@<bucket>") was completed by run `holder`
  kOrderedWait,        // an earlier run of the chain `key` (`holder`) has not ended
  kOrderedChainFailed  // a run of the strict chain `key` (`holder`) failed
};
const char* to_string(TakeOutcome o);

struct TakeResult {
  TakeOutcome outcome = TakeOutcome::kTaken;
  std::string key;
  std::string holder;
  std::int64_t retry_after_ms = 0;
  std::vector<std::string> skipped;  // ordered members skipped as poison pills
};

// What the store holds, as `reactor locks` shows it: live holders only.
struct HoldRow {
  std::string key;
  HoldKind kind = HoldKind::kLock;
  int limit = 1;
  std::vector<std::string> holders;  // root run ids
  std::vector<std::string> claims;   // parallel to holders
};
struct RateWindowRow {
  std::string key;
  std::int64_t window_ms = 0;
  std::int64_t bucket_start_ms = 0;
  int count = 0;
};
struct PeriodRow {
  std::string mark;  // "<key>@<bucket>"
  std::string run_id;
};
struct OrderedMember {
  std::int64_t seq = 0;
  std::string run_id;
};
struct OrderedChainRow {
  std::string key;
  std::int64_t next_seq = 1;
  bool failed = false;  // halted after a failure (strict), until reset
  std::string failed_run;
  std::vector<OrderedMember> members;  // runs not yet seen ended, by seq
};
struct CoordinationView {
  std::vector<HoldRow> holds;
  std::vector<RateWindowRow> rate_windows;
  std::vector<PeriodRow> periods;
  std::vector<OrderedChainRow> ordered;
};

// What a commit does to holds (CommitRequest). Applied after its fence check, with its rows.
struct HoldRelease {
  std::string holder;
  // Every claim of the holder that is this or under it ("<claim>/..."): a run's terminal commit
  // releases its id; a step's, "<run id>/<step path>".
  std::string claim;
};
struct PeriodMark {
  std::string mark;  // "<key>@<bucket>"
  std::string run_id;
};
struct OrderedJoin {
  std::string key;
  std::string run_id;  // joins at the chain's next seq, once
};

class HoldStore {
 public:
  virtual ~HoldStore() = default;
  virtual Result<TakeResult> take_holds(const TakeRequest& r) = 0;
  // Live holders, windows not yet over, period marks and chains with members or a failure.
  virtual Result<CoordinationView> coordination() = 0;
  // Operator calls on a chain (`reactor ordered-lock`): its state; skip its head (the run is
  // no longer waited for); reset (clear its failure, forget its members). NotFound for a chain
  // the store does not know.
  virtual Result<OrderedChainRow> ordered_peek(const std::string& key) = 0;
  virtual Result<OrderedChainRow> ordered_skip(const std::string& key) = 0;
  virtual Result<OrderedChainRow> ordered_reset(const std::string& key) = 0;
};

}  // namespace reactor
