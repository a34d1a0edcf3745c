// The resume of a halted run whose Halt allowed one (ResumableHalt): its halted steps start
// again from nothing, the steps completed before are kept, and a worker carries it on.
#include "base/run_machine.hpp"
#include "base/step_machine.hpp"
#include "durability/control.hpp"
#include "durability/writer.hpp"
#include "reactor/ids.hpp"
#include "records/codec.hpp"
#include "records/run_rows.hpp"

namespace reactor {

namespace {

// Ok when `run` is halted by resumable halts only.
Status refuse_resume(const Run& run) {
  if (run.status != RunStatus::kHalted) {
    return Status::FailedPrecondition("run " + run.id + " is " + to_string(run.status) +
                                      ": only a halted run is resumed so");
  }
  bool halted = false;
  for (const StepRecord& rec : run.steps) {
    if (rec.status != StepStatus::kHalted) continue;
    halted = true;
    if (!rec.resumable) {
      return Status::FailedPrecondition("run " + run.id + " halted at step '" + rec.name +
                                        "' for good: its Halt does not allow a resume "
                                        "(a step returns ResumableHalt for that)");
    }
  }
  if (!halted) {
    return Status::FailedPrecondition("run " + run.id + " has no halted step of its own to resume");
  }
  return Status::Ok();
}

// Its halted steps pending again, as never run; the run running, its job due now.
void resume(DurableEnv& env, Run& run, CommitRequest& c) {
  for (std::size_t i = 0; i < run.steps.size(); ++i) {
    StepRecord& rec = run.steps[i];
    if (rec.status != StepStatus::kHalted) continue;
    advance(rec, StepEvent::kResume);
    StepRecord fresh;
    fresh.name = std::move(rec.name);
    fresh.status = rec.status;
    rec = std::move(fresh);
    c.steps.push_back(records::encode_step_row(run, i));
  }
  advance(run, RunEvent::kResume);
  run.value = nullptr;
  run.updated_at_ms = env.now_ms();
  // No execution wrote it since: the next one must not take the halted step's fresh record for
  // an attempt this commit lost (DurablePort::lost_attempts).
  run.exec_token = 0;
  run.exec_worker.clear();
  c.headers.push_back(records::encode_header(run, env.expiry_ms()));
  c.enqueue.push_back(env.resume_job(run, env.now_ms()));
}

}  // namespace

Status resume_halted_run(DurableEnv& env, const std::string& run_id) {
  Result<Run> before = load_operated_run(env, run_id);
  if (!before.ok()) return before.status();
  if (Status s = refuse_resume(*before); !s.ok()) return s;
  Result<LeaseGrant> grant =
      env.backend.acquire_lease(run_lease_key(run_id), new_run_id(), env.options.lease_ttl);
  if (!grant.ok()) return grant.status();
  if (!grant->granted) {
    return Status::FailedPrecondition("run " + run_id + " is held by " + grant->lease.owner);
  }
  const Writer w{env, grant->lease, std::nullopt, ""};
  Result<Run> run = load_operated_run(env, run_id);  // again, under the lease
  Status s = run.status();
  if (s.ok()) s = refuse_resume(*run);
  if (s.ok()) {
    // Persist before enqueue, in one commit: the run running again and the job that carries it on.
    CommitRequest c = w.fenced();
    resume(env, *run, c);
    w.finish_with(c);
    s = env.backend.commit(c);
  }
  if (!s.ok()) (void)env.backend.release_lease(w.lease.key, w.lease.owner, w.lease.token);
  return s;
}

}  // namespace reactor
