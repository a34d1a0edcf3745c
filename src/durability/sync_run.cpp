#include "durability/sync_run.hpp"

#include "base/run_errors.hpp"
#include "base/run_machine.hpp"
#include "definition/coordination_of.hpp"
#include "definition/inputs.hpp"
#include "durability/coordination/holding.hpp"
#include "durability/durable_fan_out.hpp"
#include "durability/durable_port.hpp"
#include "durability/load.hpp"
#include "durability/presence.hpp"
#include "durability/start.hpp"
#include "durability/writer.hpp"
#include "reactor/ids.hpp"
#include "records/codec.hpp"

namespace reactor {

namespace {

// A start under an id that exists returns that run as it is now, never a second execution of
// it: the same reactor and inputs give the stored run; anything else is a conflict.
RunResult existing(DurableEnv& env, const Definition& def, Run asked, const Status& why) {
  // Compared as the stored run's were written: with their defaults applied.
  const std::vector<FieldError> invalid = validate_inputs(*def.data(), asked.inputs);
  if (!invalid.empty()) {
    return failed_result(
        asked.id, asked.reactor, ErrorKind::kRunIdConflict,
        "run " + asked.id + " exists; these inputs are not even valid: " + describe(invalid));
  }
  Status s = match_existing(env.backend, asked);
  RunResult stored;
  if (s.ok()) s = load_result(env.backend, env.registry, asked.id, stored);
  if (s.ok()) return stored;
  if (s.code() == StatusCode::kAlreadyExists) {
    return failed_result(asked.id, asked.reactor, ErrorKind::kRunIdConflict, s.message());
  }
  // Not there (yet): its lease is held by a start that has not written it.
  return failed_result(
      asked.id, asked.reactor, ErrorKind::kInternal,
      why.message() + (s.code() == StatusCode::kNotFound ? "" : "; " + s.to_string()));
}

// Whether `d` (or a reactor it composes) dispatches an async unit: the work only a worker does
// that a caller may wait for.
bool has_async_units(const DefinitionData& d) {
  for (const StepSpec& s : d.steps) {
    if (s.kind == StepKind::kAsync) return true;
    if (s.kind == StepKind::kCompose && s.child && has_async_units(*s.child)) return true;
  }
  return false;
}

ExecuteOutcome execute_under(DurableEnv& env, const Definition& def, Run& run, const Lease& lease,
                             bool run_is_new, TimePoint asked_at);
RunResult result_of(const Run& run, const ExecuteOutcome& out);

}  // namespace

// A caller waits for a unit only while a worker serves its queue (durability/presence.hpp), unless
// told to wait all the same: waiting for nobody would only end in async_wait_timeout.
CallerWait caller_wait(DurableEnv& env, const DefinitionData& d) {
  if (env.options.inline_jobs || env.options.async_wait_timeout <= Duration::zero()) {
    return CallerWait::kNever;
  }
  if (!has_async_units(d) || env.options.wait_without_workers ||
      queue_is_served(env.backend, env.queue_for(d.name))) {
    return CallerWait::kWaits;
  }
  return CallerWait::kNobodyServes;
}

RunResult run_synchronously(DurableEnv& env, const Definition& def, Run run) {
  const std::string owner = new_run_id();
  const TimePoint asked_at = env.clock.now();
  Result<LeaseGrant> grant =
      env.backend.acquire_lease(run_lease_key(run.id), owner, env.options.lease_ttl);
  if (!grant.ok()) {
    return failed_result(run.id, run.reactor, ErrorKind::kInternal,
                         "cannot take the run's lease: " + grant.status().to_string());
  }
  Lease lease = std::move(grant->lease);
  if (!grant->granted) {
    Status held = Status::AlreadyExists("run " + run.id + " is held by another execution");
    return existing(env, def, std::move(run), held);
  }
  ExecuteOutcome out = execute_under(env, def, run, lease, /*run_is_new=*/true, asked_at);
  if (out.stopped() && out.stop_reason.code() == StatusCode::kAlreadyExists) {
    // Nothing was written under this lease; let it go for whoever holds the run.
    (void)env.backend.release_lease(lease.key, lease.owner, lease.token);  // else it lapses
    return existing(env, def, std::move(run), out.stop_reason);
  }
  return result_of(run, out);
}

RunResult execute_held(DurableEnv& env, const Definition& def, Run run, const Lease& lease) {
  ExecuteOutcome out = execute_under(env, def, run, lease, /*run_is_new=*/false, env.clock.now());
  return result_of(run, out);
}

namespace {

// Admission refused in a caller (Engine::run): the run ends so before any step — written when
// it is stored already; a new one is not (nothing of it ran), its lease let go.
ExecuteOutcome refuse_in_caller(DurableEnv& env, const Writer& w, Run& run, Admission a,
                                bool run_is_new) {
  ExecuteOutcome out;
  if (a.kind == Admission::Kind::kStopped) {
    out.end = ExecuteOutcome::End::kStopped;
    out.stop_reason = a.status;
    return out;
  }
  if (a.kind == Admission::Kind::kHalt) {
    advance(run, RunEvent::kHalt);
    run.value = std::move(a.value);
  } else {
    advance(run, RunEvent::kFailOutright);
    run.error = engine_error(a.error, run.reactor, std::move(a.message));
  }
  run.suspension.reset();
  run.updated_at_ms = env.now_ms();
  if (run_is_new) {
    (void)env.backend.release_lease(w.lease.key, w.lease.owner, w.lease.token);  // else it lapses
    return out;
  }
  CommitRequest c = w.fenced();
  c.headers.push_back(records::encode_header(run, env.expiry_ms()));
  w.finish_with(c);
  if (Status s = env.backend.commit(c); !s.ok()) {
    out.end = ExecuteOutcome::End::kStopped;
    out.stop_reason = s;
  }
  return out;
}

ExecuteOutcome execute_under(DurableEnv& env, const Definition& def, Run& run, const Lease& lease,
                             bool run_is_new, TimePoint asked_at) {
  Writer w{env, lease, std::nullopt, ""};
  std::optional<Holding> holding;
  if (declares_coordination(*def.data())) {
    holding.emplace(env, def, run, lease, Holding::Where{false, 0});
    Admission a = holding->admit(run);
    if (a.kind != Admission::Kind::kGo) {
      return refuse_in_caller(env, w, run, std::move(a), run_is_new);
    }
    w.decor = &*holding;
  }
  run.exec_token = lease.token;
  run.exec_worker = env.worker_id;
  auto entry = env.keeper.keep(lease, env.options.lease_ttl, asked_at);
  DurableFanOut fan_out(env, w, run);  // a fan-out map hands the run to the workers
  // A step reading an async unit waits for it here, woken by the store; with inline jobs (or
  // no wait) the run is handed back instead: the caller runs the unit's job itself
  // (Engine::run), or a worker parks the run.
  fan_out.set_unit_wait([&env, &def]() -> FanOut::UnitWait {
    if (caller_wait(env, *def.data()) != CallerWait::kWaits) {
      return {std::nullopt, env.options.async_park_timeout};
    }
    return {env.options.async_wait_timeout, env.options.async_park_timeout};
  });
  DurablePort port(w, *entry, &fan_out);
  if (holding) port.set_holding(&*holding);
  ExecuteOptions options = durable_options(env.options, port, /*suspend_on_retry_wait=*/false);
  options.hand_off = run_is_new;  // and so does the reactor's hand-off point, once
  ExecuteOutcome out = env.execute(run, def, options, run_is_new);
  env.keeper.drop(entry);
  return out;
}

RunResult result_of(const Run& run, const ExecuteOutcome& out) {
  RunResult r = make_run_result(run);
  if (out.stopped()) {
    // The run did not advance durably past its last commit: say so, and let
    // recovery (the sweeper, once the lease lapses) carry it on.
    r.error = engine_error(ErrorKind::kInternal, run.reactor,
                           "stopped: " + out.stop_reason.to_string() +
                               "; the run continues from its last checkpoint under recovery");
  }
  return r;
}

}  // namespace

}  // namespace reactor
