#include "durability/start.hpp"

#include "base/run_machine.hpp"
#include "durability/coordination/hold_plan.hpp"
#include "records/codec.hpp"
#include "records/run_rows.hpp"

namespace reactor {

namespace {

// Persist before enqueue, in one commit: there is never a job without its
// run, nor (short of deleting a job by hand) a run without its job.
// A start due later is `scheduled` instead, suspended until then: the wake time its header
// files is what the sweeper gives a lost job (and delivery puts an early job back until).
void add_enqueued(DurableEnv& env, const Run& run, std::int64_t now, std::int64_t expires,
                  CommitRequest& c, std::int64_t start_at_ms = 0) {
  Run enqueued = run;
  const bool later = start_at_ms > now;
  advance(enqueued, later ? RunEvent::kSchedule : RunEvent::kEnqueue);
  if (later) enqueued.suspension = Suspension{SuspensionKind::kUntil, start_at_ms, {}, 0};
  records::encode_whole_run(enqueued, expires, c);
  c.create = true;  // a start never overwrites a run
  // Its turn in its ordered chain is taken with its start: start order is chain order.
  if (std::optional<Definition> def = env.registry.find(run.reactor)) {
    if (auto join = ordered_join_of(*def->data(), run.id, run.inputs)) {
      c.ordered_joins.push_back(std::move(*join));
    }
  }
  c.enqueue.push_back(JobSpec{env.queue_for(run.reactor), JobKind::kStart, run.id, run.reactor,
                              later ? start_at_ms : now, 0});
}

}  // namespace

Status match_existing(RunStore& store, const Run& asked) {
  Result<StoredRun> loaded = store.load_run(asked.id);
  if (!loaded.ok()) return loaded.status();
  const StoredRun& stored = *loaded;
  Run header;
  if (Status s = records::decode_root_header(stored, header); !s.ok()) return s;
  Value inputs;
  try {
    if (!stored.inputs.empty()) inputs = records::decode_inputs(stored.inputs.front().inputs);
  } catch (const std::exception& e) {
    return Status::Corruption("run " + asked.id + ": unreadable inputs: " + e.what());
  }
  if (header.reactor != asked.reactor) {
    return Status::AlreadyExists("run " + asked.id + " exists, of reactor '" + header.reactor +
                                 "', not '" + asked.reactor + "'");
  }
  if (inputs != asked.inputs) {
    return Status::AlreadyExists("run " + asked.id + " exists with other inputs");
  }
  return Status::Ok();
}

Status persist_background_run(DurableEnv& env, const Run& run, std::int64_t start_at_ms) {
  CommitRequest c;
  add_enqueued(env, run, env.now_ms(), env.expiry_ms(), c, start_at_ms);
  return env.backend.commit(c);
}

Status persist_background_runs(DurableEnv& env, const std::vector<Run>& runs,
                               std::size_t& persisted) {
  persisted = 0;
  while (persisted < runs.size()) {
    const std::size_t end = std::min(runs.size(), persisted + kBackgroundRunsPerCommit);
    CommitRequest c;
    const std::int64_t now = env.now_ms();
    const std::int64_t expires = env.expiry_ms();
    for (std::size_t i = persisted; i < end; ++i) add_enqueued(env, runs[i], now, expires, c);
    if (Status s = env.backend.commit(c); !s.ok()) return s;
    persisted = end;
  }
  return Status::Ok();
}

}  // namespace reactor
