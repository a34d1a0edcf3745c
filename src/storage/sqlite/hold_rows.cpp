// Coordination's rows read into a storage::HoldState and written back (hold_rows.hpp).
#include "storage/sqlite/hold_rows.hpp"

#include <limits>
#include <stdexcept>

#include "reactor/leases.hpp"

namespace reactor::sqlite {

using storage::HoldState;

namespace {

const std::string kHolders = "SELECT key, holder, claim, kind, lim FROM hold_holders";
const std::string kWindows = "SELECT key, window_ms, bucket_ms, count FROM rate_windows";
const std::string kCharges = "SELECT key, window_ms, bucket_ms, charge_id FROM rate_charges";
const std::string kPeriods = "SELECT mark, run_id FROM period_marks";
const std::string kChains = "SELECT key, next_seq, failed, failed_run FROM ordered_chains";
const std::string kMembers = "SELECT key, seq, run_id FROM ordered_members";

HoldKind hold_kind(const std::string& name) {
  if (name == "lock") return HoldKind::kLock;
  if (name == "semaphore") return HoldKind::kSemaphore;
  throw std::invalid_argument("hold kind '" + name + "' is unknown");
}

// One row of each table into the state, in the columns of the SELECTs above.
void read_holder(const Statement& st, HoldState& out) {
  storage::HoldEntry& e = out.holds[st.text(0)];
  e.kind = hold_kind(st.text(3));
  e.limit = static_cast<int>(st.int64(4));
  e.holders[st.text(1)] = st.text(2);
}
void read_window(const Statement& st, HoldState& out) {
  out.rates[{st.text(0), st.int64(1), st.int64(2)}].count = static_cast<int>(st.int64(3));
}
void read_charge(const Statement& st, HoldState& out) {
  out.rates[{st.text(0), st.int64(1), st.int64(2)}].charges.insert(st.text(3));
}
void read_period(const Statement& st, HoldState& out) { out.periods[st.text(0)] = st.text(1); }
void read_chain(const Statement& st, HoldState& out) {
  storage::OrderedEntry& e = out.ordered[st.text(0)];
  e.next_seq = st.int64(1);
  e.failed = st.int64(2) != 0;
  e.failed_run = st.text(3);
}
void read_member(const Statement& st, HoldState& out) {
  out.ordered[st.text(0)].members[st.int64(1)] = st.text(2);
}

template <typename... Args>
void read_rows(Connection& db, const std::string& sql, void (*read)(const Statement&, HoldState&),
               HoldState& out, const Args&... args) {
  Statement st = db.prepare(sql);
  if constexpr (sizeof...(Args) > 0) st.bind(args...);
  while (st.step()) read(st, out);
}

void save_hold(Connection& db, const std::string& key, const HoldState& st) {
  db.prepare("DELETE FROM hold_holders WHERE key = ?").bind(key).run();
  auto it = st.holds.find(key);
  if (it == st.holds.end()) return;
  for (const auto& [holder, claim] : it->second.holders) {
    db.prepare("INSERT INTO hold_holders(key, holder, claim, kind, lim) VALUES (?, ?, ?, ?, ?)")
        .bind(key, holder, claim, to_string(it->second.kind), it->second.limit)
        .run();
  }
}

// Every bucket of the window (the rules drop the ones that are over).
void save_window(Connection& db, const std::string& key, std::int64_t window_ms,
                 const HoldState& st) {
  db.prepare("DELETE FROM rate_windows WHERE key = ? AND window_ms = ?").bind(key, window_ms).run();
  db.prepare("DELETE FROM rate_charges WHERE key = ? AND window_ms = ?").bind(key, window_ms).run();
  const std::int64_t first = std::numeric_limits<std::int64_t>::min();
  for (auto it = st.rates.lower_bound({key, window_ms, first});
       it != st.rates.end() && std::get<0>(it->first) == key && std::get<1>(it->first) == window_ms;
       ++it) {
    const std::int64_t bucket = std::get<2>(it->first);
    db.prepare("INSERT INTO rate_windows(key, window_ms, bucket_ms, count) VALUES (?, ?, ?, ?)")
        .bind(key, window_ms, bucket, it->second.count)
        .run();
    for (const std::string& charge : it->second.charges) {
      db.prepare(
            "INSERT INTO rate_charges(key, window_ms, bucket_ms, charge_id) VALUES (?, ?, ?, ?)")
          .bind(key, window_ms, bucket, charge)
          .run();
    }
  }
}

void save_period(Connection& db, const std::string& mark, const HoldState& st) {
  db.prepare("DELETE FROM period_marks WHERE mark = ?").bind(mark).run();
  auto it = st.periods.find(mark);
  if (it == st.periods.end()) return;
  db.prepare("INSERT INTO period_marks(mark, run_id) VALUES (?, ?)").bind(mark, it->second).run();
}

void save_chain(Connection& db, const std::string& key, const HoldState& st) {
  db.prepare("DELETE FROM ordered_chains WHERE key = ?").bind(key).run();
  db.prepare("DELETE FROM ordered_members WHERE key = ?").bind(key).run();
  auto it = st.ordered.find(key);
  if (it == st.ordered.end()) return;
  const storage::OrderedEntry& e = it->second;
  db.prepare("INSERT INTO ordered_chains(key, next_seq, failed, failed_run) VALUES (?, ?, ?, ?)")
      .bind(key, e.next_seq, e.failed ? 1 : 0, e.failed_run)
      .run();
  for (const auto& [seq, run_id] : e.members) {
    db.prepare("INSERT INTO ordered_members(key, seq, run_id) VALUES (?, ?, ?)")
        .bind(key, seq, run_id)
        .run();
  }
}

}  // namespace

HoldKeys keys_of(const TakeRequest& r) {
  HoldKeys keys;
  for (const HoldClaim& c : r.holds) keys.holds.insert(c.key);
  for (const RateCharge& c : r.rates) keys.rates.emplace(c.key, c.window_ms);
  keys.periods.insert(r.periods.begin(), r.periods.end());
  for (const OrderedGate& g : r.ordered) keys.ordered.insert(g.key);
  return keys;
}

HoldKeys keys_of(Connection& db, const CommitRequest& c) {
  HoldKeys keys;
  for (const HoldRelease& rel : c.release_holds) {
    Statement st = db.prepare("SELECT key FROM hold_holders WHERE holder = ?");
    st.bind(rel.holder);
    while (st.step()) keys.holds.insert(st.text(0));
  }
  for (const PeriodMark& m : c.period_marks) keys.periods.insert(m.mark);
  for (const OrderedJoin& j : c.ordered_joins) keys.ordered.insert(j.key);
  return keys;
}

HoldState load_holds(Connection& db, const HoldKeys& keys) {
  HoldState out;
  for (const std::string& key : keys.holds) {
    read_rows(db, kHolders + " WHERE key = ?", &read_holder, out, key);
  }
  for (const auto& [key, window_ms] : keys.rates) {
    const std::string where = " WHERE key = ? AND window_ms = ?";
    read_rows(db, kWindows + where, &read_window, out, key, window_ms);
    read_rows(db, kCharges + where, &read_charge, out, key, window_ms);
  }
  for (const std::string& mark : keys.periods) {
    read_rows(db, kPeriods + " WHERE mark = ?", &read_period, out, mark);
  }
  for (const std::string& key : keys.ordered) {
    read_rows(db, kChains + " WHERE key = ?", &read_chain, out, key);
    read_rows(db, kMembers + " WHERE key = ?", &read_member, out, key);
  }
  return out;
}

HoldState load_all_holds(Connection& db) {
  HoldState out;
  read_rows(db, kHolders, &read_holder, out);
  read_rows(db, kWindows, &read_window, out);
  read_rows(db, kCharges, &read_charge, out);
  read_rows(db, kPeriods, &read_period, out);
  read_rows(db, kChains, &read_chain, out);
  read_rows(db, kMembers, &read_member, out);
  return out;
}

void save_holds(Connection& db, const HoldKeys& keys, const HoldState& st) {
  for (const std::string& key : keys.holds) save_hold(db, key, st);
  for (const auto& [key, window_ms] : keys.rates) save_window(db, key, window_ms, st);
  for (const std::string& mark : keys.periods) save_period(db, mark, st);
  for (const std::string& key : keys.ordered) save_chain(db, key, st);
}

storage::RunFacts run_facts(Connection& db, std::int64_t now_ms) {
  return storage::RunFacts{
      [&db, now_ms](const std::string& run_id) -> std::optional<storage::RunSeen> {
        Statement st = db.prepare(
            "SELECT r.status, r.updated_at, l.owner IS NOT NULL AND l.expires_at > ?3 "
            "FROM runs r LEFT JOIN leases l ON l.key = ?2 WHERE r.id = ?1");
        st.bind(run_id, run_lease_key(run_id), now_ms);
        if (!st.step()) return std::nullopt;
        return storage::RunSeen{run_status_from_string(st.text(0)), st.int64(1), st.int64(2) != 0};
      }};
}

void write_commit_holds(Connection& db, const CommitRequest& c) {
  const HoldKeys keys = keys_of(db, c);
  HoldState st = load_holds(db, keys);
  storage::apply_commit_holds(st, c);
  save_holds(db, keys, st);
}

}  // namespace reactor::sqlite
