// Undo: an operator rolls back what a run that ended (or paused) had done. The undo runs here,
// in the caller, under the run's lease as a synchronous run does (sync_run.cpp): the run is
// written rolling back first, then the execution layer's rollback commits each compensate and
// undo before the next, and ends it cancelled (its error kUndone says why it did not fail).
#include <optional>

#include "base/run_errors.hpp"
#include "base/run_machine.hpp"
#include "definition/coordination_of.hpp"
#include "durability/control.hpp"
#include "durability/coordination/holding.hpp"
#include "durability/durable_fan_out.hpp"
#include "durability/durable_port.hpp"
#include "durability/writer.hpp"
#include "reactor/ids.hpp"
#include "records/codec.hpp"
#include "records/run_shape.hpp"

namespace reactor {

namespace {

// Whether a rollback of `run` would do anything: a completed step (a composed child's or an
// inline map's element's included), or a failed step whose compensation was cut off.
bool has_work_to_undo(const Run& run) {
  for (const StepRecord& rec : run.steps) {
    if (rec.status == StepStatus::kCompleted || rec.status == StepStatus::kFailed) return true;
    for (const Run& child : rec.children) {
      if (has_work_to_undo(child)) return true;
    }
  }
  return false;
}

Status refuse_undo(const Run& run) {
  switch (run.status) {
    case RunStatus::kPaused:
    case RunStatus::kHalted:
    case RunStatus::kCompleted:
      return Status::Ok();
    case RunStatus::kFailed:
      if (has_work_to_undo(run)) return Status::Ok();
      return Status::FailedPrecondition("run " + run.id +
                                        " is failed and was rolled back: nothing is left to undo");
    case RunStatus::kRollingBack:
      return Status::FailedPrecondition("run " + run.id + " is rolling back already");
    case RunStatus::kCancelled:
    case RunStatus::kQuarantined:
      return Status::FailedPrecondition("run " + run.id + " is " + to_string(run.status) +
                                        ": it cannot be undone");
    default:
      return Status::FailedPrecondition("run " + run.id + " is " + to_string(run.status) +
                                        ": it is live; cancel it, or wait for it to end");
  }
}

// The run as the undo starts it: rolling back, its error saying an operator undid it (what
// makes its rollback end cancelled), with what it had ended with before.
void start_undo(DurableEnv& env, Run& run, const Lease& lease) {
  const RunStatus was = run.status;
  RunError e = run.error.value_or(RunError{});
  std::string before = std::string("it was ") + to_string(was);
  if (run.error) before += " (" + std::string(to_string(run.error->kind)) + ": " + e.message + ")";
  e.kind = ErrorKind::kUndone;
  e.reactor = run.reactor;
  e.message = "undone by an operator; " + before;
  advance(run, RunEvent::kUndo);
  run.error = std::move(e);
  run.suspension.reset();
  run.updated_at_ms = env.now_ms();
  run.exec_token = lease.token;
  run.exec_worker = env.worker_id;
}

// The run read again under its lease, checked, with its definition: what the undo runs on.
Result<Definition> check_under_lease(DurableEnv& env, const std::string& run_id, Run& run) {
  Result<Run> loaded = load_operated_run(env, run_id);
  if (!loaded.ok()) return loaded.status();
  run = std::move(loaded).value();
  if (Status s = refuse_undo(run); !s.ok()) return s;
  std::optional<Definition> def = env.registry.find(run.reactor);
  if (!def) return Status::NotFound("run " + run_id + ": no reactor '" + run.reactor + "' here");
  if (def->fingerprint() != run.fingerprint) {
    return Status::FailedPrecondition("run " + run_id + " was started on another definition of '" +
                                      run.reactor + "': its undos are not known here");
  }
  records::name_steps(run, *def->data());
  if (auto why = records::run_shape_error(run, *def->data(), env.options.max_value_bytes)) {
    return Status::Corruption(*why);
  }
  return *def;
}

}  // namespace

Result<RunResult> undo_run(DurableEnv& env, const std::string& run_id) {
  Result<Run> before = load_operated_run(env, run_id);
  if (!before.ok()) return before.status();
  if (Status s = refuse_undo(*before); !s.ok()) return s;
  const TimePoint asked_at = env.clock.now();
  Result<LeaseGrant> grant =
      env.backend.acquire_lease(run_lease_key(run_id), new_run_id(), env.options.lease_ttl);
  if (!grant.ok()) return grant.status();
  if (!grant->granted) {
    return Status::FailedPrecondition(
        "run " + run_id + " is live elsewhere: " + grant->lease.owner + " holds its lease");
  }
  const Lease lease = grant->lease;
  Run run;
  Result<Definition> def = check_under_lease(env, run_id, run);
  Status s = def.status();
  Writer w{env, lease, std::nullopt, ""};
  // The reactor's locks and semaphores are taken again (not its turn, rate or period: it had
  // them), and its steps' for their undos: an undo runs under them as the run did.
  std::optional<Holding> holding;
  if (s.ok() && declares_coordination(*def->data())) {
    holding.emplace(env, *def, run, lease, Holding::Where{false, 0});
    w.decor = &*holding;
    s = holding->admit_undo(run);
  }
  if (s.ok()) {
    // Persisted before any undo runs: from here on the run is being undone, and recovery (the
    // sweeper, should this caller die) goes on with it.
    start_undo(env, run, lease);
    CommitRequest c = w.fenced();
    c.headers.push_back(records::encode_header(run, env.expiry_ms()));
    s = env.backend.commit(c);
  }
  if (!s.ok()) {
    // Else it lapses; the holds just taken go with it.
    (void)env.backend.release_lease(lease.key, lease.owner, lease.token);
    return s;
  }
  auto entry = env.keeper.keep(lease, env.options.lease_ttl, asked_at);
  DurableFanOut fan_out(env, w, run);  // a fan-out map's elements are undone as runs
  DurablePort port(w, *entry, &fan_out);
  if (holding) port.set_holding(&*holding);
  ExecuteOutcome out = env.execute(run, *def, durable_options(env.options, port, false), false);
  env.keeper.drop(entry);
  if (out.stopped() || run.status != RunStatus::kCancelled) {
    if (!out.stopped()) (void)env.backend.release_lease(lease.key, lease.owner, lease.token);
    const Status why = out.stopped() ? out.stop_reason : Status::Unavailable("left unfinished");
    return Status(why.code() == StatusCode::kOk ? StatusCode::kUnavailable : why.code(),
                  "the undo of run " + run_id + " stopped (" + why.to_string() +
                      "); it is rolling back, and recovery goes on with it");
  }
  return make_run_result(std::move(run));
}

}  // namespace reactor
