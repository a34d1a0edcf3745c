#include "durability/coordination/holding.hpp"

#include <algorithm>
#include <thread>

#include "durability/durable_fan_out.hpp"
#include "reactor/records.hpp"

namespace reactor {

namespace {

// The root run whose holds these are: an async unit's (a map element's) is its owner's root.
std::string holder_of(const Run& root) {
  std::string id = root.id;
  while (std::optional<ElementOf> e = parse_element_run_id(id)) id = e->origin();
  return id;
}

bool is_contention(TakeOutcome o) {
  return o == TakeOutcome::kHeld || o == TakeOutcome::kRateLimited ||
         o == TakeOutcome::kOrderedWait;
}

constexpr auto kCallerPoll = std::chrono::milliseconds(50);

std::int64_t ms_of(Duration d) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(d).count();
}

// Every key a plan takes, comma-separated: what an "acquired" event names.
std::string keys_of(const HoldPlan& plan) {
  std::string out;
  auto add = [&](const std::string& k) { out += (out.empty() ? "" : ",") + k; };
  for (const OrderedGate& g : plan.ordered) add(g.key);
  for (const RateCharge& r : plan.rates) {
    if (out.find(r.key) == std::string::npos) add(r.key);
  }
  for (const HoldClaim& h : plan.holds) add(h.key);
  return out;
}

// A rollback takes no turn, no rate and marks no period: only the plan's locks and semaphores.
HoldPlan holds_only(const HoldPlan& plan) {
  HoldPlan out;
  out.holds = plan.holds;
  out.rollback_wait = plan.rollback_wait;
  return out;
}

// The keys of the locks and semaphores a plan takes.
std::vector<std::string> hold_keys(const HoldPlan& plan) {
  std::vector<std::string> out;
  for (const HoldClaim& h : plan.holds) out.push_back(h.key);
  return out;
}

}  // namespace

void Holding::notify(const char* what, const std::string& level, const std::string& step,
                     const std::string& key, const std::string& holder) const {
  if (!env_.observe) return;
  const std::string event = what;
  env_.observe(def_, [&](Observer& o) {
    o.on_coordination(EventContext{fence_run_, def_.name(), step, 0},
                      CoordinationEvent{event, level, key, holder});
  });
}

Holding::Holding(DurableEnv& env, const Definition& def, const Run& root, const Lease& lease,
                 Where where)
    : env_(env),
      def_(def),
      holder_(holder_of(root)),
      fence_run_(root.id),
      token_(lease.token),
      where_(where) {}

PlanContext Holding::context(std::string claim, std::string default_key) const {
  return PlanContext{fence_run_, std::move(claim), std::move(default_key), env_.now_ms(),
                     &env_.registry.rate_limits()};
}

Duration Holding::wait_of(const HoldPlan& plan) const {
  return where_.in_worker ? Duration::zero() : plan.wait;
}

Result<TakeResult> Holding::take(const HoldPlan& plan, const std::string& charge_id,
                                 Duration wait) const {
  TakeRequest r = plan.request(holder_, charge_id);
  r.fence_run = fence_run_;
  r.fencing_token = token_;
  const TimePoint deadline = env_.clock.now() + wait;
  for (;;) {
    Result<TakeResult> t = env_.backend.take_holds(r);
    if (!t.ok() || !is_contention(t->outcome) || env_.clock.now() >= deadline) return t;
    Duration pause = kCallerPoll;
    if (t->outcome == TakeOutcome::kRateLimited) {
      pause = std::max<Duration>(pause, std::chrono::milliseconds(t->retry_after_ms));
    }
    env_.clock.sleep_until(std::min(deadline, env_.clock.now() + pause));
  }
}

std::int64_t Holding::snooze_due(const TakeResult& t) const {
  if (t.outcome == TakeOutcome::kRateLimited) {
    return env_.now_ms() + t.retry_after_ms + 1 +
           ms_of(env_.jitter(env_.options.lock_snooze_jitter));
  }
  const Duration delay =
      env_.options.lock_snooze_base_delay + env_.jitter(env_.options.lock_snooze_jitter);
  return env_.now_ms() + ms_of(delay);
}

std::string Holding::contended(const TakeResult& t, const std::string& step) const {
  std::string where =
      "reactor '" + def_.name() + "'" + (step.empty() ? "" : ", step '" + step + "'");
  std::string why;
  switch (t.outcome) {
    case TakeOutcome::kRateLimited:
      why = "rate limit '" + t.key + "' is full";
      break;
    case TakeOutcome::kOrderedWait:
      why = "ordered lock '" + t.key + "' waits for run " + t.holder;
      break;
    default:
      why = "key '" + t.key + "' is held by run " + t.holder;
  }
  if (where_.in_worker) {
    return where + ": " + why + ", through " + std::to_string(where_.snoozes) + " snoozes";
  }
  return where + ": " + why;
}

