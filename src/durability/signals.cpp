#include "durability/signals.hpp"

#include <chrono>
#include <thread>

#include "base/run_machine.hpp"
#include "definition/inputs.hpp"
#include "durability/correlation.hpp"
#include "durability/sync_run.hpp"
#include "durability/writer.hpp"
#include "execution/interrupts.hpp"
#include "reactor/ids.hpp"
#include "records/run_rows.hpp"
#include "records/run_shape.hpp"

namespace reactor {

namespace {

// The run's lease, held for a claim: let go when the claim ends, unless the run goes on here.
struct HeldRun {
  DurableEnv& env;
  Lease lease;
  bool handed_on = false;
  ~HeldRun() {
    if (!handed_on) (void)env.backend.release_lease(lease.key, lease.owner, lease.token);
  }
};

// A stored run, its steps named after the definition it runs on.
struct LoadedRun {
  Run root;
  Definition def;
};

Result<LoadedRun> load(DurableEnv& env, const std::string& run_id) {
  Result<StoredRun> stored = env.backend.load_run(run_id);
  if (stored.status().code() == StatusCode::kNotFound) {
    return Status::NotFound("no run " + run_id);
  }
  if (!stored.ok()) return stored.status();
  Run root;
  if (Status s = records::decode_run(*stored, root); !s.ok()) return s;
  std::optional<Definition> def = env.registry.find(root.reactor);
  if (!def) {
    return Status::NotFound("run " + run_id + " is of reactor '" + root.reactor +
                            "', which is not registered here");
  }
  if (def->fingerprint() != root.fingerprint) {
    return Status::FailedPrecondition("run " + run_id + " was started on another definition of '" +
                                      root.reactor + "'");
  }
  records::name_steps(root, *def->data());
  return LoadedRun{std::move(root), std::move(*def)};
}

// The interrupt a path names in a run tree: the run holding it and its index there.
struct Located {
  Run* run = nullptr;
  std::size_t index = 0;
  const StepSpec* spec = nullptr;
  StepRecord& rec() const { return run->steps[index]; }
};

Result<Located> locate(Run& root, const DefinitionData& def, const std::string& path) {
  Run* run = &root;
  const DefinitionData* d = &def;
  for (std::size_t from = 0;;) {
    const std::size_t slash = path.find('/', from);
    const std::string name = path.substr(from, slash == std::string::npos ? slash : slash - from);
    auto it = std::find_if(d->steps.begin(), d->steps.end(),
                           [&](const StepSpec& s) { return s.name == name; });
    if (it == d->steps.end()) return Status::NotFound("no step '" + path + "' in " + def.name);
    const auto i = static_cast<std::size_t>(it - d->steps.begin());
    if (slash == std::string::npos) {
      if (it->kind != StepKind::kInterrupt) {
        return Status::InvalidArgument("step '" + path + "' of " + def.name +
                                       " is not an interrupt");
      }
      return Located{run, i, &*it};
    }
    if (it->kind != StepKind::kCompose) {
      return Status::NotFound("no step '" + path + "' in " + def.name);
    }
    if (run->steps[i].children.empty()) {
      return Status::FailedPrecondition("interrupt '" + path + "' of run " + root.id +
                                        " is not reached yet: its dependencies are not complete");
    }
    run = &run->steps[i].children[0];
    d = it->child.get();
    from = slash + 1;
  }
}

Status check_run(const Run& root) {
  if (root.status == RunStatus::kCancelled) {
    return Status::FailedPrecondition("run " + root.id + " is cancelled: it is never resumed");
  }
  if (root.status == RunStatus::kRollingBack) {
    return Status::FailedPrecondition("run " + root.id + " is rolling back");
  }
  if (is_terminal(root.status)) {
    return Status::FailedPrecondition("run " + root.id + " has ended " + to_string(root.status));
  }
  return Status::Ok();
}

Status check_step(const Run& root, const Located& at, const std::string& path) {
  const StepRecord& rec = at.rec();
  const std::string which = "interrupt '" + path + "' of run " + root.id;
  switch (rec.status) {
    case StepStatus::kPaused:
      return Status::Ok();
    case StepStatus::kCompleted:
      return Status::AlreadyExists(which + " was resumed already");
    case StepStatus::kPending:
      return Status::FailedPrecondition(which +
                                        " is not reached yet: its dependencies are not complete");
    default:
      return Status::FailedPrecondition(which + " is " + to_string(rec.status) +
                                        (rec.error.empty() ? "" : ": " + rec.error));
  }
}

// Why the interrupt cannot be claimed, as the run stands; Ok when it may be.
Status refusal(Run& root, const Definition& def, const std::string& path,
               Result<Located>* where = nullptr) {
  if (Status s = check_run(root); !s.ok()) return s;
  Result<Located> at = locate(root, *def.data(), path);
  if (!at.ok()) return at.status();
  if (Status s = check_step(root, *at, path); !s.ok()) return s;
  if (where != nullptr) *where = std::move(at);
  return Status::Ok();
}

// The run's lease, for the claim. While another execution holds it the run is read as it
// stands: a resume that cannot win (the interrupt was resumed, the run ended) is told so at
// once; otherwise it waits for the holder to let go, for at most two lease TTLs.
Result<Lease> take_run(DurableEnv& env, const ResumeAsk& ask) {
  const std::string owner = "resume:" + new_run_id();
  const auto give_up = std::chrono::steady_clock::now() + 2 * env.options.lease_ttl;
  for (;;) {
    Result<LeaseGrant> g =
        env.backend.acquire_lease(run_lease_key(ask.run_id), owner, env.options.lease_ttl);
    if (!g.ok()) return g.status();
    if (g->granted) return g->lease;
    Result<LoadedRun> now = load(env, ask.run_id);
    if (!now.ok()) return now.status();
    if (Status s = refusal(now->root, now->def, ask.step); !s.ok()) return s;
    if (std::chrono::steady_clock::now() > give_up) {
      return Status::Unavailable("run " + ask.run_id +
                                 " is executing elsewhere and did not let go in time; resume it "
                                 "again once it pauses");
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
}

// Writes what the claim changed (`delta`) and lets the run go on: here (the lease handed on to
// the execution), or in a worker, its job due at once in the same commit.
Result<RunResult> go_on(HeldRun& held, LoadedRun& loaded, CheckpointDelta& delta, bool run_inline) {
  DurableEnv& env = held.env;
  Run& root = loaded.root;
  if (root.status == RunStatus::kPaused) {
    advance(root, RunEvent::kResume);
    root.suspension.reset();
  }
  root.updated_at_ms = env.now_ms();
  Writer w{env, held.lease, std::nullopt, ""};
  CommitRequest c = w.fenced();
  encode_delta(root, delta, env.expiry_ms(), c);
  if (!run_inline) {
    c.enqueue.push_back(env.resume_job(root, env.now_ms()));
    c.release_lease = true;
  }
  if (Status s = env.backend.commit(c); !s.ok()) return s;
  held.handed_on = true;  // released by the commit, or by the execution's end
  if (!run_inline) return make_run_result(root);
  return execute_held(env, loaded.def, std::move(root), held.lease);
}

// Counts an invalid payload (when max_attempts counts them): the last one wakes the run to roll
// back. The refusal names every field error.
Result<RunResult> refuse_payload(HeldRun& held, LoadedRun& loaded, const Located& at,
                                 const std::string& path, const std::vector<FieldError>& errors,
                                 bool run_inline) {
  const int max = at.spec->interrupt->max_attempts;
  std::string why = "invalid payload for interrupt '" + path + "' of run " + loaded.root.id + ": " +
                    describe(errors);
  if (max <= 1) return Status::InvalidArgument(why);
  StepRecord& rec = at.rec();
  ++rec.attempts;
  CheckpointDelta delta;
  delta.trace_begin = loaded.root.trace.size();
  delta.steps.emplace_back(at.run, at.index);
  loaded.root.trace.push_back(TraceEvent{TraceType::kInterrupt, path, rec.attempts,
                                         "invalid_payload", describe(errors), held.env.now_ms()});
  if (rec.attempts >= max) {
    why +=
        "; that was the last of max_attempts " + std::to_string(max) + ": the run is rolled back";
    Result<RunResult> woken = go_on(held, loaded, delta, run_inline);
    if (!woken.ok()) return woken.status();
    return Status::InvalidArgument(why);
  }
  Writer w{held.env, held.lease, std::nullopt, ""};
  CommitRequest c = w.fenced();
  encode_delta(loaded.root, delta, held.env.expiry_ms(), c);
  if (Status s = held.env.backend.commit(c); !s.ok()) return s;
  return Status::InvalidArgument(why + " (" + std::to_string(rec.attempts) + " of " +
                                 std::to_string(max) + ")");
}

// The payload with its fields' defaults, checked as inputs are; without declared fields, any
// object.
std::vector<FieldError> check_payload(const InterruptSpec& in, Value& payload) {
  if (in.payload.empty()) {
    if (payload.is_null()) payload = Value::object();
    if (payload.is_object()) return {};
    return {FieldError{"", "payload must be a JSON object"}};
  }
  return validate_fields(in.payload, payload, "payload", "payload field");
}

}  // namespace

Result<RunResult> resume_interrupt(DurableEnv& env, const ResumeAsk& ask) {
  Result<Lease> lease = take_run(env, ask);
  if (!lease.ok()) return lease.status();
  HeldRun held{env, std::move(lease).value()};
  Result<LoadedRun> loaded = load(env, ask.run_id);
  if (!loaded.ok()) return loaded.status();
  Result<Located> at = Status::Internal("unset");
  if (Status s = refusal(loaded->root, loaded->def, ask.step, &at); !s.ok()) return s;
  StepRecord& rec = at->rec();
  CheckpointDelta delta;
  delta.trace_begin = loaded->root.trace.size();
  delta.headers.push_back(at->run);
  if (auto expired = interrupt_expired(*at->spec, rec, env.now_ms())) {
    Result<RunResult> woken = go_on(held, *loaded, delta, ask.run_inline);
    if (!woken.ok()) return woken.status();
    return Status::DeadlineExceeded(*expired + "; the run is rolled back");
  }
  Value payload = ask.payload;
  std::vector<FieldError> errors = check_payload(*at->spec->interrupt, payload);
  if (!errors.empty()) {
    return refuse_payload(held, *loaded, *at, ask.step, errors, ask.run_inline);
  }
  // Its correlation id stays with it, so that a late resume by that id is told it was resumed.
  complete_interrupt(loaded->root, *at->run, rec, ask.step, std::move(payload), env.now_ms());
  delta.steps.emplace_back(at->run, at->index);
  return go_on(held, *loaded, delta, ask.run_inline);
}

Result<RunResult> resume_by_correlation(DurableEnv& env, const std::string& correlation_id,
                                        Value payload, bool run_inline) {
  Result<Correlation> c = find_correlation(env.backend, correlation_id);
  if (!c.ok()) return c.status();
  return resume_interrupt(env, ResumeAsk{c->root_id, c->path, std::move(payload), run_inline});
}

}  // namespace reactor
