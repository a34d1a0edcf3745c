// The field list of every durable record, each written once (as LevelDB's
// VersionEdit lists a manifest record's fields in EncodeTo/DecodeFrom only).
// Every codec walks these lists with a visitor of its own: the JSON text the
// stores keep (FieldWriter, FieldReader), the Value forms of snapshots and
// results (ValueWriter, ValueReader), SQLite's columns. A new field is one
// line here; one added after records were first written is `optional`.
//
// A visitor `v` offers:
//   v(key, field)           a member every version of the record has
//   v.optional(key, field)  a member older records lack (it keeps its default)
//   v.raw_json(key, text)   a member holding JSON text that stays text
// for strings, integers, booleans, Values, enums (to_string / from_name),
// std::optional (null) and the nested records below (through fields()).
#pragma once

#include <concepts>
#include <type_traits>

#include "reactor/records.hpp"
#include "reactor/run.hpp"
#include "reactor/trace.hpp"

namespace reactor::records {

template <typename T, typename Of>
concept Either = std::same_as<std::remove_const_t<T>, Of>;

// One step of one run, as its row holds it (a composed child or a map
// element is a run of its own, so no children here).
template <Either<StepRecord> S, typename V>
void fields(S& s, V& v) {
  v("attempts", s.attempts);
  v("body_started", s.body_started);
  v("completion_seq", s.completion_seq);
  v("error", s.error);
  v("finished_at_ms", s.finished_at_ms);
  v("name", s.name);
  v("result", s.result);
  v("retry_at_ms", s.retry_at_ms);
  v("started_at_ms", s.started_at_ms);
  v("status", s.status);
  v.optional("token", s.token);  // header version 3
  v.optional("worker", s.worker);
  v.optional("interrupted", s.interrupted);
  v.optional("correlation_id", s.correlation_id);
  v.optional("deadline_ms", s.deadline_ms);
  v.optional("resumable", s.resumable);
}

// One event of a root's trace.
template <Either<TraceEvent> E, typename V>
void fields(E& e, V& v) {
  v("at_ms", e.at_ms);
  v("attempt", e.attempt);
  v("message", e.message);
  v("outcome", e.outcome);
  v("step", e.step);
  v("type", e.type);
  v.optional("worker", e.worker);  // header version 3
  v.optional("token", e.token);
}

template <Either<ElementOf> E, typename V>
void fields(E& e, V& v) {
  v("index", e.index);
  v("map_id", e.map_id);
}

template <Either<Suspension> S, typename V>
void fields(S& s, V& v) {
  v("children", s.children);
  v("kind", s.kind);
  v("on", s.on);
  v("until_ms", s.until_ms);
}

// What a run header holds besides the row's own columns (header_row_fields)
// and the list of its steps: the part of a run that changes as it executes.
template <Either<Run> R, typename V>
void run_state_fields(R& r, V& v) {
  v("created_at_ms", r.created_at_ms);
  v("error", r.error);
  v("failed_step", r.failed_step);
  v("next_completion_seq", r.next_completion_seq);
  v("path", r.path);
  v.optional("suspension", r.suspension);  // header version 3, snapshot version 2
  v("value", r.value);
  v.optional("element_of", r.element_of);      // header version 4, snapshot version 2
  v.optional("retried_from", r.retried_from);  // Engine::retry
  v.optional("retries", r.retries);
  v.optional("trace_parent", r.trace_parent);  // tracing (docs/observability.md, "Tracing")
}

// Who a run is, as a snapshot names it (a stored header keeps these as the
// row's columns instead).
template <Either<Run> R, typename V>
void run_identity_fields(R& r, V& v) {
  v("id", r.id);
  v("reactor", r.reactor);
  v("root_id", r.root_id);
  v("parent_id", r.parent_id);
  v("fingerprint", r.fingerprint);
  v("status", r.status);
  v("updated_at_ms", r.updated_at_ms);
}

// A stored run header: the columns a store files and indexes a run by, then
// its body. `status`, `updated_at`, `exec_token` and `exec_worker` come first,
// in this order: the Redis fetch script records who executes the run (and
// files an enqueued one as running) by rewriting exactly that prefix of the
// text FieldWriter makes of it.
template <Either<RunHeaderRow> H, typename V>
void header_row_fields(H& h, V& v) {
  v("status", h.status);
  v("updated_at", h.updated_at_ms);
  v.optional("exec_token", h.exec_token);  // SQLite schema 3, Redis layout 5
  v.optional("exec_worker", h.exec_worker);
  v("id", h.id);
  v("root_id", h.root_id);
  v("parent_id", h.parent_id);
  v("reactor", h.reactor);
  v("fingerprint", h.fingerprint);
  v("schema_version", h.schema_version);
  v("expires_at", h.expires_at_ms);
  v.optional("wake_at", h.wake_at_ms);  // SQLite schema 3, Redis layout 5
  v.raw_json("body", h.body);
}

// The rows a commit carries besides headers (reactor/records.hpp): a record (JSON text, opaque to
// the stores) with the ids a store keys it by. The Redis commit scripts take them through these
// lists (storage/redis/script_args.hpp).
template <Either<RunInputsRow> I, typename V>
void fields(I& i, V& v) {
  v("run_id", i.run_id);
  v("inputs", i.inputs);
}

template <Either<StepRow> S, typename V>
void fields(S& s, V& v) {
  v("run_id", s.run_id);
  v("index", s.index);
  v("body", s.body);
}

template <Either<TraceRow> T, typename V>
void fields(T& t, V& v) {
  v("root_id", t.root_id);
  v("seq", t.seq);
  v("body", t.body);
}

// What a job is: identity only (docs/durability.md).
template <Either<JobSpec> J, typename V>
void fields(J& j, V& v) {
  v("queue", j.queue);
  v("kind", j.kind);
  v("run_id", j.run_id);
  v("reactor", j.reactor);
  v("run_at", j.run_at_ms);
  v("snoozes", j.snoozes);
}

// A job as a store holds it: its spec, and its delivery.
template <Either<Job> J, typename V>
void fields(J& j, V& v) {
  v("id", j.id);
  fields(j.spec, v);
  v("deliveries", j.deliveries);
  v("lease_owner", j.lease_owner);
  v("lease_expires", j.lease_expires_ms);
}

// A fan-out map (docs/maps.md): who owns it, its shape, and how far it got.
template <Either<MapRow> M, typename V>
void fields(M& m, V& v) {
  v("map_id", m.map_id);
  v("owner_id", m.owner_id);
  v("owner_reactor", m.owner_reactor);
  v("queue", m.queue);
  v("element_reactor", m.element_reactor);
  v("total", m.total);
  v("batch_size", m.batch_size);
  v("atomic", m.atomic);
  v("state", m.state);
  v("released", m.released);
  v("done", m.done);
  v("failed", m.failed);
  v("undone", m.undone);
  v.optional("interrupted", m.interrupted);
  v.optional("cancelled", m.cancelled);
  v.optional("claim", m.claim);
}

// What one element of a map came to.
template <Either<MapSlotRow> S, typename V>
void fields(S& s, V& v) {
  v("map_id", s.map_id);
  v("index", s.index);
  v("state", s.state);
  v.raw_json("body", s.body);
  v.optional("interrupted", s.interrupted);
  v.optional("steps", s.steps);
}

// A periodic start (docs/schedules.md). last_fired_ms is the one field a worker changes.
template <Either<ScheduleRow> S, typename V>
void fields(S& s, V& v) {
  v("name", s.name);
  v("reactor", s.reactor);
  v("every_ms", s.every_ms);
  v("cron", s.cron);
  v("inputs", s.inputs);
  v("missed", s.missed);
  v("grace_ms", s.grace_ms);
  v("last_fired_ms", s.last_fired_ms);
  v("updated_at_ms", s.updated_at_ms);
}

}  // namespace reactor::records