Admission Holding::admit(const Run& root) {
  const CoordinationSpec& spec = def_.data()->coordination;
  if (spec.empty()) return {};
  Args args = args_of_inputs(root.inputs);
  Result<HoldPlan> plan = plan_holds(spec, args, context(fence_run_, def_.name()));
  Admission a;
  if (!plan.ok()) {
    a.kind = Admission::Kind::kFail;
    a.error = ErrorKind::kCoordinationKey;
    a.message = "reactor '" + def_.name() + "': " + plan.status().message();
    return a;
  }
  if (any_step_executed(root)) {
    // Its turn and its charge were had when it first ran: a resume re-takes its holds only.
    plan->ordered.clear();
    plan->rates.clear();
  } else if (!where_.in_worker && !plan->ordered.empty()) {
    a.kind = Admission::Kind::kFail;
    a.error = ErrorKind::kCoordinationKey;
    a.message = "reactor '" + def_.name() +
                "': an ordered lock orders the runs started in the background (its turn is "
                "taken at the start); start it with run_in_background or `reactor start`";
    return a;
  }
  Result<TakeResult> t = take(*plan, fence_run_, wait_of(*plan));
  if (!t.ok()) return Admission{Admission::Kind::kStopped, 0, true, {}, {}, {}, t.status()};
  switch (t->outcome) {
    case TakeOutcome::kTaken:
      run_marks_ = plan->marks;
      run_keys_ = keys_of(*plan);
      notify("acquired", "reactor", "", run_keys_);
      return a;
    case TakeOutcome::kPeriodDone:
      a.kind = Admission::Kind::kHalt;
      a.value = Value{{"reason", "period"}, {"key", t->key}, {"completed_by", t->holder}};
      return a;
    case TakeOutcome::kOrderedChainFailed:
      a.kind = Admission::Kind::kHalt;
      a.value = Value{
          {"reason", "ordered_lock_chain_failed"}, {"key", t->key}, {"failed_run", t->holder}};
      return a;
    default:
      break;
  }
  notify("contended", "reactor", "", t->key, t->holder);
  const bool counts = t->outcome != TakeOutcome::kOrderedWait;
  const int cap = env_.options.lock_snooze_max_attempts;
  if (!where_.in_worker || (counts && cap >= 0 && where_.snoozes >= cap)) {
    a.kind = Admission::Kind::kFail;
    a.message = contended(*t, "");
    return a;
  }
  a.kind = Admission::Kind::kSnooze;
  a.due_ms = snooze_due(*t);
  a.counts = counts;
  return a;
}

StepGate Holding::enter_step(const StepAsk& ask) {
  const std::string claim = fence_run_ + "/" + ask.path;
  Result<HoldPlan> plan = plan_holds(step_coordination(ask.spec), ask.args,
                                     context(claim, def_.name() + "/" + ask.path));
  StepGate gate;
  if (!plan.ok()) {
    gate.verdict = StepGate::Verdict::kFail;
    gate.kind = ErrorKind::kCoordinationKey;
    gate.message = "step '" + ask.path + "': " + plan.status().message();
    return gate;
  }
  if (!ask.first_attempt) {
    plan->periods.clear();  // judged before its first attempt
    plan->rates.clear();    // counted once per execution of the step, not per retry
  }
  Result<TakeResult> t = take(*plan, claim, wait_of(*plan));
  if (t.ok() && t->outcome == TakeOutcome::kTaken) {
    const std::string keys = keys_of(*plan);
    notify("acquired", "step", ask.path, keys);
    std::lock_guard lock(mu_);
    steps_.push_back(StepHold{&ask.run, ask.step, ask.path, claim, keys, plan->marks,
                              StepStatus::kRunning, hold_keys(*plan)});
    return gate;
  }
  if (t.ok() && t->outcome == TakeOutcome::kPeriodDone) {
    gate.verdict = StepGate::Verdict::kSkip;
    gate.value = Value{{"reason", "period"}, {"key", t->key}, {"completed_by", t->holder}};
    return gate;
  }
  if (!t.ok() && !where_.in_worker) {
    gate.verdict = StepGate::Verdict::kFail;
    gate.kind = ErrorKind::kInternal;
    gate.message = "step '" + ask.path + "': coordination: " + t.status().to_string();
    return gate;
  }
  if (t.ok()) notify("contended", "step", ask.path, t->key, t->holder);
  const int cap = env_.options.lock_snooze_max_attempts;
  if (t.ok() && (!where_.in_worker || (cap >= 0 && where_.snoozes >= cap))) {
    gate.verdict = StepGate::Verdict::kFail;
    gate.message = contended(*t, ask.path);
    return gate;
  }
  // Contended in a worker (or the store could not say): the run is left, due again later.
  std::lock_guard lock(mu_);
  snooze_until_ms_ =
      t.ok() ? snooze_due(*t) : env_.now_ms() + ms_of(env_.options.lock_snooze_base_delay);
  snoozing_ = true;
  gate.verdict = StepGate::Verdict::kWait;
  return gate;
}

