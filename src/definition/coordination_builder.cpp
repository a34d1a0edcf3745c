// Builder's coordination modifiers (builder.hpp, coordination.hpp).
#include "definition/builder_state.hpp"

namespace reactor {

CoordinationSpec* Builder::coordination_target(const char* modifier) {
  if (state_->data.steps.empty()) return &state_->data.coordination;
  StepSpec& s = state_->data.steps.back();
  if (s.kind != StepKind::kStep) {
    state_->misuse.push_back("step '" + s.name + "': " + modifier +
                             "() applies to plain steps (or, before the first step, to the "
                             "reactor)");
    return nullptr;
  }
  return &s.coordination;
}

Builder& Builder::with_lock(KeyFn key, LockOptions options) {
  if (!key) state_->misuse.push_back("with_lock(): no key function");
  if (CoordinationSpec* c = coordination_target("with_lock")) {
    c->locks.push_back(LockSpec{std::move(key), options});
  }
  return *this;
}

Builder& Builder::with_lock(std::string key, LockOptions options) {
  return with_lock(constant_key(std::move(key)), options);
}

Builder& Builder::with_semaphore(KeyFn key, int limit, LockOptions options) {
  if (!key) state_->misuse.push_back("with_semaphore(): no key function");
  if (limit < 1) {
    state_->misuse.push_back("with_semaphore(): limit " + std::to_string(limit) + " (at least 1)");
  }
  if (CoordinationSpec* c = coordination_target("with_semaphore")) {
    c->semaphores.push_back(SemaphoreSpec{std::move(key), limit, options});
  }
  return *this;
}

Builder& Builder::with_semaphore(std::string key, int limit, LockOptions options) {
  return with_semaphore(constant_key(std::move(key)), limit, options);
}

Builder& Builder::with_rate_limit(KeyFn key, std::vector<RateWindow> windows) {
  if (!key) state_->misuse.push_back("with_rate_limit(): no key function");
  if (windows.empty()) state_->misuse.push_back("with_rate_limit(): no window");
  for (const RateWindow& w : windows) {
    if (w.limit < 1 || w.length < std::chrono::milliseconds(1)) {
      state_->misuse.push_back(
          "with_rate_limit(): every window needs a limit >= 1 and a length >= 1 ms");
    }
  }
  if (CoordinationSpec* c = coordination_target("with_rate_limit")) {
    c->rate_limits.push_back(RateLimitSpec{std::move(key), std::move(windows), ""});
  }
  return *this;
}

Builder& Builder::with_rate_limit(std::string name) {
  if (name.empty()) state_->misuse.push_back("with_rate_limit(name): empty name");
  if (CoordinationSpec* c = coordination_target("with_rate_limit")) {
    c->rate_limits.push_back(RateLimitSpec{constant_key(name), {}, name});
  }
  return *this;
}

Builder& Builder::with_period(PeriodSpec every, KeyFn key) {
  if (every.unit == PeriodSpec::Unit::kSeconds && every.seconds < 1) {
    state_->misuse.push_back("with_period(): every_seconds needs at least 1 second");
  }
  if (CoordinationSpec* c = coordination_target("with_period")) {
    if (c->period) state_->misuse.push_back("with_period() declared twice");
    c->period = PeriodDedupSpec{std::move(key), every};
  }
  return *this;
}

Builder& Builder::with_ordered_lock(KeyFn key, OrderedLockOptions options) {
  if (!key) state_->misuse.push_back("with_ordered_lock(): no key function");
  if (!state_->data.steps.empty()) {
    state_->misuse.push_back(
        "with_ordered_lock() applies to the reactor: declare it before "
        "the first step");
    return *this;
  }
  if (state_->data.coordination.ordered) {
    state_->misuse.push_back("with_ordered_lock() declared twice");
  }
  state_->data.coordination.ordered = OrderedLockSpec{std::move(key), options};
  return *this;
}

}  // namespace reactor
