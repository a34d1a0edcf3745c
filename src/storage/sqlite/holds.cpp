// HoldStore on SQLite (reactor/hold_store.hpp): each call one transaction that reads the rows of
// the keys it names into a storage::HoldState, judges them by the shared rules (hold_rules.hpp)
// and writes those keys back (hold_rows.hpp).
#include <stdexcept>

#include "storage/commit_refusals.hpp"
#include "storage/sqlite/backend.hpp"
#include "storage/sqlite/hold_rows.hpp"
#include "storage/sqlite/rows.hpp"
#include "storage/sqlite/transact.hpp"

namespace reactor {

using sqlite::Connection;

namespace {

// A row this build cannot read (a hold kind, a run status it does not know) is Corruption,
// not an internal error.
template <typename Body>
Status judging_rows(const std::string& what, Body&& body) {
  try {
    return body();
  } catch (const std::invalid_argument& e) {
    return Status::Corruption(what + ": " + e.what());
  }
}

void skip_head(storage::OrderedEntry& e) {
  if (!e.members.empty()) e.members.erase(e.members.begin());
}

void reset_chain(storage::OrderedEntry& e) {
  e.members.clear();
  e.failed = false;
  e.failed_run.clear();
}

}  // namespace

Result<TakeResult> SqliteBackend::take_holds(const TakeRequest& r) {
  if (r.holder.empty()) return Status::InvalidArgument("take_holds: no holder");
  const sqlite::HoldKeys keys = sqlite::keys_of(r);
  TakeResult out;
  Status s = transact(Mode::kWrite, "take_holds", [&](Connection& db) -> Status {
    // Fence first: a zombie's take writes nothing, not even the chain heads the rules drop.
    if (r.fencing_token != 0) {
      if (Status fenced = sqlite::check_fence(db, r.fence_run, r.fencing_token); !fenced.ok()) {
        return fenced;
      }
    }
    return judging_rows(url_ + ": take_holds", [&] {
      const std::int64_t now = now_ms();
      storage::HoldState st = sqlite::load_holds(db, keys);
      out = storage::decide_take(st, r, sqlite::run_facts(db, now), now);
      sqlite::save_holds(db, keys, st);
      return Status::Ok();
    });
  });
  if (!s.ok()) return s;
  return out;
}

Result<CoordinationView> SqliteBackend::coordination() {
  CoordinationView out;
  Status s = transact(Mode::kRead, "coordination", [&](Connection& db) -> Status {
    return judging_rows(url_ + ": coordination", [&] {
      const std::int64_t now = now_ms();
      out = storage::live_view(sqlite::load_all_holds(db), sqlite::run_facts(db, now), now);
      return Status::Ok();
    });
  });
  if (!s.ok()) return s;
  return out;
}

Result<OrderedChainRow> SqliteBackend::on_chain(const std::string& key, const char* what,
                                                void (*change)(storage::OrderedEntry&)) {
  sqlite::HoldKeys keys;
  keys.ordered.insert(key);
  OrderedChainRow out;
  Status s = transact(change ? Mode::kWrite : Mode::kRead, what, [&](Connection& db) -> Status {
    storage::HoldState st = sqlite::load_holds(db, keys);
    auto chain = st.ordered.find(key);
    if (chain == st.ordered.end()) return storage::no_chain(key);
    if (change) {
      change(chain->second);
      sqlite::save_holds(db, keys, st);
    }
    out = storage::chain_row(key, chain->second);
    return Status::Ok();
  });
  if (!s.ok()) return s;
  return out;
}

Result<OrderedChainRow> SqliteBackend::ordered_peek(const std::string& key) {
  return on_chain(key, "ordered_peek", nullptr);
}

Result<OrderedChainRow> SqliteBackend::ordered_skip(const std::string& key) {
  return on_chain(key, "ordered_skip", &skip_head);
}

Result<OrderedChainRow> SqliteBackend::ordered_reset(const std::string& key) {
  return on_chain(key, "ordered_reset", &reset_chain);
}

}  // namespace reactor
