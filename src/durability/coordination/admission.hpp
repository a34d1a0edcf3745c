// What a worker's delivery writes when admission (Holding::admit) does not let the run go: a
// halt before any step, or a snooze — each one fenced commit that also acknowledges the job and
// releases the run's lease.
#pragma once

#include "durability/coordination/holding.hpp"
#include "durability/writer.hpp"

namespace reactor {

// The run halted before any step (its period is done, its ordered chain failed): `why` is its
// value.
Status halt_at_admission(DurableEnv& env, const Writer& w, Run run, Value why);
// Contended: the delivered job again, due at a.due_ms, holding nothing meanwhile; the run's
// header is written back as the fetch read it (its status, and the execution it names).
Status snooze_at_admission(DurableEnv& env, const Writer& w, const Delivery& d, const Admission& a);

}  // namespace reactor
