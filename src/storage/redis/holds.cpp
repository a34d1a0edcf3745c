// Coordination on Redis (reactor/hold_store.hpp): a take is one script (take_holds), judged by
// the rules of storage/hold_rules.cpp spelled in Lua; the view one read-only script
// (coordination); an operator's call on an ordered chain one script (ordered_chain). What a
// commit does to holds rides in the general commit script (commit.cpp). Keys: docs/redis.md.
#include <algorithm>
#include <tuple>

#include "storage/commit_refusals.hpp"
#include "storage/hold_rules.hpp"
#include "storage/redis/backend.hpp"
#include "storage/redis/call.hpp"
#include "storage/redis/reply.hpp"
#include "storage/redis/script_args.hpp"

namespace reactor {

using redis::append_section;
using redis::BadReply;
using redis::element;
using redis::integer;
using redis::ScriptId;
using redis::text;

namespace {

// What each status says to the rules (storage::status_role), as the scripts take it
// (includes/run_facts.lua): the rules' table is written once, in C++.
constexpr auto kStatusRoleArgs = [](const RunStatus& s, auto& v) {
  const storage::StatusRole role = storage::status_role(s);
  v("status", s);
  v("ended", role.ended);
  v("failed", role.failed);
  v("holds_unleased", role.holds_unleased);
  v("paused", role.paused);
};
constexpr auto kGateArgs = [](const OrderedGate& g, auto& v) {
  v("key", g.key);
  v("run_id", g.run_id);
  v("poison_pill_ms", g.poison_pill_ms);
  v("strict", g.strict);
};
constexpr auto kPeriodArgs = [](const std::string& mark, auto& v) { v("mark", mark); };
constexpr auto kRateArgs = [](const RateCharge& c, auto& v) {
  v("key", c.key);
  v("window_ms", c.window_ms);
  v("limit", c.limit);
};
constexpr auto kClaimArgs = [](const HoldClaim& c, auto& v) {
  v("kind", c.kind);
  v("key", c.key);
  v("limit", c.limit);
  v("claim", c.claim);
};

void append_status_roles(std::vector<std::string>& args) {
  append_section(all_run_statuses(), kStatusRoleArgs, args);
}

// The take_holds script's arguments, docs in scripts/take_holds-4.lua.
std::vector<std::string> take_args(const TakeRequest& r) {
  std::vector<std::string> args = {r.holder, r.fence_run, std::to_string(r.fencing_token),
                                   r.charge_id};
  append_status_roles(args);
  append_section(r.ordered, kGateArgs, args);
  append_section(r.periods, kPeriodArgs, args);
  append_section(r.rates, kRateArgs, args);
  append_section(r.holds, kClaimArgs, args);
  return args;
}

TakeOutcome outcome_named(const std::string& name) {
  for (TakeOutcome o :
       {TakeOutcome::kTaken, TakeOutcome::kHeld, TakeOutcome::kRateLimited,
        TakeOutcome::kPeriodDone, TakeOutcome::kOrderedWait, TakeOutcome::kOrderedChainFailed}) {
    if (name == to_string(o)) return o;
  }
  throw BadReply("an unknown take outcome '" + name + "'");
}

HoldKind hold_kind_named(const std::string& name) {
  if (name == to_string(HoldKind::kLock)) return HoldKind::kLock;
  if (name == to_string(HoldKind::kSemaphore)) return HoldKind::kSemaphore;
  throw BadReply("an unknown hold kind '" + name + "'");
}

// Reads a flat list reply (the coordination script's) value by value.
class FlatReader {
 public:
  explicit FlatReader(const redisReply& r) : r_(r) {
    if (r.type != REDIS_REPLY_ARRAY) throw BadReply("expected an array");
  }
  bool done() const { return at_ >= r_.elements; }
  std::string next_text() { return text(element(r_, at_++)); }
  std::int64_t next_integer() { return integer(element(r_, at_++)); }

