#include "durability/coordination/hold_plan.hpp"

#include <algorithm>
#include <exception>

#include "reactor/definition.hpp"

namespace reactor {

namespace {

// The key `fn` computes, or the error that fails the run: a key must be a non-empty string.
Result<std::string> key_of(const KeyFn& fn, const Args& args, const char* what) {
  std::string key;
  try {
    key = fn(args);
  } catch (const std::exception& e) {
    return Status::InvalidArgument(std::string("the key function of ") + what +
                                   " threw: " + e.what());
  } catch (...) {
    return Status::InvalidArgument(std::string("the key function of ") + what + " threw");
  }
  if (key.empty()) {
    return Status::InvalidArgument(std::string("the key function of ") + what +
                                   " returned an empty key");
  }
  return key;
}

Status plan_locks(const CoordinationSpec& spec, const Args& args, const PlanContext& ctx,
                  HoldPlan& plan) {
  std::vector<std::string> keys;
  for (const LockSpec& l : spec.locks) {
    Result<std::string> key = key_of(l.key, args, "with_lock");
    if (!key.ok()) return key.status();
    keys.push_back(*key);
    plan.wait = std::max(plan.wait, l.options.wait);
    plan.rollback_wait = std::max(plan.rollback_wait, l.options.rollback_wait);
  }
  // Taken in key order, each once: two runs locking the same keys cannot deadlock.
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  for (std::string& k : keys) plan.holds.push_back(HoldClaim{HoldKind::kLock, k, 1, ctx.claim});
  for (const SemaphoreSpec& s : spec.semaphores) {
    Result<std::string> key = key_of(s.key, args, "with_semaphore");
    if (!key.ok()) return key.status();
    plan.holds.push_back(HoldClaim{HoldKind::kSemaphore, *key, s.limit, ctx.claim});
    plan.wait = std::max(plan.wait, s.options.wait);
    plan.rollback_wait = std::max(plan.rollback_wait, s.options.rollback_wait);
  }
  return Status::Ok();
}

Status plan_rates(const CoordinationSpec& spec, const Args& args, const PlanContext& ctx,
                  HoldPlan& plan) {
  for (const RateLimitSpec& r : spec.rate_limits) {
    Result<std::string> key = key_of(r.key, args, "with_rate_limit");
    if (!key.ok()) return key.status();
    std::vector<RateWindow> windows = r.windows;
    if (!r.named.empty()) {
      auto named = ctx.limits ? ctx.limits->find(r.named) : std::nullopt;
      if (!named) return Status::InvalidArgument("rate limit '" + r.named + "' is not registered");
      windows = std::move(*named);
    }
    for (const RateWindow& w : windows) {
      const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(w.length).count();
      plan.rates.push_back(RateCharge{*key, ms, w.limit});
    }
  }
  return Status::Ok();
}

// The period is checked, and its bucket locked so that two runs of one bucket cannot both run;
// it is marked by the completing commit.
Status plan_period(const CoordinationSpec& spec, const Args& args, const PlanContext& ctx,
                   HoldPlan& plan) {
  if (!spec.period) return Status::Ok();
  std::string key = ctx.default_key;
  if (spec.period->key) {
    Result<std::string> k = key_of(spec.period->key, args, "with_period");
    if (!k.ok()) return k.status();
    key = *k;
  }
  const std::string mark = key + "@" + period_bucket(spec.period->every, ctx.now_ms);
  plan.periods.push_back(mark);
  plan.marks.push_back(PeriodMark{mark, ctx.run_id});
  plan.holds.insert(plan.holds.begin(), HoldClaim{HoldKind::kLock, "period:" + mark, 1, ctx.claim});
  return Status::Ok();
}

Status plan_ordered(const CoordinationSpec& spec, const Args& args, const PlanContext& ctx,
                    HoldPlan& plan) {
  if (!spec.ordered) return Status::Ok();
  Result<std::string> key = key_of(spec.ordered->key, args, "with_ordered_lock");
  if (!key.ok()) return key.status();
  const auto poison = std::chrono::duration_cast<std::chrono::milliseconds>(
                          spec.ordered->options.poison_pill_timeout)
                          .count();
  plan.ordered.push_back(OrderedGate{*key, ctx.run_id, poison, spec.ordered->options.strict});
  plan.joins.push_back(OrderedJoin{*key, ctx.run_id});
  return Status::Ok();
}

}  // namespace

TakeRequest HoldPlan::request(std::string holder, std::string charge_id) const {
  TakeRequest r;
  r.holder = std::move(holder);
  r.ordered = ordered;
  r.periods = periods;
  r.charge_id = std::move(charge_id);
  r.rates = rates;
  r.holds = holds;
  return r;
}

Result<HoldPlan> plan_holds(const CoordinationSpec& spec, const Args& args,
                            const PlanContext& ctx) {
  HoldPlan plan;
  for (auto part : {plan_ordered, plan_period, plan_rates, plan_locks}) {
    if (Status s = part(spec, args, ctx, plan); !s.ok()) return s;
  }
  return plan;
}

std::optional<OrderedJoin> ordered_join_of(const DefinitionData& d, const std::string& run_id,
                                           const Value& inputs) {
  if (!d.coordination.ordered) return std::nullopt;
  Result<std::string> key = key_of(d.coordination.ordered->key, args_of_inputs(inputs), "");
  if (!key.ok()) return std::nullopt;
  return OrderedJoin{*key, run_id};
}

Args args_of_inputs(const Value& inputs) {
  Args args;
  if (!inputs.is_object()) return args;
  for (auto it = inputs.begin(); it != inputs.end(); ++it) args.add_view(it.key(), &it.value());
  return args;
}

}  // namespace reactor