Status Holding::take_for_rollback(const HoldPlan& locks, const std::string& claim,
                                  const std::string& level, const std::string& step) const {
  Result<TakeResult> t = take(locks, claim, locks.rollback_wait);
  if (!t.ok()) return t.status();
  if (t->outcome != TakeOutcome::kTaken) {
    notify("contended", level, step, t->key, t->holder);
    const auto waited = std::chrono::duration_cast<std::chrono::milliseconds>(locks.rollback_wait);
    const std::string who = step.empty() ? "reactor '" + def_.name() + "'" : "step '" + step + "'";
    return Status::DeadlineExceeded(who + ": key '" + t->key + "' is held by run " + t->holder +
                                    " after its rollback_wait (" + std::to_string(waited.count()) +
                                    " ms)");
  }
  notify("acquired", level, step, keys_of(locks));
  return Status::Ok();
}

Status Holding::enter_rollback(const StepAsk& ask) {
  const std::string claim = fence_run_ + "/" + ask.path;
  Result<HoldPlan> plan = plan_holds(step_coordination(ask.spec), ask.args,
                                     context(claim, def_.name() + "/" + ask.path));
  if (!plan.ok())
    return Status::InvalidArgument("step '" + ask.path + "': " + plan.status().message());
  const HoldPlan locks = holds_only(*plan);
  if (locks.holds.empty()) return Status::Ok();
  if (Status s = take_for_rollback(locks, claim, "step", ask.path); !s.ok()) return s;
  std::lock_guard lock(mu_);
  steps_.push_back(StepHold{&ask.run,
                            ask.step,
                            ask.path,
                            claim,
                            keys_of(locks),
                            {},
                            ask.run.steps[ask.step].status,
                            hold_keys(locks)});
  return Status::Ok();
}

Status Holding::admit_undo(const Run& root) {
  const CoordinationSpec& spec = def_.data()->coordination;
  if (spec.locks.empty() && spec.semaphores.empty()) return Status::Ok();
  Result<HoldPlan> plan =
      plan_holds(spec, args_of_inputs(root.inputs), context(fence_run_, def_.name()));
  if (!plan.ok()) {
    return Status::InvalidArgument("reactor '" + def_.name() + "': " + plan.status().message());
  }
  const HoldPlan locks = holds_only(*plan);
  if (Status s = take_for_rollback(locks, fence_run_, "reactor", ""); !s.ok()) return s;
  run_keys_ = keys_of(locks);
  return Status::Ok();
}

bool Holding::shared_with_a_holder(const StepHold& h) const {
  return std::any_of(steps_.begin(), steps_.end(), [&](const StepHold& g) {
    if (&g == &h || !g.holding()) return false;
    return std::any_of(h.held.begin(), h.held.end(), [&](const std::string& k) {
      return std::find(g.held.begin(), g.held.end(), k) != g.held.end();
    });
  });
}

bool Holding::releases_pending() const {
  std::lock_guard lock(mu_);
  return std::any_of(steps_.begin(), steps_.end(),
                     [&](const StepHold& h) { return !h.holding() && !shared_with_a_holder(h); });
}

// A step's holds end with the commit that records it out of `running` (its result, its failure,
// its retry, or its start given up), or, taken for its rollback, compensated or undone; a period
// it completed is marked by that commit. Holds a parallel step still holding re-entered wait for
// it: they end with the last of them.
void Holding::release_ended_steps(CommitRequest& c) const {
  std::vector<bool> keep(steps_.size(), true);
  for (std::size_t k = 0; k < steps_.size(); ++k) {
    StepHold& h = steps_[k];
    if (h.holding()) continue;
    if (!h.ended && h.run->steps[h.step].status == StepStatus::kCompleted) {
      c.period_marks.insert(c.period_marks.end(), h.marks.begin(), h.marks.end());
    }
    h.ended = true;
    if (shared_with_a_holder(h)) continue;
    keep[k] = false;
    c.release_holds.push_back(HoldRelease{holder_, h.claim});
    notify("released", "step", h.path, h.keys);
  }
  std::vector<StepHold> kept;
  for (std::size_t k = 0; k < steps_.size(); ++k) {
    if (keep[k]) kept.push_back(std::move(steps_[k]));
  }
  steps_ = std::move(kept);
}

void Holding::decorate(CommitRequest& c, const Run& root, const CheckpointDelta& delta) const {
  std::lock_guard lock(mu_);
  release_ended_steps(c);
  const bool ends = is_terminal(root.status) || root.status == RunStatus::kPaused;
  if (ends || delta.leave_unfinished) {
    c.release_holds.push_back(HoldRelease{holder_, fence_run_});
    if (!run_keys_.empty()) notify("released", "reactor", "", run_keys_);
  }
  if (root.status == RunStatus::kCompleted) {
    c.period_marks.insert(c.period_marks.end(), run_marks_.begin(), run_marks_.end());
  }
  if (delta.leave_unfinished && snoozing_ && !c.enqueue.empty()) {
    JobSpec& again = c.enqueue.back();
    again.run_at_ms = snooze_until_ms_;
    again.snoozes = where_.snoozes + 1;
  }
}

}  // namespace reactor