 private:
  const redisReply& r_;
  std::size_t at_ = 0;
};

// A chain as chain_row() lists it (scripts/includes/coordination.lua), its members by seq.
OrderedChainRow read_chain(const std::string& key, FlatReader& in) {
  OrderedChainRow row;
  row.key = key;
  row.next_seq = in.next_integer();
  row.failed = in.next_integer() == 1;
  row.failed_run = in.next_text();
  for (std::int64_t n = in.next_integer(); n > 0; --n) {
    OrderedMember m;
    m.seq = in.next_integer();
    m.run_id = in.next_text();
    row.members.push_back(std::move(m));
  }
  return row;
}

// One hold's live holders, by holder id (as `reactor locks` lists them).
HoldRow read_hold(FlatReader& in) {
  HoldRow row;
  row.key = in.next_text();
  row.kind = hold_kind_named(in.next_text());
  row.limit = static_cast<int>(in.next_integer());
  std::vector<std::pair<std::string, std::string>> holders;
  for (std::int64_t n = in.next_integer(); n > 0; --n) {
    std::string holder = in.next_text();
    holders.emplace_back(std::move(holder), in.next_text());
  }
  std::sort(holders.begin(), holders.end());
  for (auto& [holder, claim] : holders) {
    row.holders.push_back(std::move(holder));
    row.claims.push_back(std::move(claim));
  }
  return row;
}

RateWindowRow read_window(FlatReader& in) {
  RateWindowRow row;
  row.key = in.next_text();
  row.window_ms = in.next_integer();
  row.bucket_start_ms = in.next_integer();
  row.count = static_cast<int>(in.next_integer());
  return row;
}

// The coordination script's reply, in the order the memory backend lists it (by key).
CoordinationView read_view(const redisReply& r) {
  CoordinationView v;
  for (FlatReader in(element(r, 0)); !in.done();) v.holds.push_back(read_hold(in));
  for (FlatReader in(element(r, 1)); !in.done();) v.rate_windows.push_back(read_window(in));
  for (FlatReader in(element(r, 2)); !in.done();) {
    std::string mark = in.next_text();
    v.periods.push_back(PeriodRow{std::move(mark), in.next_text()});
  }
  for (FlatReader in(element(r, 3)); !in.done();) {
    const std::string key = in.next_text();
    v.ordered.push_back(read_chain(key, in));
  }
  std::sort(v.holds.begin(), v.holds.end(),
            [](const HoldRow& a, const HoldRow& b) { return a.key < b.key; });
  std::sort(v.rate_windows.begin(), v.rate_windows.end(), [](const auto& a, const auto& b) {
    return std::tie(a.key, a.window_ms, a.bucket_start_ms) <
           std::tie(b.key, b.window_ms, b.bucket_start_ms);
  });
  std::sort(v.periods.begin(), v.periods.end(),
            [](const PeriodRow& a, const PeriodRow& b) { return a.mark < b.mark; });
  std::sort(v.ordered.begin(), v.ordered.end(),
            [](const OrderedChainRow& a, const OrderedChainRow& b) { return a.key < b.key; });
  return v;
}

}  // namespace

Result<TakeResult> RedisBackend::take_holds(const TakeRequest& r) {
  if (r.holder.empty()) return Status::InvalidArgument("take_holds: no holder");
  TakeResult out;
  Status s = run(ScriptId::kTakeHolds, {}, take_args(r), [&](const redisReply& reply) {
    // 0: the fence (scripts/take_holds-4.lua).
    if (reply.type == REDIS_REPLY_INTEGER) {
      return storage::fenced_out(r.fence_run, r.fencing_token);
    }
    FlatReader in(reply);
    out.outcome = outcome_named(in.next_text());
    out.key = in.next_text();
    out.holder = in.next_text();
    out.retry_after_ms = in.next_integer();
    while (!in.done()) out.skipped.push_back(in.next_text());
    return Status::Ok();
  });
  if (!s.ok()) return s;
  return out;
}

Result<CoordinationView> RedisBackend::coordination() {
  std::vector<std::string> args;
  append_status_roles(args);
  CoordinationView out;
  Status s = run(ScriptId::kCoordination, {}, std::move(args), [&](const redisReply& reply) {
    out = read_view(reply);
    return Status::Ok();
  });
  if (!s.ok()) return s;
  return out;
}

// ordered_peek, _skip and _reset: one script, `op` naming the call.
Result<OrderedChainRow> RedisBackend::ordered_chain_call(const std::string& op,
                                                         const std::string& key) {
  OrderedChainRow out;
  Status s = run(ScriptId::kOrderedChain, {}, {op, key}, [&](const redisReply& reply) {
    // 0: a chain never joined.
    if (reply.type == REDIS_REPLY_INTEGER) return storage::no_chain(key);
    FlatReader in(reply);
    out = read_chain(key, in);
    return Status::Ok();
  });
  if (!s.ok()) return s;
  return out;
}

Result<OrderedChainRow> RedisBackend::ordered_peek(const std::string& key) {
  return ordered_chain_call("peek", key);
}
Result<OrderedChainRow> RedisBackend::ordered_skip(const std::string& key) {
  return ordered_chain_call("skip", key);
}
Result<OrderedChainRow> RedisBackend::ordered_reset(const std::string& key) {
  return ordered_chain_call("reset", key);
}

}  // namespace reactor
