// The durable records a backend stores: run headers, step records, trace
// events, jobs and leases. Backends store these shapes and nothing else, so
// one conformance suite can hold every backend to the same contract.
// The layouts are documented in docs/storage.md.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "reactor/run.hpp"
#include "reactor/run_status.hpp"
#include "reactor/schedule.hpp"
#include "reactor/value.hpp"

namespace reactor {

// The small, fixed-size part of a run (a root, a composed child or a map
// element). Everything that grows with the run lives in StepRow / TraceRow.
struct RunHeaderRow {
  std::string id;
  std::string root_id;
  std::string parent_id;  // empty for a root
  std::string reactor;
  RunStatus status = RunStatus::kPending;
  std::string fingerprint;
  int schema_version = 0;
  // JSON text of the rest of the header (path, value, error, failed step,
  // completion counter, times). Opaque to backends.
  std::string body;
  std::int64_t updated_at_ms = 0;
  // After this time a terminal run may be purged. Re-stamped on every write.
  std::int64_t expires_at_ms = 0;
  // The execution that wrote this header last (Run::exec_token, exec_worker).
  std::uint64_t exec_token = 0;
  std::string exec_worker{};
  // A `waiting` root: by when a job must exist to wake it (its suspension's
  // end or deadline); 0 when only an event wakes it. A `scheduled` root: its
  // start time. The sweeper re-enqueues a waiting or scheduled root with a
  // wake time and no job.
  std::int64_t wake_at_ms = 0;
};

// Inputs are written once, when the run is created.
struct RunInputsRow {
  std::string run_id;
  std::string inputs;  // JSON text
};

// One step of one run: (run id, step index) → JSON text of the StepRecord
// without its children (children are runs of their own).
struct StepRow {
  std::string run_id;
  std::uint32_t index = 0;
  std::string body;
};

// One trace event of a root run, appended, never rewritten.
struct TraceRow {
  std::string root_id;
  std::uint64_t seq = 0;  // position in the root's trace, from 0
  std::string body;
};

// The rows of one or more run trees: what a commit writes, what a load returns.
struct RunRows {
  std::vector<RunHeaderRow> headers;
  std::vector<RunInputsRow> inputs;
  std::vector<StepRow> steps;
  std::vector<TraceRow> trace;
};

// Everything stored for one root run and its children: headers root first,
// trace by seq.
struct StoredRun : RunRows {
  std::uint64_t fencing_token = 0;  // newest token granted on the run's lease
};

enum class JobKind { kStart, kResume };
const char* to_string(JobKind k);
JobKind job_kind_from_string(const std::string& s);

// A job carries identity only: what to do and to which run. Everything else
// is read from storage when the job runs.
struct JobSpec {
  std::string queue;
  JobKind kind = JobKind::kResume;
  std::string run_id;  // a root run id
  std::string reactor;
  std::int64_t run_at_ms = 0;  // not delivered before
  int snoozes = 0;  // capped snoozes so far (a busy store); lease contention never counts
};

struct Job {
  std::int64_t id = 0;
  JobSpec spec;
  int deliveries = 0;  // including this one
  std::string lease_owner;
  std::int64_t lease_expires_ms = 0;
};

// A lease on a key (a run's liveness lease, a sweeper window). The token
// grows with every grant and is never reused for the key: writes fenced by a
// stale token are refused.
struct Lease {
  std::string key;
  std::string owner;
  std::uint64_t token = 0;
  std::int64_t expires_at_ms = 0;
};

// Filter for listing runs: the runs callers started (roots), and with
// `elements` the element runs of fan-out maps too.
struct RunFilter {
  std::optional<RunStatus> status;
  std::optional<std::string> reactor;
  std::size_t limit = 50;
  bool elements = false;
};

// Where a fan-out map stands (docs/maps.md). Map ids are "<root run id>:<path
// of the map step>"; element i of a map is the run "<map id>[i]", a run of its
// own (its own lease, records and trace), created `pending` by the owner and
// released to the queue by the store, at most batch_size outstanding.
enum class MapState {
  kRunning,  // elements are being released as others finish
  kFailing,  // an element of an atomic map failed: none is released any more
  kSettled,  // every released element has reported; its owner's resume is enqueued
};
const char* to_string(MapState s);
MapState map_state_from_string(const std::string& s);

// One fan-out map. Written whole by its owner while it dispatches the map;
// afterwards only the store changes it (MapSettle).
struct MapRow {
  std::string map_id;
  std::string owner_id;       // the root run (a storage root) whose resume the map settles into
  std::string owner_reactor;  // its reactor
  std::string queue;          // where its element jobs and its owner's resume go
  std::string element_reactor;
  std::uint32_t total = 0;       // elements
  std::uint32_t batch_size = 1;  // most released and unreported at once
  // Elements a claim holds: the store releases them together, as one run (claim_run_id) whose
  // job one worker fetches, and the commit that ends it files all their slots. Claim k holds
  // indices [k * claim, (k + 1) * claim) (fewer in the last). 1: each element a run of its own,
  // the layout before claims.
  std::uint32_t claim = 1;
  bool atomic = true;
  MapState state = MapState::kRunning;
  std::uint32_t released = 0;  // elements 0 … released-1 have been released (whole claims)
  // Slots present, by state: every element that reported, and of those the
  // ones that failed; and the completed ones rolled back since.
  std::uint32_t done = 0;
  std::uint32_t failed = 0;
  std::uint32_t undone = 0;
  // Of the slots present, the elements filed as never run because their owner ended first
  // (SlotState::kCancelled).
  std::uint32_t cancelled = 0;
  // Executions of its elements' steps lost with their workers and run again (each element's
  // StepRecord::interrupted, added by the settle that files its slot).
  std::uint32_t interrupted = 0;
};

// kCancelled: the element never ran — its owner was failing or halting before a worker started
// it (FanOut::cancel) —, its body the error its run was failed with (owner_ended).
enum class SlotState { kCompleted, kFailed, kHalted, kUndone, kCancelled };
const char* to_string(SlotState s);
SlotState slot_state_from_string(const std::string& s);

// What element `index` of a map came to: its value (completed), its run's
// error as JSON (failed, cancelled), its Halt reason (halted). An undone slot
// keeps the value it had.
struct MapSlotRow {
  std::string map_id;
  std::uint32_t index = 0;
  SlotState state = SlotState::kCompleted;
  std::string body;  // JSON text
  // The element run's executions lost with their workers (its steps' interrupted, summed): added
  // to the map's count when the slot is new; the owner copies their trace events into its own.
  std::uint32_t interrupted = 0;
  // An element of a claim (MapRow::claim > 1), completed, whose reactor has undos: its steps as
  // their undos need them (a JSON array of step records), since no run of its own keeps them.
  // Empty otherwise.
  std::string steps{};
};

// The run id of element `index` of map `map_id`, and back: nullopt when `run_id`
// is not an element's.
std::string element_run_id(const std::string& map_id, std::uint32_t index);
std::optional<ElementOf> parse_element_run_id(const std::string& run_id);

// The elements [first, last] of map `map_id` one claim holds (MapRow::claim).
struct ClaimOf {
  std::string map_id;
  std::uint32_t first = 0;
  std::uint32_t last = 0;
};
// The claim of `map` holding element `index`, and its end: one past its last element.
ClaimOf claim_of(const MapRow& map, std::uint32_t index);
std::uint32_t claim_end(const MapRow& map, std::uint32_t index);
// The run that carries a claim, "<map id>[<first>..<last>]", and back: nullopt when `run_id` is
// not a claim's of more than one element. For `map` and element `index`: the element's own run
// (element_run_id) when a claim is one element.
std::string claim_run_id(const ClaimOf& claim);
std::optional<ClaimOf> parse_claim_run_id(const std::string& run_id);
std::string claim_run_id(const MapRow& map, std::uint32_t index);

// The last commit of an element run (of a claim's run: the slots of all its
// elements): each slot is written (an element run again overwrites it), and
// for each slot that is new the store, in the same atomic commit, counts it
// and stops releasing after a failure of an atomic map; then it releases the
// next claims (each claim's run filed `enqueued`, its start job enqueued)
// while fewer than batch_size elements are out, and when every released
// element has reported files the map settled, enqueues its owner's resume
// and sets the owner's wake_at to now (a `waiting` owner whose resume job is
// lost is then found by the sweeper). A slot written again changes no count:
// a map is settled once, its owner resumed once.
//
// A new cancelled slot stops the map releasing elements (as an atomic map's failure does), and
// one of the next claim to release counts that claim as released: the map settles once the
// elements already out have reported.
struct MapSettle {
  MapSettle() = default;
  explicit MapSettle(MapSlotRow slot) { slots.push_back(std::move(slot)); }
  explicit MapSettle(std::vector<MapSlotRow> of_one_map) : slots(std::move(of_one_map)) {}

  std::vector<MapSlotRow> slots;  // of one map, applied in this order
};

// A periodic start as the store keeps it (schedule_store.hpp, docs/schedules.md): the Schedule,
// its inputs as JSON text, and the start of the last period a worker fired.
struct ScheduleRow {
  std::string name;
  std::string reactor;
  std::int64_t every_ms = 0;  // or
  std::string cron;
  std::string inputs = "{}";  // JSON text
  MissedPeriods missed = MissedPeriods::kFireOnce;
  std::int64_t grace_ms = 0;
  // The start of the last period whose run a worker started (Unix ms); a new schedule's is the
  // period it was added in, whose run it does not start.
  std::int64_t last_fired_ms = 0;
  std::int64_t updated_at_ms = 0;
};

}  // namespace reactor
