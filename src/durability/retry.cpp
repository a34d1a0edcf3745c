// Retry: a new run with the inputs of a finished one, the two linked both ways.
#include "durability/control.hpp"
#include "durability/start.hpp"
#include "durability/writer.hpp"
#include "reactor/ids.hpp"
#include "reactor/trace_context.hpp"
#include "records/codec.hpp"
#include "records/run_rows.hpp"

namespace reactor {

Status list_retry(DurableEnv& env, const std::string& original_id, const std::string& retry_id) {
  Result<LeaseGrant> grant =
      env.backend.acquire_lease(run_lease_key(original_id), new_run_id(), env.options.lease_ttl);
  if (!grant.ok()) return grant.status();
  if (!grant->granted) {
    return Status::Unavailable("run " + original_id + " is held by " + grant->lease.owner);
  }
  const Writer w{env, grant->lease, std::nullopt, ""};
  Result<Run> original = load_operated_run(env, original_id);
  Status s = original.status();
  if (s.ok()) {
    original->retries.push_back(retry_id);
    CommitRequest c = w.fenced();
    c.headers.push_back(records::encode_header(*original, env.expiry_ms()));
    w.finish_with(c);
    s = env.backend.commit(c);
  }
  if (!s.ok()) (void)env.backend.release_lease(w.lease.key, w.lease.owner, w.lease.token);
  return s;
}

Status persist_retry(DurableEnv& env, const Run& original, Run& retry) {
  if (!is_terminal(original.status)) {
    return Status::FailedPrecondition("run " + original.id + " is " + to_string(original.status) +
                                      ": only a run that ended can be retried");
  }
  retry.retried_from = original.id;
  // The retry continues the original's trace, its span a child of the original run's span.
  retry.trace_parent = child_trace_parent(original.trace_parent, original.id, "");
  return persist_background_run(env, retry);
}

}  // namespace reactor
