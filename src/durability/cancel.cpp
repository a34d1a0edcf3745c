// Cancel: an operator stops a run for good. Its lease is seized, whoever holds it, so the
// execution of the run (if any) has its next commit refused as a lost lease's, and starts no
// further step; the run is written cancelled under the new token in one commit.
#include "base/run_errors.hpp"
#include "base/run_machine.hpp"
#include "durability/claims.hpp"
#include "durability/control.hpp"
#include "durability/writer.hpp"
#include "reactor/ids.hpp"
#include "records/codec.hpp"
#include "records/run_rows.hpp"

namespace reactor {

namespace {

Status refuse_cancel(const Run& run) {
  if (run.status == RunStatus::kRollingBack) {
    return Status::FailedPrecondition("run " + run.id +
                                      " is rolling back: it cannot be cancelled midway");
  }
  if (is_terminal(run.status)) {
    return Status::FailedPrecondition("run " + run.id + " is " + to_string(run.status) +
                                      ": only a live run can be cancelled");
  }
  return Status::Ok();
}

// An element or a claim of a fan-out map is its map's: the operator acts on the run that owns it.
Status owned_by_map(const std::string& run_id, const char* what, const std::string& map_id) {
  return Status::InvalidArgument("run " + run_id + " is " + what + " of fan-out map " + map_id +
                                 ": act on its run " + map_id.substr(0, map_id.find(':')));
}

// A claimed element has no run: its map and its claim's run say whether it exists.
Status no_run(DurableEnv& env, const std::string& run_id) {
  if (std::optional<ElementOf> e = parse_element_run_id(run_id)) {
    MapRow map;
    RunHeaderRow claim;
    if (find_claimed(env.backend, env.backend, *e, map, claim).ok()) {
      return owned_by_map(run_id, "an element", e->map_id);
    }
  }
  return Status::NotFound("no run " + run_id);
}

}  // namespace

Result<Run> load_operated_run(DurableEnv& env, const std::string& run_id) {
  Result<StoredRun> loaded = env.backend.load_run(run_id);
  if (loaded.status().code() == StatusCode::kNotFound) return no_run(env, run_id);
  if (!loaded.ok()) return loaded.status();
  Run run;
  if (Status s = records::decode_run(*loaded, run); !s.ok()) return s;
  if (!run.element_of) run.element_of = parse_element_run_id(run.id);
  if (run.element_of) return owned_by_map(run_id, "an element", run.element_of->map_id);
  if (std::optional<ClaimOf> claim = parse_claim_run_id(run.id)) {
    return owned_by_map(run_id, "a claim", claim->map_id);
  }
  if (!run.parent_id.empty() || run.id != run.root_id) {
    return Status::InvalidArgument("run " + run_id + " is a composed child of run " + run.root_id +
                                   ": act on that run");
  }
  return run;
}

Status cancel_run(DurableEnv& env, const std::string& run_id, const std::string& reason) {
  Result<Run> before = load_operated_run(env, run_id);
  if (!before.ok()) return before.status();
  if (Status s = refuse_cancel(*before); !s.ok()) return s;
  // Seized, not acquired: a live execution must not be waited for, it is what is stopped.
  Result<Lease> seized = env.backend.seize_lease(run_lease_key(run_id), "cancel:" + new_run_id(),
                                                 env.options.lease_ttl);
  if (!seized.ok()) return seized.status();
  const Writer w{env, *seized, std::nullopt, ""};
  // Read again under the seized lease: what the last execution committed before it lost it.
  Result<Run> loaded = load_operated_run(env, run_id);
  Status s = loaded.status();
  if (s.ok()) s = refuse_cancel(*loaded);
  if (!s.ok()) {
    (void)env.backend.release_lease(seized->key, seized->owner, seized->token);  // else it lapses
    return s;
  }
  Run run = std::move(loaded).value();
  advance(run, RunEvent::kCancel);
  run.suspension.reset();
  run.error = engine_error(ErrorKind::kCancelled, run.reactor,
                           reason.empty() ? std::string("cancelled by an operator") : reason);
  run.updated_at_ms = env.now_ms();
  run.exec_token = seized->token;
  run.exec_worker = env.worker_id;
  CommitRequest c = w.fenced();
  c.headers.push_back(records::encode_header(run, env.expiry_ms()));
  w.finish_with(c);
  return env.backend.commit(c);
}

}  // namespace reactor
