#include "durability/durable_port.hpp"

#include "durability/correlation.hpp"

namespace reactor {

DurablePort::DurablePort(const Writer& w, LeaseKeeper::Entry& entry, DurableFanOut* fan_out)
    : w_(w), entry_(entry), fan_out_(fan_out), self_{w.env.worker_id, w.lease.token} {}

Status DurablePort::write(Run& root, const CheckpointDelta& delta) {
  if (entry_.lost) return Status::LeaseLost("lease of run " + root.id + " was taken over");
  if (delta.leave_unfinished) {
    // Left with everything in flight recorded (a stop request, a step's gate snoozing the run, a
    // hand-off): the next execution must not take the steps this one did not start for ones it
    // lost with its worker (lost_attempts, AttemptsAre::kAboutToStart).
    root.exec_token = 0;
    root.exec_worker.clear();
  }
  stamp(root, delta);
  return w_.checkpoint(root, delta);
}

// Principle 10: a lease is trusted only until its deadline; no body starts without enough of it.
Status DurablePort::may_start() {
  const DurabilityOptions& o = w_.env.options;
  const Duration margin = o.lease_margin > Duration::zero() ? o.lease_margin : o.lease_ttl / 3;
  return w_.env.keeper.ensure(entry_, margin);
}

// Every event this execution traced, and every step it started, carries its worker's id and
// its lease's fencing token: how the next execution tells what this one lost. Events of other
// executions (lost attempts, a map's elements) carry theirs already.
void DurablePort::stamp(Run& root, const CheckpointDelta& delta) const {
  for (std::size_t k = delta.trace_begin; k < root.trace.size(); ++k) {
    TraceEvent& e = root.trace[k];
    if (e.token != 0 || !e.worker.empty()) continue;
    e.worker = self_.id;
    e.token = self_.epoch;
  }
  for (const auto& [run, i] : delta.started) {
    run->steps[i].token = self_.epoch;
    run->steps[i].worker = self_.id;
  }
}

// A step recorded as started under another token was lost with that execution. One the
// execution before this one was about to start is lost when that execution (under another
// token) wrote no step of the run at all.
std::vector<LostAttempt> DurablePort::lost_attempts(const Run& run,
                                                    const std::vector<std::size_t>& steps,
                                                    AttemptsAre are) {
  std::vector<LostAttempt> out;
  if (self_.epoch == 0) return out;
  if (are == AttemptsAre::kStarted) {
    for (std::size_t i : steps) {
      const StepRecord& rec = run.steps[i];
      if (rec.token != self_.epoch) out.push_back(lost(rec, i, Executor{rec.worker, rec.token}));
    }
    return out;
  }
  if (previous_.epoch == 0 || previous_.epoch == self_.epoch) return out;
  for (const StepRecord& rec : run.steps) {
    if (rec.token == previous_.epoch) return out;  // it wrote its steps: they say what it lost
  }
  for (std::size_t i : steps) out.push_back(lost(run.steps[i], i, previous_));
  return out;
}

// Past max_interrupted_executions lost executions the step fails instead of killing workers
// for ever.
LostAttempt DurablePort::lost(const StepRecord& rec, std::size_t step, Executor by) const {
  const bool gives_up = rec.interrupted + 1 >= w_.env.options.max_interrupted_executions;
  return LostAttempt{step, std::move(by), gives_up};
}

ExecuteOptions durable_options(const DurabilityOptions& o, DurablePort& port,
                               bool suspend_on_retry_wait, bool start_written) {
  ExecuteOptions x;
  x.port = &port;
  x.suspend_on_retry_wait = suspend_on_retry_wait;
  x.start_written = start_written;
  x.checkpoint_min_interval = o.checkpoint_min_interval;
  x.hung_step_grace = o.hung_step_grace;
  return x;
}

Status DurablePort::hold_correlation(const std::string& correlation_id, const std::string& root_id,
                                     const std::string& path, std::int64_t until_ms) {
  return hold(w_.env, Correlation{correlation_id, root_id, path}, until_ms);
}

StepGate DurablePort::enter_step(const StepAsk& ask) {
  // A reactor whose steps declare nothing has no Holding; a composed child's may still.
  if (holding_ == nullptr) {
    StepGate gate;
    gate.verdict = StepGate::Verdict::kFail;
    gate.kind = ErrorKind::kInternal;
    gate.message = "step '" + ask.path + "' declares coordination this execution cannot take";
    return gate;
  }
  return holding_->enter_step(ask);
}

}  // namespace reactor
