#include "storage/hold_rules.hpp"

#include <vector>

namespace reactor::storage {

namespace {

bool ended(const std::optional<RunSeen>& seen) { return !seen || status_role(seen->status).ended; }

bool failed(const std::optional<RunSeen>& seen) { return seen && status_role(seen->status).failed; }

// Neither its lease nor its record has shown the run alive for longer than the timeout.
bool stale(const std::optional<RunSeen>& seen, std::int64_t poison_pill_ms, std::int64_t now_ms) {
  if (holds_alive(seen) || status_role(seen->status).paused) return false;
  return now_ms - seen->updated_at_ms > poison_pill_ms;
}

// Whether `gate.run_id` may go: every earlier member of its chain ended (and, strict, none
// failed). Ended and poisoned heads leave the chain on the way.
std::optional<TakeResult> judge_gate(HoldState& st, const OrderedGate& gate, const RunFacts& facts,
                                     std::int64_t now_ms, TakeResult& out) {
  auto chain = st.ordered.find(gate.key);
  if (chain == st.ordered.end()) return std::nullopt;
  OrderedEntry& e = chain->second;
  std::int64_t mine = -1;
  for (const auto& [seq, run] : e.members) {
    if (run == gate.run_id) mine = seq;
  }
  if (mine < 0) return std::nullopt;  // not (or no longer) in the chain: nothing to wait for
  for (auto it = e.members.begin(); it != e.members.end() && it->first < mine;) {
    const std::optional<RunSeen> seen = facts.seen(it->second);
    if (ended(seen)) {
      if (gate.strict && failed(seen)) {
        e.failed = true;
        e.failed_run = it->second;
      }
    } else if (stale(seen, gate.poison_pill_ms, now_ms)) {
      out.skipped.push_back(it->second);
    } else {
      return TakeResult{TakeOutcome::kOrderedWait, gate.key, it->second, 0, out.skipped};
    }
    it = e.members.erase(it);
  }
  if (gate.strict && e.failed) {
    return TakeResult{TakeOutcome::kOrderedChainFailed, gate.key, e.failed_run, 0, out.skipped};
  }
  return std::nullopt;
}

std::optional<TakeResult> judge_rates(const HoldState& st, const TakeRequest& r,
                                      std::int64_t now_ms) {
  for (const RateCharge& c : r.rates) {
    const std::int64_t bucket = rate_bucket(now_ms, c.window_ms);
    auto it = st.rates.find({c.key, c.window_ms, bucket});
    if (it == st.rates.end() || it->second.charges.count(r.charge_id)) continue;
    if (it->second.count >= c.limit) {
      return TakeResult{TakeOutcome::kRateLimited, c.key, "", bucket + c.window_ms - now_ms, {}};
    }
  }
  return std::nullopt;
}

void charge_rates(HoldState& st, const TakeRequest& r, std::int64_t now_ms) {
  for (const RateCharge& c : r.rates) {
    const std::int64_t bucket = rate_bucket(now_ms, c.window_ms);
    // Earlier buckets of this window are over: nothing reads them again.
    for (auto it = st.rates.lower_bound({c.key, c.window_ms, 0});
         it != st.rates.end() && std::get<0>(it->first) == c.key &&
         std::get<1>(it->first) == c.window_ms && std::get<2>(it->first) < bucket;) {
      it = st.rates.erase(it);
    }
    RateEntry& e = st.rates[{c.key, c.window_ms, bucket}];
    if (e.charges.insert(r.charge_id).second) ++e.count;
  }
}

void prune_dead(HoldEntry& e, const RunFacts& facts) {
  std::erase_if(e.holders, [&](const auto& h) { return !holds_alive(facts.seen(h.first)); });
}

std::optional<TakeResult> judge_holds(HoldState& st, const TakeRequest& r, const RunFacts& facts) {
  for (const HoldClaim& c : r.holds) {
    auto it = st.holds.find(c.key);
    if (it == st.holds.end()) continue;
    HoldEntry& e = it->second;
    if (e.holders.count(r.holder)) continue;  // re-entered by its root
    prune_dead(e, facts);
    const int limit = c.kind == HoldKind::kLock ? 1 : c.limit;
    if (static_cast<int>(e.holders.size()) >= limit) {
      return TakeResult{TakeOutcome::kHeld, c.key, e.holders.begin()->first, 0, {}};
    }
  }
  return std::nullopt;
}

void grant_holds(HoldState& st, const TakeRequest& r) {
  for (const HoldClaim& c : r.holds) {
    HoldEntry& e = st.holds[c.key];
    e.kind = c.kind;
    e.limit = c.kind == HoldKind::kLock ? 1 : c.limit;
    e.holders.emplace(r.holder, c.claim);
  }
}

}  // namespace

StatusRole status_role(RunStatus s) {
  return StatusRole{is_terminal(s), s == RunStatus::kFailed || s == RunStatus::kQuarantined,
                    s == RunStatus::kWaiting, s == RunStatus::kPaused};
}

bool holds_alive(const std::optional<RunSeen>& seen) {
  return seen && (seen->lease_live || status_role(seen->status).holds_unleased);
}

std::int64_t rate_bucket(std::int64_t now_ms, std::int64_t window_ms) {
  return window_ms <= 0 ? now_ms : now_ms - now_ms % window_ms;
}

TakeResult decide_take(HoldState& st, const TakeRequest& r, const RunFacts& facts,
                       std::int64_t now_ms) {
  TakeResult out;
  for (const OrderedGate& gate : r.ordered) {
    if (auto refused = judge_gate(st, gate, facts, now_ms, out)) return *refused;
  }
  for (const std::string& mark : r.periods) {
    auto it = st.periods.find(mark);
    if (it != st.periods.end() && it->second != r.holder) {
      return TakeResult{TakeOutcome::kPeriodDone, mark, it->second, 0, out.skipped};
    }
  }
  if (auto refused = judge_rates(st, r, now_ms)) {
    refused->skipped = out.skipped;
    return *refused;
  }
  if (auto refused = judge_holds(st, r, facts)) {
    refused->skipped = out.skipped;
    return *refused;
  }
  charge_rates(st, r, now_ms);
  grant_holds(st, r);
  return out;
}

bool releases(const HoldRelease& release, const std::string& holder, const std::string& claim) {
  if (holder != release.holder) return false;
  return claim == release.claim || (claim.size() > release.claim.size() &&
                                    claim.compare(0, release.claim.size(), release.claim) == 0 &&
                                    claim[release.claim.size()] == '/');
}

void apply_commit_holds(HoldState& st, const CommitRequest& c) {
  for (const HoldRelease& rel : c.release_holds) {
    for (auto it = st.holds.begin(); it != st.holds.end();) {
      std::erase_if(it->second.holders,
                    [&](const auto& h) { return releases(rel, h.first, h.second); });
      it = it->second.holders.empty() ? st.holds.erase(it) : std::next(it);
    }
  }
  for (const PeriodMark& m : c.period_marks) st.periods.emplace(m.mark, m.run_id);
  for (const OrderedJoin& j : c.ordered_joins) {
    OrderedEntry& e = st.ordered[j.key];
    bool member = false;
    for (const auto& [seq, run] : e.members) member = member || run == j.run_id;
    if (!member) e.members.emplace(e.next_seq++, j.run_id);
  }
}

OrderedChainRow chain_row(const std::string& key, const OrderedEntry& e) {
  OrderedChainRow row{key, e.next_seq, e.failed, e.failed_run, {}};
  for (const auto& [seq, run] : e.members) row.members.push_back(OrderedMember{seq, run});
  return row;
}

CoordinationView live_view(const HoldState& st, const RunFacts& facts, std::int64_t now_ms) {
  CoordinationView v;
  for (const auto& [key, e] : st.holds) {
    HoldRow row{key, e.kind, e.limit, {}, {}};
    for (const auto& [holder, claim] : e.holders) {
      if (!holds_alive(facts.seen(holder))) continue;
      row.holders.push_back(holder);
      row.claims.push_back(claim);
    }
    if (!row.holders.empty()) v.holds.push_back(std::move(row));
  }
  for (const auto& [bucket, e] : st.rates) {
    const auto& [key, window_ms, start_ms] = bucket;
    if (start_ms + window_ms <= now_ms) continue;
    v.rate_windows.push_back(RateWindowRow{key, window_ms, start_ms, e.count});
  }
  for (const auto& [mark, run] : st.periods) v.periods.push_back(PeriodRow{mark, run});
  for (const auto& [key, e] : st.ordered) {
    if (e.members.empty() && !e.failed) continue;
    v.ordered.push_back(chain_row(key, e));
  }
  return v;
}

}  // namespace reactor::storage
