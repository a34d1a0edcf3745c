#include "durability/delivery.hpp"

#include "base/run_errors.hpp"
#include "base/run_machine.hpp"
#include "definition/coordination_of.hpp"
#include "durability/claims.hpp"
#include "durability/coordination/admission.hpp"
#include "durability/durable_fan_out.hpp"
#include "durability/durable_port.hpp"
#include "records/codec.hpp"
#include "records/run_rows.hpp"
#include "records/run_shape.hpp"

namespace reactor {

const char* to_string(DeliveryOutcome o) {
  switch (o) {
    case DeliveryOutcome::kFinished:
      return "finished";
    case DeliveryOutcome::kSuspended:
      return "suspended";
    case DeliveryOutcome::kSnoozed:
      return "snoozed";
    case DeliveryOutcome::kNotServed:
      return "not_served";
    case DeliveryOutcome::kReleased:
      return "released";
    case DeliveryOutcome::kAcknowledged:
      return "acknowledged";
    case DeliveryOutcome::kFailedRun:
      return "failed_run";
    case DeliveryOutcome::kLeaseLost:
      return "lease_lost";
    case DeliveryOutcome::kBackendError:
      return "backend_error";
  }
  return "unknown";
}

namespace {

// `run` as its element of a fan-out map, when its id says it is one (its record may be unread).
void tie_to_its_map(Run& run) {
  if (!run.element_of) run.element_of = parse_element_run_id(run.id);
}

// A terminal record for a run this process cannot execute. Cannot throw: the record writer
// never does, and if making the header fails even so (memory), the job is left to its next
// delivery rather than the worker taken down.
DeliveryOutcome fail_run(DurableEnv& env, const Writer& w, Run run, ErrorKind kind,
                         std::string message) noexcept {
  try {
    advance(run, RunEvent::kFailOutright);
    run.suspension.reset();
    run.error = engine_error(kind, run.reactor, std::move(message));
    run.updated_at_ms = env.now_ms();
    CommitRequest c = w.fenced();
    c.headers.push_back(records::encode_header(run, env.expiry_ms()));
    // A map's element fails only its slot: its map settles without it all the same.
    tie_to_its_map(run);
    c.settle = settle_of(run, w.lost_deliveries);
    w.finish_with(c);
    return committed(env.backend.commit(c), DeliveryOutcome::kFailedRun);
  } catch (...) {
    return DeliveryOutcome::kBackendError;
  }
}

// The run as far as its header can be read, to rewrite its status; a bare
// shell when even the header is unreadable.
Run header_of(DurableEnv& env, const Delivery& d) {
  if (Result<RunHeaderRow> row = env.backend.load_header(d.job.spec.run_id); row.ok()) {
    try {
      return records::decode_header(*row);
    } catch (const std::exception&) {
      // fall through to the shell
    }
  }
  Run run;
  run.id = run.root_id = d.job.spec.run_id;
  run.reactor = d.job.spec.reactor;
  return run;
}

// The delivered job again, due after a snooze.
JobSpec snoozed(DurableEnv& env, const JobSpec& job, int snoozes) {
  JobSpec again = job;
  again.snoozes = snoozes;
  Duration delay = env.options.lock_snooze_base_delay + env.jitter(env.options.lock_snooze_jitter);
  again.run_at_ms = to_unix_ms(env.clock.now() + delay);
  return again;
}

// The run's lease is held by a live execution (a duplicate delivery): put
// off as often as needed, spending no budget — the holder will finish it.
DeliveryOutcome snooze(DurableEnv& env, const Delivery& d, const std::string& owner) {
  CommitRequest c;
  c.enqueue.push_back(snoozed(env, d.job.spec, d.job.spec.snoozes));
  c.ack_job = d.job.id;
  c.ack_owner = owner;
  return committed(env.backend.commit(c), DeliveryOutcome::kSnoozed);
}

// The store could not serve this delivery (busy, unreachable): put off like
// lease contention, but at most lock_snooze_max_attempts times; then the run
// fails with the reason rather than bouncing for ever.
DeliveryOutcome snooze_capped(DurableEnv& env, const Delivery& d, const Writer& w,
                              const Status& why) {
  const int cap = env.options.lock_snooze_max_attempts;
  if (cap >= 0 && d.job.spec.snoozes >= cap) {
    return fail_run(env, w, header_of(env, d), ErrorKind::kContention,
                    "the store stayed unavailable through " + std::to_string(cap) +
                        " snoozes: " + why.message());
  }
  CommitRequest c = w.fenced();
  c.enqueue.push_back(snoozed(env, d.job.spec, d.job.spec.snoozes + 1));
  w.finish_with(c);  // ack, and release the lease for whoever comes next
  return committed(env.backend.commit(c), DeliveryOutcome::kSnoozed);
}

DeliveryOutcome acknowledge(DurableEnv& env, const Writer& w) {
  CommitRequest c = w.fenced();
  w.finish_with(c);
  return committed(env.backend.commit(c), DeliveryOutcome::kAcknowledged);
}

// The run's records cannot be read: by the store itself (Corruption from load_run, e.g. a Redis
// header that is not JSON) or by the engine (a garbled body, a newer schema). Reading them again
// will not help, so the run fails with corrupt_record and its job is acknowledged; redelivering
// the job would only bounce it for ever. A run that ended already (failed for these very
// records, most likely) keeps the verdict it was given.
DeliveryOutcome fail_unreadable(DurableEnv& env, const Delivery& d, const Writer& w,
                                const Status& why) {
  Run header = header_of(env, d);
  if (is_terminal(header.status)) return acknowledge(env, w);
  return fail_run(env, w, std::move(header), ErrorKind::kCorruptRecord, why.message());
}

// Sets the run aside as quarantined, reading nothing of it (decoding it may be what crashed):
// its header row as the fetch found it, its status alone changed, and its job acknowledged.
DeliveryOutcome quarantine(DurableEnv& env, const Delivery& d, const Writer& w,
                           const std::string& why) {
  CommitRequest c = w.fenced();
  if (d.run && !d.run->headers.empty()) {
    RunHeaderRow header = d.run->headers.front();
    header.status = RunStatus::kQuarantined;
    header.updated_at_ms = env.now_ms();
    header.wake_at_ms = 0;
    header.exec_token = w.lease.token;
    header.exec_worker = env.worker_id;
    c.headers.push_back(std::move(header));
  }
  // An element's slot is filed failed, so its map settles: the run as far as its job names it.
  Run shell;
  shell.id = d.job.spec.run_id;
  advance(shell, RunEvent::kQuarantine);
  shell.error = engine_error(ErrorKind::kPoisonDelivery, d.job.spec.reactor, why);
  tie_to_its_map(shell);
  c.settle = settle_of(shell, w.lost_deliveries);
  w.finish_with(c);
  return committed(env.backend.commit(c), DeliveryOutcome::kFailedRun);
}

// A crash loop ends here (DurabilityOptions::max_deliveries_without_progress): the run's last
// deliveries all ended without progress — their workers died or froze somewhere in them — so
// this one fails the run, reading its header alone; if the one before already tried that and
// ended without progress too, it sets the run aside unread. Nullopt: no loop, go on.
std::optional<DeliveryOutcome> end_crash_loop(DurableEnv& env, const Delivery& d, const Writer& w) {
  const int limit = env.options.max_deliveries_without_progress;
  const int lost = static_cast<int>(w.lost_deliveries);  // none of them ended
  if (limit <= 0 || lost < limit) return std::nullopt;
  const std::string why = std::to_string(lost) +
                          " deliveries in a row ended without progress: each worker died or froze "
                          "while delivering the run (max_deliveries_without_progress " +
                          std::to_string(limit) + ")";
  if (lost > limit) return quarantine(env, d, w, why + "; failing it did too: quarantined");
  Run header = header_of(env, d);
  if (is_terminal(header.status)) return acknowledge(env, w);
  return fail_run(env, w, std::move(header), ErrorKind::kPoisonDelivery, why);
}

// Lets go of a delivered run this worker will not execute. A run the fetch
// filed as running is filed back as it was (its header as the fetch read it),
// in the commit that releases the lease.
// If this fails the run stays filed as it is with its lease held until the
// lease lapses; then the sweeper or the job's next delivery takes it over.
// The release is a commit, so it is progress (storage's is_progress): a delivery that lets go of
// its run on purpose is no crash, and its count of deliveries without progress starts again.
Status unstart_and_release(DurableEnv& env, const Delivery& d, const std::string& owner) {
  Writer w{env, d.run_lease, std::nullopt, owner};
  CommitRequest c = w.fenced();
  if (d.run_started && d.run && !d.run->headers.empty()) {
    c.headers.push_back(d.run->headers.front());
  }
  c.release_lease = true;
  return env.backend.commit(c);
}

// A run suspended until a time that has not come (an early or duplicate
// delivery): its job goes back, due then, and its lease is released.
DeliveryOutcome put_back_until(DurableEnv& env, const Delivery& d, const std::string& owner,
                               std::int64_t until_ms) {
  const Duration delay = std::chrono::milliseconds(until_ms - env.now_ms());
  return committed(put_back(env, d, owner, delay), DeliveryOutcome::kSuspended);
}

// A paused run is woken by a job only at its active timeout's deadline; a payload resumes it
// otherwise (durability/signals.hpp). A job due earlier goes back until then; one for a run with
// no deadline (a duplicate) is acknowledged. Nullopt: its deadline has come, it runs.
std::optional<DeliveryOutcome> while_paused(DurableEnv& env, const Delivery& d, const Writer& w,
                                            const Run& run) {
  if (run.status != RunStatus::kPaused) return std::nullopt;
  const std::int64_t wake = run.suspension ? run.suspension->wake_at_ms() : 0;
  if (wake == 0) return acknowledge(env, w);
  if (wake > env.now_ms()) return put_back_until(env, d, w.job_owner, wake);
  return std::nullopt;
}

// The run as `def` would have created it, with its id, inputs and times: its inputs are
// validated again when it starts (pending), against the definition it now runs on.
void replan(Run& run, const Definition& def) {
  run.fingerprint = def.fingerprint();
  run.steps.assign(def.steps().size(), StepRecord{});
  for (std::size_t i = 0; i < run.steps.size(); ++i) run.steps[i].name = def.steps()[i].name;
  run.next_completion_seq = 1;
  if (run.status == RunStatus::kRunning) advance(run, RunEvent::kReplan);
}

// Whether `run` is the run of an async unit (not an element of a fan-out map): its map's step in
// its owner's definition is an async step. Decided from the definitions alone.
bool is_unit_run(const Registry& registry, const Run& run) {
  if (!run.element_of) return false;
  const std::string& map_id = run.element_of->map_id;
  return registry.is_async_unit(registry.home_of(run.reactor), map_id.substr(map_id.find(':') + 1));
}

// An async unit whose run ended before the unit started — a reader gave up waiting and the run
// rolled back — has nobody to report to: it ends without running anything the user sees
// (docs/async.md). One read of the owner's header, at a unit's first delivery only.
std::optional<DeliveryOutcome> skip_orphaned_unit(DurableEnv& env, const Writer& w, Run& run) {
  if (any_step_executed(run) || !is_unit_run(env.registry, run)) return std::nullopt;
  const std::string owner_id = run.element_of->origin();
  Result<RunHeaderRow> owner = env.backend.load_header(owner_id);
  if (!owner.ok() || !is_terminal(owner->status)) return std::nullopt;
  return fail_run(env, w, std::move(run), ErrorKind::kOwnerEnded,
                  "its run " + owner_id + " ended " + to_string(owner->status) +
                      " before it started: nothing ran");
}

// What the reactor's coordination says before the run executes; nullopt: it goes.
std::optional<DeliveryOutcome> admit(DurableEnv& env, Holding& holding, const Writer& w,
                                     const Delivery& d, const Run& run) {
  Admission a = holding.admit(run);
  switch (a.kind) {
    case Admission::Kind::kGo:
      return std::nullopt;
    case Admission::Kind::kSnooze:
      return committed(snooze_at_admission(env, w, d, a), DeliveryOutcome::kSnoozed);
    case Admission::Kind::kHalt:
      return committed(halt_at_admission(env, w, run, std::move(a.value)),
                       DeliveryOutcome::kFinished);
    case Admission::Kind::kFail:
      return fail_run(env, w, run, a.error, std::move(a.message));
    case Admission::Kind::kStopped:
      break;
  }
  return a.status.code() == StatusCode::kLeaseLost ? DeliveryOutcome::kLeaseLost
                                                   : DeliveryOutcome::kBackendError;
}

// A run still filed running or rolling back under another execution's token: that execution
// did not finish it (its lease lapsed, or it handed the run back as its worker stopped).
bool taken_over(const Run& run, std::uint64_t token) {
  return run.exec_token != 0 && run.exec_token != token &&
         (run.status == RunStatus::kRunning || run.status == RunStatus::kRollingBack);
}

DeliveryOutcome execute_delivery(DurableEnv& env, const Definition& def, Run run,
                                 const Writer& delivered, const Delivery& d,
                                 const DeliveryOptions& o) {
  // A scheduled run is delivered due (process_delivery put an early one back): it starts as an
  // enqueued one. Its fetch left it filed scheduled (run_started false): its start commit files it.
  const bool starts = run.status == RunStatus::kEnqueued || run.status == RunStatus::kScheduled;
  if (starts) advance(run, RunEvent::kDeliver);
  if (starts) run.suspension.reset();
  Writer w = delivered;
  std::optional<Holding> holding;
  if (declares_coordination(*def.data())) {
    holding.emplace(env, def, run, w.lease, Holding::Where{true, d.job.spec.snoozes});
    if (auto refused = admit(env, *holding, w, d, run)) return *refused;
    w.decor = &*holding;
  }
  auto entry = env.keeper.keep(w.lease, env.options.lease_ttl, o.asked_at);
  file_in_flight(o.in_flight, entry, d, w.job_owner);
  DurableFanOut fan_out(env, w, run);
  fan_out.set_delivered_slot(d.settled_slot);
  DurablePort port(w, *entry, &fan_out);
  port.set_stop_flag(o.release_requested);
  if (holding) port.set_holding(&*holding);
  // Who wrote the run last (as it was read), and from now on this execution.
  if (taken_over(run, w.lease.token) && env.observe) {
    const std::string no_step;
    env.observe(def, [&](Observer& o) {
      o.on_lease_takeover(EventContext{run.id, run.reactor, no_step, 0});
    });
  }
  port.set_previous(run.exec_token, run.exec_worker);
  run.exec_token = w.lease.token;
  run.exec_worker = env.worker_id;
  ExecuteOutcome out = env.execute(
      run, def, durable_options(env.options, port, o.yield_on_retry_wait, starts && d.run_started),
      /*run_is_new=*/false);
  file_in_flight(o.in_flight, nullptr, d, w.job_owner);
  env.keeper.drop(entry);
  if (out.stopped()) {
    if (out.stop_reason.code() == StatusCode::kLeaseLost) return DeliveryOutcome::kLeaseLost;
    // A record the run read on its way (a map's slot, a unit's) is unreadable: reading it again
    // will not help, so the run fails rather than its job bounce for ever.
    if (out.stop_reason.code() == StatusCode::kCorruption) {
      return fail_unreadable(env, d, w, out.stop_reason);
    }
    return DeliveryOutcome::kBackendError;
  }
  if (is_terminal(run.status)) return DeliveryOutcome::kFinished;
  // The commit that suspended or released the run also let its lease go and enqueued its job.
  switch (out.end) {
    case ExecuteOutcome::End::kSuspended:
      return DeliveryOutcome::kSuspended;
    case ExecuteOutcome::End::kLeftUnfinished:
    case ExecuteOutcome::End::kHandedOff:
      return DeliveryOutcome::kReleased;
    default:
      return DeliveryOutcome::kBackendError;  // cannot happen: say so loudly
  }
}

// The record, not the job, says which graph the run belongs to (`def`, found by the run's
// reactor); the job's name only routed it here. A run none of whose steps has executed
// (enqueued before a deploy) starts on the definition registered now; one that has executed
// steps cannot change graphs. The outcome of failing the run when it cannot execute here.
std::optional<DeliveryOutcome> check_definition(DurableEnv& env, const Writer& w, Run& run,
                                                const JobSpec& job,
                                                const std::optional<Definition>& def) {
  if (!def) {
    return fail_run(env, w, run, ErrorKind::kUnknownReactor,
                    "run " + run.id + " names reactor '" + run.reactor +
                        "', which is not registered here (its job was routed as '" + job.reactor +
                        "')");
  }
  if (run.fingerprint == def->fingerprint()) return std::nullopt;
  if (!any_step_executed(run)) {
    replan(run, *def);
    return std::nullopt;
  }
  return fail_run(env, w, run, ErrorKind::kDefinitionChanged,
                  "run " + run.id + " was started on another definition of '" + run.reactor +
                      "' (fingerprint " + run.fingerprint + ", now " + def->fingerprint() + ")");
}

}  // namespace

DeliveryOutcome committed(const Status& s, DeliveryOutcome if_ok) {
  if (s.code() == StatusCode::kLeaseLost) return DeliveryOutcome::kLeaseLost;
  return s.ok() ? if_ok : DeliveryOutcome::kBackendError;
}

void file_in_flight(InFlight* in_flight, std::shared_ptr<LeaseKeeper::Entry> lease,
                    const Delivery& d, const std::string& owner) {
  if (in_flight == nullptr) return;
  std::lock_guard lock(in_flight->mu);
  in_flight->lease = std::move(lease);
  in_flight->job_id = d.job.id;
  in_flight->owner = owner;
}

Status abandon(DurableEnv& env, InFlight& in_flight) {
  std::lock_guard lock(in_flight.mu);
  if (!in_flight.lease) return Status::Ok();
  LeaseKeeper::Entry& entry = *in_flight.lease;
  entry.lost = true;  // its execution commits nothing more and starts no body
  Status released =
      env.backend.release_lease(entry.lease.key, entry.lease.owner, entry.lease.token);
  Status job = env.backend.release_job(in_flight.job_id, in_flight.owner, Duration::zero());
  return released.ok() ? job : released;
}

Status put_back(DurableEnv& env, const Delivery& d, const std::string& owner, Duration delay) {
  Status released = d.run_leased ? unstart_and_release(env, d, owner) : Status::Ok();
  // The job goes back even when the run could not be released: its lease lapses.
  Status job = env.backend.release_job(d.job.id, owner, delay);
  return released.ok() ? job : released;
}

DeliveryOutcome process_delivery(DurableEnv& env, const Delivery& d, const std::string& owner,
                                 const DeliveryOptions& o) {
  const JobSpec& job = d.job.spec;
  auto def = env.registry.find(job.reactor);
  if (!def) {
    // Misrouted: another service's reactor. Hand it back untouched.
    return committed(put_back(env, d, owner, env.options.lock_snooze_base_delay),
                     DeliveryOutcome::kNotServed);
  }
  if (!d.run_leased) return snooze(env, d, owner);

  Writer w{env, d.run_lease, d.job.id, owner, o.next};
  w.lost_deliveries = static_cast<std::uint32_t>(std::max(d.run_deliveries - 1, 0));
  if (auto ended = end_crash_loop(env, d, w)) return *ended;
  // The run came with the delivery when the backend read it with the lease;
  // otherwise it is loaded now.
  Result<StoredRun> loaded =
      d.run ? Result<StoredRun>(StoredRun{}) : env.backend.load_run(job.run_id);
  Status s = loaded.status();
  if (s.code() == StatusCode::kNotFound) return acknowledge(env, w);
  if (s.code() == StatusCode::kUnavailable) return snooze_capped(env, d, w, s);
  if (s.code() == StatusCode::kCorruption) return fail_unreadable(env, d, w, s);
  if (!s.ok()) return DeliveryOutcome::kBackendError;
  const StoredRun& stored = d.run ? *d.run : *loaded;

  Run run;
  s = records::decode_run(stored, run);
  if (!s.ok()) return fail_unreadable(env, d, w, s);
  if (is_terminal(run.status)) return acknowledge(env, w);
  if ((run.status == RunStatus::kWaiting || run.status == RunStatus::kScheduled) &&
      run.suspension && run.suspension->kind == SuspensionKind::kUntil &&
      run.suspension->until_ms > env.now_ms()) {
    return put_back_until(env, d, owner, run.suspension->until_ms);
  }
  if (auto paused = while_paused(env, d, w, run)) return *paused;
  if (run.reactor != job.reactor) def = env.registry.find(run.reactor);
  // A claim's elements run on the definition registered now: none of them was checkpointed.
  if (auto claim = parse_claim_run_id(run.id); claim && def) {
    return deliver_claim(env, *def, std::move(run), *claim, w, d, o);
  }
  if (auto refused = check_definition(env, w, run, job, def)) return *refused;
  records::name_steps(run, *def->data());
  // A record can decode and still not be a run of this graph: the executor indexes by it.
  if (auto why = records::run_shape_error(run, *def->data(), env.options.max_value_bytes)) {
    return fail_run(env, w, std::move(run), ErrorKind::kCorruptRecord, *why);
  }
  if (auto skipped = skip_orphaned_unit(env, w, run)) return *skipped;
  return execute_delivery(env, *def, std::move(run), w, d, o);
}

}  // namespace reactor
