#include "durability/coordination/admission.hpp"

#include "base/run_machine.hpp"
#include "durability/durable_fan_out.hpp"
#include "records/codec.hpp"

namespace reactor {

Status halt_at_admission(DurableEnv& env, const Writer& w, Run run, Value why) {
  advance(run, RunEvent::kHalt);
  run.suspension.reset();
  run.value = std::move(why);
  run.updated_at_ms = env.now_ms();
  CommitRequest c = w.fenced();
  c.headers.push_back(records::encode_header(run, env.expiry_ms()));
  // An element's slot is filed halted, so its map settles.
  if (!run.element_of) run.element_of = parse_element_run_id(run.id);
  c.settle = settle_of(run);
  w.finish_with(c);
  return env.backend.commit(c);
}

Status snooze_at_admission(DurableEnv& env, const Writer& w, const Delivery& d,
                           const Admission& a) {
  CommitRequest c = w.fenced();
  // Its header as the fetch read it, even for a run filed running already: the fetch named this
  // delivery as its executor, and the next one would take the steps this one never started for
  // ones it lost with its worker.
  if (d.run && !d.run->headers.empty()) {
    c.headers.push_back(d.run->headers.front());
    // Seen now: a run waiting its turn is no poison pill to the later runs of its chain.
    c.headers.back().updated_at_ms = env.now_ms();
  }
  JobSpec again = d.job.spec;
  again.run_at_ms = a.due_ms;
  again.snoozes += a.counts ? 1 : 0;
  c.enqueue.push_back(std::move(again));
  w.finish_with(c);
  return env.backend.commit(c);
}

}  // namespace reactor
