// Coordination's rows on SQLite (schema version 8, docs/storage.md) read into and written from a
// storage::HoldState, so that the rules judging them are hold_rules' (the memory backend's) and
// not a second copy in SQL. A call reads the rows of the keys it names, lets the rules change the
// state, and writes those keys back whole, inside its one write transaction.
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <utility>

#include "storage/hold_rules.hpp"
#include "storage/sqlite/connection.hpp"

namespace reactor::sqlite {

// The keys whose rows one call reads and writes back.
struct HoldKeys {
  std::set<std::string> holds;
  std::set<std::pair<std::string, std::int64_t>> rates;  // (key, window_ms): all its buckets
  std::set<std::string> periods;
  std::set<std::string> ordered;
};

// The keys a take names.
HoldKeys keys_of(const TakeRequest& r);
// The keys a commit's coordination touches: every hold of the holders it releases, its marks,
// its chains.
HoldKeys keys_of(Connection& db, const CommitRequest& c);

// Exactly the rows of `keys`. Throws std::invalid_argument for a hold kind this build does not
// know.
storage::HoldState load_holds(Connection& db, const HoldKeys& keys);
// Every row: what coordination() shows.
storage::HoldState load_all_holds(Connection& db);
// Replaces the rows of `keys` by what `st` holds of them.
void save_holds(Connection& db, const HoldKeys& keys, const storage::HoldState& st);

// How runs look to the rules, read from `runs` and `leases` inside the caller's transaction; a
// run lease is live while it has an owner and has not expired at `now_ms`. Throws
// std::invalid_argument for a status this build does not know.
storage::RunFacts run_facts(Connection& db, std::int64_t now_ms);

// A commit's releases, period marks and ordered joins (storage::apply_commit_holds), after its
// fence check, in its transaction.
void write_commit_holds(Connection& db, const CommitRequest& c);

}  // namespace reactor::sqlite
