#include "reactor/metrics_observer.hpp"

namespace reactor {

namespace {

std::string step_key(const EventContext& ctx) {
  return ctx.run_id + '\n' + ctx.step + '\n' + std::to_string(ctx.attempt);
}

}  // namespace

MetricsObserver::MetricsObserver(std::shared_ptr<MetricsRegistry> registry)
    : registry_(std::move(registry)) {
  MetricsRegistry& r = *registry_;
  r.counter("reactor_runs_started_total", "Runs started.", {"reactor"});
  r.counter("reactor_runs_finished_total", "Runs that reached a terminal status.",
            {"reactor", "status"});
  r.histogram("reactor_run_duration_seconds",
              "Run duration, from its start to its end as seen by this process.",
              {"reactor", "status"}, duration_buckets());
  r.counter("reactor_step_attempts_total", "Step attempts, by how each ended.",
            {"reactor", "step", "outcome"});
  r.histogram("reactor_step_duration_seconds", "Duration of one step attempt.", {"reactor", "step"},
              duration_buckets());
  r.counter("reactor_step_retries_total", "Step attempts that failed and will be retried.",
            {"reactor", "step"});
  r.counter("reactor_compensations_total", "Compensations run, by outcome.",
            {"reactor", "step", "outcome"});
  r.counter("reactor_undos_total", "Undos of completed steps run (a run rolled back).",
            {"reactor"});
  r.counter("reactor_step_reexecutions_total",
            "Steps found in flight after their execution was lost, run again.", {"reactor"});
  r.counter("reactor_lease_takeovers_total",
            "Runs resumed from another execution that did not finish them.", {"reactor"});
}

double MetricsObserver::take_elapsed(const std::string& key) {
  std::lock_guard lock(mu_);
  auto it = started_.find(key);
  if (it == started_.end()) return -1;
  const std::chrono::duration<double> d = Clock::now() - it->second;
  started_.erase(it);
  return d.count();
}

void MetricsObserver::on_run_start(const EventContext& ctx, const Value&) {
  registry_->add("reactor_runs_started_total", {ctx.reactor});
  std::lock_guard lock(mu_);
  started_[ctx.run_id] = Clock::now();
}

void MetricsObserver::run_finished(const EventContext& ctx, const std::string& status) {
  registry_->add("reactor_runs_finished_total", {ctx.reactor, status});
  const double seconds = take_elapsed(ctx.run_id);
  if (seconds >= 0)
    registry_->observe("reactor_run_duration_seconds", {ctx.reactor, status}, seconds);
}

void MetricsObserver::on_run_complete(const EventContext& ctx, RunStatus status) {
  run_finished(ctx, to_string(status));
}

void MetricsObserver::on_run_fail(const EventContext& ctx, const RunError&) {
  run_finished(ctx, to_string(RunStatus::kFailed));
}

void MetricsObserver::on_step_start(const EventContext& ctx) {
  std::lock_guard lock(mu_);
  started_[step_key(ctx)] = Clock::now();
}

void MetricsObserver::attempt_ended(const EventContext& ctx, const char* outcome) {
  registry_->add("reactor_step_attempts_total", {ctx.reactor, ctx.step, outcome});
  const double seconds = take_elapsed(step_key(ctx));
  if (seconds >= 0)
    registry_->observe("reactor_step_duration_seconds", {ctx.reactor, ctx.step}, seconds);
}

void MetricsObserver::on_step_complete(const EventContext& ctx, Outcome outcome) {
  attempt_ended(ctx, to_string(outcome));
}

void MetricsObserver::on_step_fail(const EventContext& ctx, const std::string&) {
  attempt_ended(ctx, "failure");
}

void MetricsObserver::on_step_retry(const EventContext& ctx, Duration, const std::string&) {
  attempt_ended(ctx, "retry");
  registry_->add("reactor_step_retries_total", {ctx.reactor, ctx.step});
}

void MetricsObserver::on_compensate_complete(const EventContext& ctx) {
  registry_->add("reactor_compensations_total", {ctx.reactor, ctx.step, "success"});
}

void MetricsObserver::on_compensate_fail(const EventContext& ctx, const std::string&) {
  registry_->add("reactor_compensations_total", {ctx.reactor, ctx.step, "failure"});
}

void MetricsObserver::on_undo_complete(const EventContext& ctx) {
  registry_->add("reactor_undos_total", {ctx.reactor});
}

void MetricsObserver::on_undo_fail(const EventContext& ctx, const std::string&) {
  registry_->add("reactor_undos_total", {ctx.reactor});
}

void MetricsObserver::on_step_interrupted(const EventContext& ctx) {
  registry_->add("reactor_step_reexecutions_total", {ctx.reactor});
}

void MetricsObserver::on_lease_takeover(const EventContext& ctx) {
  registry_->add("reactor_lease_takeovers_total", {ctx.reactor});
}

}  // namespace reactor
