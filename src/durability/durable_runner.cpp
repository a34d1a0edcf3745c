#include "durability/durable_runner.hpp"

#include "core/run_errors.hpp"
#include "durability/run_records.hpp"
#include "reactor/engine.hpp"

namespace reactor {

const char* to_string(DeliveryOutcome o) {
  switch (o) {
    case DeliveryOutcome::kFinished:
      return "finished";
    case DeliveryOutcome::kYielded:
      return "yielded";
    case DeliveryOutcome::kSnoozed:
      return "snoozed";
    case DeliveryOutcome::kHandedBack:
      return "handed_back";
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

// How one execution writes: every commit is fenced by its lease token; the
// commit that makes the run terminal also acknowledges the job that brought
// it here and releases the lease, so a finished run costs no extra round trip.
struct Writer {
  DurableEnv& env;
  Lease lease;
  std::optional<std::int64_t> job_id;
  std::string job_owner;
  NextDelivery* next = nullptr;  // fetch it with the run's last commit

  CommitRequest fenced() const {
    CommitRequest c;
    c.root_id = lease.key.substr(4);  // "run:<id>"
    c.fencing_token = lease.token;
    c.lease_owner = lease.owner;
    return c;
  }

  void finish_with(CommitRequest& c) const {
    if (job_id) {
      c.ack_job = job_id;
      c.ack_owner = job_owner;
    }
    c.release_lease = true;
  }

  Status checkpoint(const Run& root, const CheckpointDelta& delta) const {
    Status s = write(root, delta);
    if (s.ok() && !delta.steps.empty()) env.durable_steps.fetch_add(1, std::memory_order_relaxed);
    return s;
  }

  Status write(const Run& root, const CheckpointDelta& delta) const {
    CommitRequest c = fenced();
    encode_delta(root, delta, env.expiry_ms(), c);
    if (!is_terminal(root.status)) return env.backend.commit(c);
    finish_with(c);
    // One job fetched ahead at most: a second terminal commit must not drop it.
    if (!next || next->delivery) return env.backend.commit(c);
    Status s = env.backend.commit_then_fetch(c, next->request, next->delivery);
    next->fetched = s.ok();
    return s;
  }
};

ExecuteHooks hooks_for(DurableEnv& env, const Writer& w, LeaseKeeper::Entry& entry,
                       bool yield_on_retry_wait, bool start_is_stored = false) {
  ExecuteHooks h;
  h.start_is_stored = start_is_stored;
  h.commit = [&w, &entry](const Run& root, const CheckpointDelta& delta) {
    if (entry.lost) return Status::LeaseLost("lease of run " + root.id + " was taken over");
    return w.checkpoint(root, delta);
  };
  h.yield_on_retry_wait = yield_on_retry_wait;
  h.checkpoint_min_interval = env.options.checkpoint_min_interval;
  h.hung_step_grace = env.options.hung_step_grace;
  h.on_hung_step = [&entry] { entry.abandoned = true; };
  return h;
}

// A terminal record for a run this process cannot execute.
Status fail_run(DurableEnv& env, const Writer& w, Run run, ErrorKind kind, std::string message) {
  run.status = RunStatus::kFailed;
  run.error = engine_error(kind, run.reactor, std::move(message));
  run.updated_at_ms = env.now_ms();
  CommitRequest c = w.fenced();
  c.headers.push_back(encode_header(run, env.expiry_ms()));
  w.finish_with(c);
  return env.backend.commit(c);
}

// The run as far as its header can be read, to rewrite its status; a bare
// shell when even the header is unreadable.
Run header_of(DurableEnv& env, const Delivery& d) {
  RunHeaderRow row;
  if (env.backend.load_header(d.job.spec.run_id, row).ok()) {
    try {
      return decode_header(row);
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
  return env.backend.commit(c).ok() ? DeliveryOutcome::kSnoozed : DeliveryOutcome::kBackendError;
}

// The store could not serve this delivery (busy, unreachable): put off like
// lease contention, but at most lock_snooze_max_attempts times; then the run
// fails with the reason rather than bouncing for ever.
DeliveryOutcome snooze_capped(DurableEnv& env, const Delivery& d, const Writer& w,
                              const Status& why) {
  const int cap = env.options.lock_snooze_max_attempts;
  if (cap >= 0 && d.job.spec.snoozes >= cap) {
    Status s = fail_run(env, w, header_of(env, d), ErrorKind::kContention,
                        "the store stayed unavailable through " + std::to_string(cap) +
                            " snoozes: " + why.message());
    return s.ok() ? DeliveryOutcome::kFailedRun : DeliveryOutcome::kBackendError;
  }
  CommitRequest c = w.fenced();
  c.enqueue.push_back(snoozed(env, d.job.spec, d.job.spec.snoozes + 1));
  w.finish_with(c);  // ack, and release the lease for whoever comes next
  return env.backend.commit(c).ok() ? DeliveryOutcome::kSnoozed : DeliveryOutcome::kBackendError;
}

DeliveryOutcome acknowledge(DurableEnv& env, const Writer& w) {
  CommitRequest c = w.fenced();
  w.finish_with(c);
  return env.backend.commit(c).ok() ? DeliveryOutcome::kAcknowledged
                                    : DeliveryOutcome::kBackendError;
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
  Status s = fail_run(env, w, std::move(header), ErrorKind::kCorruptRecord, why.message());
  return s.ok() ? DeliveryOutcome::kFailedRun : DeliveryOutcome::kBackendError;
}

// Lets go of a delivered run this worker will not execute. A run the fetch
// filed as running is filed back as it was (its header as the fetch read it),
// in the commit that releases the lease.
void unstart_and_release(DurableEnv& env, const Delivery& d, const std::string& owner) {
  if (!d.run_started || !d.run || d.run->headers.empty()) {
    env.backend.release_lease(d.run_lease.key, owner, d.run_lease.token);
    return;
  }
  Writer w{env, d.run_lease, std::nullopt, owner};
  CommitRequest c = w.fenced();
  c.headers.push_back(d.run->headers.front());
  c.release_lease = true;
  // If this fails the run stays filed as running with its lease held until
  // it lapses; then the sweeper or the job's next delivery takes it over.
  env.backend.commit(c);
}

DeliveryOutcome execute_delivery(DurableEnv& env, const Definition& def, Run run, const Writer& w,
                                 bool yield_on_retry_wait, bool run_started) {
  const bool starts = run.status == RunStatus::kEnqueued;
  if (starts) run.status = RunStatus::kPending;
  auto entry = env.keeper.keep(w.lease, env.options.lease_ttl);
  ExecuteOutcome out =
      env.execute(run, def, hooks_for(env, w, *entry, yield_on_retry_wait, starts && run_started),
                  /*run_is_new=*/false);
  env.keeper.drop(entry);
  if (out.stopped) {
    return out.stop_reason.code() == StatusCode::kLeaseLost ? DeliveryOutcome::kLeaseLost
                                                            : DeliveryOutcome::kBackendError;
  }
  if (is_terminal(run.status)) return DeliveryOutcome::kFinished;
  if (!out.resume_at_ms) return DeliveryOutcome::kBackendError;  // cannot happen: say so loudly
  // Waiting for a retry: hand the run back to the queue instead of holding a
  // thread. Its state (the scheduled retry) is already committed.
  CommitRequest c = w.fenced();
  c.enqueue.push_back(JobSpec{env.queue_for(run.reactor), JobKind::kResume, run.id, run.reactor,
                              *out.resume_at_ms, 0});
  w.finish_with(c);
  Status s = env.backend.commit(c);
  if (s.code() == StatusCode::kLeaseLost) return DeliveryOutcome::kLeaseLost;
  return s.ok() ? DeliveryOutcome::kYielded : DeliveryOutcome::kBackendError;
}

}  // namespace

Status persist_background_run(DurableEnv& env, const Run& run) {
  CommitRequest c;
  Run enqueued = run;
  enqueued.status = RunStatus::kEnqueued;
  encode_whole_run(enqueued, env.expiry_ms(), c);
  // Persist before enqueue, in one commit: there is never a job without its
  // run, nor (short of deleting a job by hand) a run without its job.
  c.enqueue.push_back(
      JobSpec{env.queue_for(run.reactor), JobKind::kStart, run.id, run.reactor, env.now_ms(), 0});
  return env.backend.commit(c);
}

RunResult run_synchronously(DurableEnv& env, const Definition& def, Run run) {
  const std::string owner = new_run_id();
  bool granted = false;
  Lease lease;
  Status s = env.backend.acquire_lease(run_lease_key(run.id), owner, env.options.lease_ttl, granted,
                                       lease);
  if (!s.ok() || !granted) {
    return failed_result(run.id, run.reactor, ErrorKind::kInternal,
                         s.ok() ? "run " + run.id + " is already held by another execution"
                                : "cannot take the run's lease: " + s.to_string());
  }
  Writer w{env, lease, std::nullopt, ""};
  auto entry = env.keeper.keep(lease, env.options.lease_ttl);
  ExecuteOutcome out = env.execute(run, def, hooks_for(env, w, *entry, false), /*run_is_new=*/true);
  env.keeper.drop(entry);
  RunResult r = make_run_result(run);
  if (out.stopped) {
    // The run did not advance durably past its last commit: say so, and let
    // recovery (the sweeper, once the lease lapses) carry it on.
    r.error = engine_error(ErrorKind::kInternal, run.reactor,
                           "stopped: " + out.stop_reason.to_string() +
                               "; the run continues from its last checkpoint under recovery");
  }
  return r;
}

void hand_back(DurableEnv& env, const Delivery& d, const std::string& owner, Duration delay) {
  if (d.run_leased) unstart_and_release(env, d, owner);
  env.backend.release_job(d.job.id, owner, delay);
}

DeliveryOutcome process_delivery(DurableEnv& env, const Delivery& d, const std::string& owner,
                                 bool yield_on_retry_wait, NextDelivery* next) {
  const JobSpec& job = d.job.spec;
  auto def = env.registry.find(job.reactor);
  if (!def) {
    // Misrouted: another service's reactor. Hand it back untouched.
    hand_back(env, d, owner, env.options.lock_snooze_base_delay);
    return DeliveryOutcome::kHandedBack;
  }
  if (!d.run_leased) return snooze(env, d, owner);

  Writer w{env, d.run_lease, d.job.id, owner, next};
  // The run came with the delivery when the backend read it with the lease;
  // otherwise it is loaded now.
  StoredRun loaded;
  Status s = d.run ? Status::Ok() : env.backend.load_run(job.run_id, loaded);
  if (s.code() == StatusCode::kNotFound) return acknowledge(env, w);
  if (s.code() == StatusCode::kUnavailable) return snooze_capped(env, d, w, s);
  if (s.code() == StatusCode::kCorruption) return fail_unreadable(env, d, w, s);
  if (!s.ok()) return DeliveryOutcome::kBackendError;
  const StoredRun& stored = d.run ? *d.run : loaded;

  Run run;
  s = decode_run(stored, run);
  if (!s.ok()) return fail_unreadable(env, d, w, s);
  if (is_terminal(run.status)) return acknowledge(env, w);
  // The record, not the job, says which graph the run belongs to; the job's
  // name only routed it here.
  if (run.reactor != job.reactor) def = env.registry.find(run.reactor);
  if (!def) {
    s = fail_run(env, w, run, ErrorKind::kUnknownReactor,
                 "run " + run.id + " names reactor '" + run.reactor +
                     "', which is not registered here (its job was routed as '" + job.reactor +
                     "')");
    return s.ok() ? DeliveryOutcome::kFailedRun : DeliveryOutcome::kBackendError;
  }
  if (run.fingerprint != def->fingerprint()) {
    s = fail_run(env, w, run, ErrorKind::kDefinitionChanged,
                 "run " + run.id + " was started on another definition of '" + run.reactor +
                     "' (fingerprint " + run.fingerprint + ", now " + def->fingerprint() + ")");
    return s.ok() ? DeliveryOutcome::kFailedRun : DeliveryOutcome::kBackendError;
  }
  return execute_delivery(env, *def, std::move(run), w, yield_on_retry_wait, d.run_started);
}

Status load_result(DurableEnv& env, const std::string& run_id, RunResult& out) {
  StoredRun stored;
  Status s = env.backend.load_run(run_id, stored);
  if (!s.ok()) return s;
  Run run;
  s = decode_run(stored, run);
  if (!s.ok()) {
    // A run failed for unreadable records keeps them as they were found (the
    // evidence), so they stay unreadable; its header, rewritten when it
    // failed, still says why, and that is what a reader needs.
    Run header;
    if (!decode_root_header(stored, header).ok() || !header.error ||
        header.error->kind != ErrorKind::kCorruptRecord) {
      return s;
    }
    header.steps.clear();
    run = std::move(header);
  }
  out = make_run_result(run);
  return Status::Ok();
}

Status persist_background_runs(DurableEnv& env, const std::vector<Run>& runs,
                               std::size_t& persisted) {
  persisted = 0;
  while (persisted < runs.size()) {
    const std::size_t left = runs.size() - persisted;
    const std::size_t end =
        persisted + (left < kBackgroundRunsPerCommit ? left : kBackgroundRunsPerCommit);
    CommitRequest c;
    const std::int64_t now = env.now_ms();
    const std::int64_t expires = env.expiry_ms();
    for (std::size_t i = persisted; i < end; ++i) {
      Run enqueued = runs[i];
      enqueued.status = RunStatus::kEnqueued;
      encode_whole_run(enqueued, expires, c);
      // Persist before enqueue, as for one run: each run and its job share a commit.
      c.enqueue.push_back(JobSpec{env.queue_for(enqueued.reactor), JobKind::kStart, enqueued.id,
                                  enqueued.reactor, now, 0});
    }
    if (Status s = env.backend.commit(c); !s.ok()) return s;
    persisted = end;
  }
  return Status::Ok();
}

}  // namespace reactor
