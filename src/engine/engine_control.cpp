// Engine's operator control: cancel, undo, retry and resume_halted, over the durability paths
// of src/durability/control.hpp.
#include "definition/inputs.hpp"
#include "durability/control.hpp"
#include "durability/inline_jobs.hpp"
#include "engine/engine_access.hpp"
#include "reactor/engine.hpp"

namespace reactor {

namespace {

Result<DurableEnv*> durable_of(const Engine& engine, const char* call) {
  DurableEnv* env = EngineAccess::durable_env(engine);
  if (env == nullptr) return Status::InvalidArgument(std::string(call) + " needs a durable engine");
  return env;
}

// With inline jobs, what was just queued has run when the call returns.
Status drain_if_inline(DurableEnv& env, const std::string& reactor) {
  return env.options.inline_jobs ? drain_inline(env, env.queue_for(reactor)) : Status::Ok();
}

}  // namespace

Status Engine::cancel(const std::string& run_id, const std::string& reason) {
  Result<DurableEnv*> env = durable_of(*this, "cancel");
  if (!env.ok()) return env.status();
  return cancel_run(**env, run_id, reason);
}

Result<RunResult> Engine::undo(const std::string& run_id) {
  Result<DurableEnv*> env = durable_of(*this, "undo");
  if (!env.ok()) return env.status();
  return undo_run(**env, run_id);
}

Result<std::string> Engine::retry(const std::string& run_id) {
  Result<DurableEnv*> found = durable_of(*this, "retry");
  if (!found.ok()) return found.status();
  DurableEnv& env = **found;
  Result<Run> original = load_operated_run(env, run_id);
  if (!original.ok()) return original.status();
  if (!is_terminal(original->status)) {
    return Status::FailedPrecondition("run " + run_id + " is " + to_string(original->status) +
                                      ": only a run that ended can be retried");
  }
  const std::optional<Definition> def = registry_.find(original->reactor);
  if (!def) return Status::NotFound("no reactor is registered as '" + original->reactor + "'");
  Value inputs = original->inputs;
  if (std::vector<FieldError> errors = validate_inputs(*def->data(), inputs); !errors.empty()) {
    return Status::InvalidArgument("run " + run_id + "'s inputs are not valid for '" + def->name() +
                                   "' now: " + describe(errors));
  }
  Run run = create_run(*def, std::move(inputs));
  if (Status s = persist_retry(env, *original, run); !s.ok()) return s;
  // The retry stands on its own record: a short list on the original is told, not returned.
  if (Status s = list_retry(env, run_id, run.id); !s.ok()) {
    logger().log(LogLevel::kWarning,
                 "retry " + run.id + " of run " + run_id +
                     " started, but the original does not list it: " + s.to_string());
  }
  if (Status s = drain_if_inline(env, run.reactor); !s.ok()) return s;
  return std::move(run.id);
}

Status Engine::resume_halted(const std::string& run_id) {
  Result<DurableEnv*> env = durable_of(*this, "resume_halted");
  if (!env.ok()) return env.status();
  if (Status s = resume_halted_run(**env, run_id); !s.ok()) return s;
  Result<RunHeaderRow> header = (*env)->backend.load_header(run_id);
  return header.ok() ? drain_if_inline(**env, header->reactor) : Status::Ok();
}

Status enqueue_resume(Engine& engine, const std::string& run_id, bool force) {
  Backend* backend = engine.backend();
  if (!backend) return Status::InvalidArgument("enqueue_resume needs an engine with a backend");
  Result<RunHeaderRow> header = backend->load_header(run_id);
  if (!header.ok()) return header.status();
  const RunHeaderRow& run = *header;
  if (!run.parent_id.empty() && run.root_id != run.id) {
    return Status::FailedPrecondition("run " + run_id + " is a child of run " + run.root_id +
                                      "; enqueue the root");
  }
  if (!force && is_terminal(run.status)) {
    return Status::FailedPrecondition("run " + run_id + " is " + to_string(run.status) +
                                      ": it has ended, and its job would only be acknowledged");
  }
  if (!force && !engine.registry().find(run.reactor)) {
    return Status::FailedPrecondition("run " + run_id + " is a run of reactor '" + run.reactor +
                                      "', which is not registered here");
  }
  CommitRequest c;
  c.enqueue.push_back(JobSpec{engine.queue_for(run.reactor), JobKind::kResume, run.id, run.reactor,
                              to_unix_ms(engine.clock().now()), 0});
  return backend->commit(c);
}

}  // namespace reactor
